import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resetConfig } from "@/lib/config";
import { createTestQueryClient, jsonResponse } from "@/test/utils";
import { Providers } from "./providers";
import { routes } from "./router";

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Providers client={createTestQueryClient()}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
}

function serve(config: Record<string, unknown> = {}) {
  vi.stubGlobal(
    "fetch",
    vi.fn<typeof fetch>((input) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      if (url.endsWith("/api/config")) {
        return Promise.resolve(jsonResponse({ anon_key: "anon", site_url: "", gate: false, gate_passed: true, preview: false, ...config }));
      }
      return Promise.resolve(jsonResponse({ status: "ok", version: "9.9.9", database: "postgres", migration: 1 }));
    }),
  );
}

afterEach(() => {
  resetConfig();
});

describe("routes", () => {
  it("sends a signed-out visitor to /login and remembers the page", async () => {
    serve();
    const router = renderAt("/audit-log?action=x");
    await vi.waitFor(() => {
      expect(router.state.location.pathname).toBe("/login");
    });
    expect(router.state.location.state).toEqual({ from: "/audit-log?action=x" });
  });

  it("sends everyone to /gate while the passcode gate is closed", async () => {
    serve({ gate: true, gate_passed: false });
    const router = renderAt("/login");
    await vi.waitFor(() => {
      expect(router.state.location.pathname).toBe("/gate");
    });
  });

  it("shows /health without checking the session", async () => {
    serve();
    renderAt("/health");
    expect(await screen.findByText("9.9.9", {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it.each([
    ["/insights", "/compliance-intel", "#insights"],
    ["/compliance-intelligent", "/compliance-intel", ""],
    ["/audit-logs", "/audit-log", ""],
    ["/audit-trail", "/audit-log", ""],
    ["/audit", "/audit-log", ""],
    ["/profile", "/account/profile", ""],
    ["/demo/anything", "/", ""],
  ])("redirects %s to %s%s (then to sign-in when signed out)", async (from, to, hash) => {
    serve();
    const router = renderAt(from);
    await vi.waitFor(() => {
      expect(router.state.location.pathname).toBe("/login");
    });
    expect(router.state.location.state).toEqual({ from: `${to}${hash}` });
  });
});
