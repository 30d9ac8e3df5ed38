import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { jsonResponse, renderWithQuery } from "@/test/utils";
import { HealthCard } from "./health-card";

const healthy = { status: "ok", version: "1.4.2", database: "sqlite", migration: 12 };

// Stubs the browser's fetch (not the server): each call takes the next answer.
function stubFetch(...answers: (() => Promise<Response>)[]) {
  const fetchMock = vi.fn<typeof fetch>();
  for (const answer of answers) {
    fetchMock.mockImplementationOnce(answer);
  }
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const ok = (body: unknown = healthy) => () => Promise.resolve(jsonResponse(body));

describe("HealthCard", () => {
  it("shows a spinner while the status is loading", () => {
    stubFetch(() => new Promise<Response>(() => undefined));
    renderWithQuery(<HealthCard />);

    expect(screen.getByRole("heading", { name: "Instance status" })).toBeInTheDocument();
    expect(screen.getByText("Checking the server…")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /refresh/i })).not.toBeInTheDocument();
  });

  it("shows status, version, database and migration when the server is ok", async () => {
    const fetchMock = stubFetch(ok());
    renderWithQuery(<HealthCard />);

    expect(await screen.findByText("System Healthy")).toBeInTheDocument();
    expect(screen.getByText("1.4.2")).toBeInTheDocument();
    expect(screen.getByText("SQLite")).toBeInTheDocument();
    expect(screen.getByText("12")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Refresh" })).toBeEnabled();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();

    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/health");
  });

  it("names the PostgreSQL backend and shows a status other than ok verbatim", async () => {
    stubFetch(ok({ status: "degraded", version: "2.0.0", database: "postgres", migration: 3 }));
    renderWithQuery(<HealthCard />);

    expect(await screen.findByText("Status: degraded")).toBeInTheDocument();
    expect(screen.getByText("PostgreSQL")).toBeInTheDocument();
    expect(screen.queryByText("System Healthy")).not.toBeInTheDocument();
  });

  it("fetches again when Refresh is pressed", async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch(ok(), ok({ ...healthy, version: "1.4.3", migration: 13 }));
    renderWithQuery(<HealthCard />);

    await user.click(await screen.findByRole("button", { name: "Refresh" }));

    expect(await screen.findByText("1.4.3")).toBeInTheDocument();
    expect(screen.getByText("13")).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it("shows the server's error and recovers when Try again succeeds", async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch(
      () => Promise.resolve(jsonResponse({ error: "database unavailable" }, { status: 503 })),
      ok(),
    );
    renderWithQuery(<HealthCard />);

    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("Couldn’t load the instance status")).toBeInTheDocument();
    expect(within(alert).getByText("database unavailable")).toBeInTheDocument();
    expect(screen.queryByText("System Healthy")).not.toBeInTheDocument();

    await user.click(within(alert).getByRole("button", { name: "Try again" }));

    expect(await screen.findByText("System Healthy")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it("explains when the server cannot be reached", async () => {
    stubFetch(() => Promise.reject(new TypeError("Failed to fetch")));
    renderWithQuery(<HealthCard />);

    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("The server could not be reached.")).toBeInTheDocument();
    expect(within(alert).getByRole("button", { name: "Try again" })).toBeEnabled();
  });

  it("treats a malformed status report as an error", async () => {
    stubFetch(ok({ status: "ok", version: 3 }));
    renderWithQuery(<HealthCard />);

    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText(/unexpected format/)).toBeInTheDocument();
  });

  it("keeps showing an error after a refresh fails", async () => {
    const user = userEvent.setup();
    stubFetch(ok(), () =>
      Promise.resolve(new Response("boom", { status: 500, statusText: "Internal Server Error" })),
    );
    renderWithQuery(<HealthCard />);

    await user.click(await screen.findByRole("button", { name: "Refresh" }));

    await waitFor(() => {
      expect(screen.getByRole("alert")).toHaveTextContent(
        "The server answered with HTTP 500 Internal Server Error.",
      );
    });
  });
});
