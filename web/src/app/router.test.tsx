import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";
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

describe("routes", () => {
  it("shows the welcome screen for paths without a screen of their own", async () => {
    renderAt("/some/where");

    expect(
      await screen.findByRole("heading", { level: 1, name: "Welcome to Fairbalance" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /view instance status/i })).toHaveAttribute(
      "href",
      "/health",
    );
    expect(screen.getByRole("banner")).toBeInTheDocument();
    expect(screen.getByRole("main")).toBeInTheDocument();
    expect(screen.getByRole("navigation", { name: "Main" })).toBeInTheDocument();
  });

  it("shows the instance status on /health", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn<typeof fetch>().mockResolvedValue(
        jsonResponse({ status: "ok", version: "9.9.9", database: "postgres", migration: 1 }),
      ),
    );
    renderAt("/health");

    expect(await screen.findByRole("heading", { level: 1, name: "Status" })).toBeInTheDocument();
    expect(await screen.findByText("9.9.9")).toBeInTheDocument();
    expect(document.title).toBe("Status · Fairbalance");
  });
});
