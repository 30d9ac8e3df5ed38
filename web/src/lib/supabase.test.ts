import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse } from "@/test/utils";
import { resetConfig } from "./config";
import { AUTH_STORAGE_KEY, getSupabase, resetSupabaseForTests } from "./supabase";

const createClient = vi.hoisted(() => vi.fn((url: string, key: string) => ({ url, key })));
vi.mock("@supabase/supabase-js", () => ({ createClient }));

afterEach(() => {
  resetSupabaseForTests();
  resetConfig();
});

describe("getSupabase", () => {
  it("creates one client for this origin with the anon key from /api/config", async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValue(jsonResponse({ anon_key: "anon-123", site_url: "https://fb.example" }));
    vi.stubGlobal("fetch", fetchMock);

    const first = await getSupabase();
    const second = await getSupabase();

    expect(first).toBe(second);
    expect(createClient).toHaveBeenCalledTimes(1);
    const [url, key, options] = createClient.mock.calls[0] as unknown as [string, string, { auth: Record<string, unknown> }];
    expect([url, key]).toEqual([window.location.origin, "anon-123"]);
    expect(options.auth).toMatchObject({ storageKey: AUTH_STORAGE_KEY, flowType: "implicit", autoRefreshToken: true });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/config");
  });

  it("retries on the next call after the configuration could not be loaded", async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(jsonResponse({}, { status: 502 }))
      .mockResolvedValueOnce(jsonResponse({ anon_key: "anon-456", site_url: "" }));
    vi.stubGlobal("fetch", fetchMock);

    await expect(getSupabase()).rejects.toMatchObject({ status: 502 });
    await expect(getSupabase()).resolves.toBeDefined();
    expect(createClient).toHaveBeenLastCalledWith(window.location.origin, "anon-456", expect.anything());
  });

  it("rejects a configuration without an anon key", async () => {
    vi.stubGlobal("fetch", vi.fn<typeof fetch>().mockResolvedValue(jsonResponse({ site_url: "x" })));

    await expect(getSupabase()).rejects.toThrow("no anon_key");
  });
});
