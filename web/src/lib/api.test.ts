import { describe, expect, it, vi } from "vitest";
import { jsonResponse } from "@/test/utils";
import { ApiError, getJSON } from "./api";

describe("getJSON", () => {
  it("returns the parsed body of a successful response", async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(jsonResponse({ a: 1 }));
    vi.stubGlobal("fetch", fetchMock);

    await expect(getJSON("/api/thing")).resolves.toEqual({ a: 1 });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe("/api/thing");
    expect(init?.method).toBe("GET");
    expect(init?.credentials).toBe("same-origin");
  });

  it("rejects with the HTTP status and the server's message", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn<typeof fetch>().mockResolvedValue(jsonResponse({ message: "nope" }, { status: 403 })),
    );

    const error: unknown = await getJSON("/api/thing").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, message: "nope" });
  });

  it("rejects with status 0 when the network fails", async () => {
    vi.stubGlobal("fetch", vi.fn<typeof fetch>().mockRejectedValue(new TypeError("offline")));

    await expect(getJSON("/api/thing")).rejects.toMatchObject({
      name: "ApiError",
      status: 0,
      message: "The server could not be reached.",
    });
  });

  it("rejects when a successful response is not JSON", async () => {
    vi.stubGlobal("fetch", vi.fn<typeof fetch>().mockResolvedValue(new Response("<html>")));

    await expect(getJSON("/api/thing")).rejects.toMatchObject({
      status: 200,
      message: "The server sent a response that is not valid JSON.",
    });
  });

  it("passes an abort through unchanged", async () => {
    const controller = new AbortController();
    const abort = new DOMException("aborted", "AbortError");
    vi.stubGlobal(
      "fetch",
      vi.fn<typeof fetch>().mockImplementation(() => {
        controller.abort(abort);
        return Promise.reject(abort);
      }),
    );

    await expect(getJSON("/api/thing", { signal: controller.signal })).rejects.toBe(abort);
  });
});
