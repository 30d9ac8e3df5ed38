import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { ErrorBoundary } from "./error-boundary";
import { RouteError } from "./route-error";

function Bomb({ explode }: { explode: boolean }) {
  if (explode) throw new Error("kaboom");
  return <p>all good</p>;
}

function Harness() {
  const [explode, setExplode] = useState(true);
  return (
    <>
      <button type="button" onClick={() => { setExplode(false); }}>defuse</button>
      <ErrorBoundary>
        <Bomb explode={explode} />
      </ErrorBoundary>
    </>
  );
}

describe("error screens", () => {
  it("show 'Something went wrong' with Try Again and Reload Page", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    render(<Harness />);
    expect(screen.getByRole("heading", { name: "Something went wrong" })).toBeInTheDocument();
    expect(screen.getByText("kaboom")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Reload Page" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "defuse" }));
    await userEvent.click(screen.getByRole("button", { name: "Try Again" }));
    expect(screen.getByText("all good")).toBeInTheDocument();
  });

  it("the router's own screen reads 'Unexpected Application Error!' with the message", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const router = createMemoryRouter([
      {
        path: "/",
        errorElement: <RouteError />,
        loader: () => {
          throw new Error("chunk failed to load");
        },
        element: <p>never</p>,
      },
    ]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole("heading", { name: "Unexpected Application Error!" })).toBeInTheDocument();
    expect(screen.getByText("chunk failed to load")).toBeInTheDocument();
  });
});
