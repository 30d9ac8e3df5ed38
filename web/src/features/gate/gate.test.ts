import { describe, expect, it, vi } from "vitest";
import { jsonResponse } from "@/test/utils";
import { PASSCODE_REQUIRED, PASSCODE_WRONG, submitPasscode, validatePasscode } from "./gate";

describe("validatePasscode", () => {
  it("refuses an empty passcode with the spec's message", () => {
    expect(validatePasscode("")).toBe("Please enter the access passcode");
    expect(validatePasscode("   ")).toBe(PASSCODE_REQUIRED);
    expect(validatePasscode("secret")).toBeUndefined();
  });
});

describe("submitPasscode", () => {
  it("POSTs the passcode to /api/gate", async () => {
    const fetcher = vi.fn<typeof fetch>().mockResolvedValue(jsonResponse({ success: true, gate: true }));
    await expect(submitPasscode("secret", fetcher)).resolves.toEqual({ ok: true });
    const [url, init] = fetcher.mock.calls[0] ?? [];
    expect(url).toBe("/api/gate");
    expect(init?.method).toBe("POST");
    expect(init?.body).toBe(JSON.stringify({ passcode: "secret" }));
  });

  it("gives the spec's message for a wrong passcode", async () => {
    const fetcher = vi.fn<typeof fetch>().mockResolvedValue(jsonResponse({ code: "invalid_passcode", message: "x" }, { status: 401 }));
    await expect(submitPasscode("nope", fetcher)).resolves.toEqual({ ok: false, message: "Invalid access passcode. Please try again." });
    expect(PASSCODE_WRONG).toBe("Invalid access passcode. Please try again.");
  });

  it("shows the server's message for other refusals", async () => {
    const fetcher = vi
      .fn<typeof fetch>()
      .mockResolvedValue(jsonResponse({ message: "Too many attempts. Please wait a few minutes and try again." }, { status: 429 }));
    await expect(submitPasscode("x", fetcher)).resolves.toEqual({
      ok: false,
      message: "Too many attempts. Please wait a few minutes and try again.",
    });
  });

  it("says when the server cannot be reached", async () => {
    const fetcher = vi.fn<typeof fetch>().mockRejectedValue(new TypeError("offline"));
    await expect(submitPasscode("x", fetcher)).resolves.toMatchObject({ ok: false });
  });
});
