import { render, screen } from "@testing-library/react";
import { Suspense } from "react";
import { describe, expect, it } from "vitest";
import { lazyScreen } from "./screens";

function Hello() {
  return <p>Hello</p>;
}

describe("lazyScreen", () => {
  it("suspends until its chunk arrives, then renders", async () => {
    const Screen = lazyScreen(() => Promise.resolve(Hello));
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Screen />
      </Suspense>,
    );
    expect(screen.getByText("Loading")).toBeInTheDocument();
    expect(await screen.findByText("Hello")).toBeInTheDocument();
  });

  it("renders at once, without a fallback, once preloaded", async () => {
    const Screen = lazyScreen(() => Promise.resolve(Hello));
    await Screen.preload();
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Screen />
      </Suspense>,
    );
    expect(screen.getByText("Hello")).toBeInTheDocument();
    expect(screen.queryByText("Loading")).not.toBeInTheDocument();
  });

  it("asks for the chunk again after a failed load", async () => {
    let calls = 0;
    const Screen = lazyScreen(() => (++calls === 1 ? Promise.reject(new Error("offline")) : Promise.resolve(Hello)));
    await expect(Screen.preload()).rejects.toThrow("offline");
    await expect(Screen.preload()).resolves.toBe(Hello);
    expect(calls).toBe(2);
  });
});
