import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { jsonResponse } from "@/test/utils";
import { embeddedConfig, getConfig } from "./config";
import { earlyHeaders, earlyOr, freshStoredSession, startEarly, takeEarly } from "./early";
import { AUTH_STORAGE_KEY } from "./supabase";

function embed(config: unknown) {
  const el = document.createElement("script");
  el.type = "application/json";
  el.id = "fairbalance-config";
  el.textContent = JSON.stringify(config);
  document.head.append(el);
}

function storeSession(expiresInSeconds: number) {
  const session = {
    access_token: "token-1",
    refresh_token: "refresh-1",
    expires_at: Math.floor(Date.now() / 1000) + expiresInSeconds,
    user: { id: "user-1", email: "a@example.com" },
  };
  window.localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify(session));
}

beforeEach(() => {
  embed({ anon_key: "anon-1", site_url: "https://fb.example", gate: false, gate_passed: true });
});

afterEach(() => {
  document.getElementById("fairbalance-config")?.remove();
  window.localStorage.clear();
});

describe("the page's embedded configuration", () => {
  it("is read from the JSON block and spares getConfig a request", async () => {
    const fetchMock = vi.fn<typeof fetch>();
    vi.stubGlobal("fetch", fetchMock);
    expect(embeddedConfig()).toMatchObject({ anonKey: "anon-1", gatePassed: true });
    await expect(getConfig()).resolves.toMatchObject({ anonKey: "anon-1" });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("is ignored when unreadable or without an anon key", () => {
    const block = document.getElementById("fairbalance-config");
    if (!block) throw new Error("no config block");
    block.textContent = "{not json";
    expect(embeddedConfig()).toBeNull();
    block.textContent = JSON.stringify({ anon_key: "" });
    expect(embeddedConfig()).toBeNull();
  });
});

describe("early loads", () => {
  it("need a stored session valid for at least another minute", () => {
    storeSession(30);
    expect(freshStoredSession()).toBeNull();
    expect(earlyHeaders()).toBeNull();
    expect(startEarly("k", "/rest/v1/x")).toBeNull();
    storeSession(3600);
    expect(freshStoredSession()?.access_token).toBe("token-1");
    expect(earlyHeaders()).toEqual({ apikey: "anon-1", Authorization: "Bearer token-1" });
  });

  it("are not made when the server is known to refuse them: a closed gate, an unanswered authenticator", () => {
    storeSession(3600);
    expect(earlyHeaders()).not.toBeNull();
    document.getElementById("fairbalance-config")?.remove();
    embed({ anon_key: "anon-1", gate: true, gate_passed: false });
    expect(earlyHeaders()).toBeNull();
    expect(startEarly("k", "/rest/v1/x")).toBeNull();
    document.getElementById("fairbalance-config")?.remove();
    embed({ anon_key: "anon-1", gate: true, gate_passed: true });
    expect(earlyHeaders()).not.toBeNull();

    // An account with a verified authenticator, signed in with the password only (aal1).
    const claims = (aal: string) => `x.${btoa(JSON.stringify({ aal })).replace(/=+$/, "")}.y`;
    const session = (aal: string) => ({
      access_token: claims(aal),
      refresh_token: "refresh-1",
      expires_at: Math.floor(Date.now() / 1000) + 3600,
      user: { id: "user-1", factors: [{ id: "f1", status: "verified" }] },
    });
    window.localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify(session("aal1")));
    expect(earlyHeaders()).toBeNull();
    window.localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify(session("aal2")));
    expect(earlyHeaders()).not.toBeNull();
  });

  it("are requested as the stored session and handed out once", async () => {
    storeSession(3600);
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(jsonResponse([{ id: "p1" }]));
    vi.stubGlobal("fetch", fetchMock);
    void startEarly("profile:user-1", "/rest/v1/profiles_v2?id=eq.user-1");
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe("/rest/v1/profiles_v2?id=eq.user-1");
    expect(init?.headers).toMatchObject({ apikey: "anon-1", Authorization: "Bearer token-1", Accept: "application/json" });
    expect(init?.priority).toBe("high");
    await expect(takeEarly("profile:user-1")).resolves.toEqual([{ id: "p1" }]);
    expect(takeEarly("profile:user-1")).toBeUndefined();
    void startEarly("members:people", "/rest/v1/members", "low");
    expect(fetchMock.mock.calls[1]?.[1]?.priority).toBe("low");
  });

  it("fall back to the usual request when the early one failed, and are dropped when stale", async () => {
    storeSession(3600);
    vi.stubGlobal("fetch", vi.fn<typeof fetch>().mockResolvedValue(jsonResponse({ message: "JWT expired" }, { status: 401 })));
    void startEarly("asset:a", "/rest/v1/assets?id=eq.a");
    const usual = vi.fn(() => Promise.resolve("from supabase-js"));
    await expect(earlyOr("asset:a", usual)).resolves.toBe("from supabase-js");
    expect(usual).toHaveBeenCalledTimes(1);

    const now = vi.spyOn(performance, "now");
    now.mockReturnValue(1_000);
    void startEarly("asset:b", "/rest/v1/assets?id=eq.b");
    now.mockReturnValue(1_000 + 16_000);
    expect(takeEarly("asset:b")).toBeUndefined();
  });
});
