import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.useRealTimers();
  vi.resetModules();
});

async function load() {
  vi.useFakeTimers();
  return import("./idle");
}

describe("afterFirstScreen", () => {
  it("waits for the first screen to say it is shown", async () => {
    const { afterFirstScreen, firstScreenShown } = await load();
    const fn = vi.fn();
    afterFirstScreen(fn, 3000);
    vi.advanceTimersByTime(1000);
    expect(fn).not.toHaveBeenCalled();
    firstScreenShown();
    vi.advanceTimersByTime(600);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it("runs after its time limit when no screen says so, and not at all when cancelled", async () => {
    const { afterFirstScreen } = await load();
    const late = vi.fn();
    const cancelled = vi.fn();
    afterFirstScreen(late, 3000);
    afterFirstScreen(cancelled, 3000)();
    vi.advanceTimersByTime(3000);
    expect(late).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();
  });

  it("runs soon when the first screen is already shown", async () => {
    const { afterFirstScreen, firstScreenShown } = await load();
    firstScreenShown();
    const fn = vi.fn();
    afterFirstScreen(fn, 3000);
    vi.advanceTimersByTime(600);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});

describe("afterNextFrame", () => {
  it("runs after the next animation frame's callbacks, in a task of its own", async () => {
    const { afterNextFrame } = await import("./idle");
    const order: string[] = [];
    let frame: FrameRequestCallback | undefined;
    vi.spyOn(window, "requestAnimationFrame").mockImplementation((cb) => {
      frame = cb;
      return 1;
    });
    afterNextFrame(() => order.push("after"));
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual([]);
    frame?.(0);
    order.push("frame");
    expect(order).toEqual(["frame"]);
    await vi.waitFor(() => {
      expect(order).toEqual(["frame", "after"]);
    });
  });
});
