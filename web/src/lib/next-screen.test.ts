import { afterEach, describe, expect, it, vi } from "vitest";
import { prepareNextScreen, setScreenPreparer } from "./next-screen";

afterEach(() => {
  vi.useRealTimers();
});

describe("prepareNextScreen", () => {
  it("hands the next screen, once known, to the app's preparer and waits for it", async () => {
    const seen: unknown[] = [];
    let finish: () => void = () => undefined;
    setScreenPreparer((next) => {
      seen.push(next);
      return new Promise<void>((resolve) => {
        finish = resolve;
      });
    });
    let done = false;
    const ready = prepareNextScreen(Promise.resolve({ path: "/", profile: { org_id: null, role: "admin" } })).then(() => {
      done = true;
    });
    await vi.waitFor(() => {
      expect(seen).toEqual([{ path: "/", profile: { org_id: null, role: "admin" } }]);
    });
    expect(done).toBe(false);
    finish();
    await ready;
    expect(done).toBe(true);
  });

  it("never rejects, and stops waiting after its time", async () => {
    setScreenPreparer(() => Promise.reject(new Error("chunk failed")));
    await expect(prepareNextScreen({ path: "/" })).resolves.toBeUndefined();
    await expect(prepareNextScreen(Promise.reject(new Error("profile failed")))).resolves.toBeUndefined();
    vi.useFakeTimers();
    setScreenPreparer(() => new Promise(() => undefined));
    const waiting = prepareNextScreen({ path: "/" }, 5000);
    await vi.advanceTimersByTimeAsync(5000);
    await expect(waiting).resolves.toBeUndefined();
  });
});
