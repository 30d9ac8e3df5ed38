import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse } from "@/test/utils";
import { resetConfig } from "./config";
import { FunctionError, functionHeaders, invokeFunction, RECOVERY_KEY_HEADER } from "./functions";

afterEach(() => {
  resetConfig();
});

const urlOf = (input: RequestInfo | URL) => (typeof input === "string" ? input : input instanceof URL ? input.href : input.url);

function stubServer(answer: Response) {
  const fetchMock = vi.fn<typeof fetch>((input) =>
    Promise.resolve(urlOf(input) === "/api/config" ? jsonResponse({ anon_key: "anon-1" }) : answer),
  );
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

describe("functionHeaders", () => {
  it("sends the anon key as API key and bearer when nobody is signed in", () => {
    expect(functionHeaders("anon-1")).toMatchObject({ apikey: "anon-1", Authorization: "Bearer anon-1" });
  });

  it("sends the user's token as bearer and a trimmed recovery key in its header", () => {
    const h = functionHeaders("anon-1", { accessToken: "jwt", recoveryKey: "  rk-1 " });
    expect(h.Authorization).toBe("Bearer jwt");
    expect(h[RECOVERY_KEY_HEADER]).toBe("rk-1");
  });

  it("leaves out an empty recovery key", () => {
    expect(functionHeaders("anon-1", { recoveryKey: "  " })).not.toHaveProperty(RECOVERY_KEY_HEADER);
  });
});

describe("invokeFunction", () => {
  it("POSTs the body to /functions/v1/{name} and returns the answer", async () => {
    const fetchMock = stubServer(jsonResponse({ success: true, count: 0 }));
    await expect(invokeFunction("db-recovery", { action: "GET_USER_COUNT" })).resolves.toEqual({ success: true, count: 0 });
    const call = fetchMock.mock.calls.find(([u]) => urlOf(u) === "/functions/v1/db-recovery");
    expect(call?.[1]?.method).toBe("POST");
    expect(call?.[1]?.body).toBe(JSON.stringify({ action: "GET_USER_COUNT" }));
  });

  it("rejects with the server's message, status and code", async () => {
    stubServer(jsonResponse({ success: false, code: "invalid_recovery_key", message: "Invalid recovery key" }, { status: 403 }));
    const error: unknown = await invokeFunction("db-recovery", { action: "SAFE_CONNECT_AND_MIGRATE" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FunctionError);
    expect(error).toMatchObject({ status: 403, code: "invalid_recovery_key", message: "Invalid recovery key" });
  });

  it("treats success: false as a failure even with HTTP 200", async () => {
    stubServer(jsonResponse({ success: false, error: "nope" }));
    await expect(invokeFunction("x", {})).rejects.toMatchObject({ message: "nope", status: 200 });
  });

  it("reports a generic message when the answer is not JSON", async () => {
    stubServer(new Response("oops", { status: 502 }));
    await expect(invokeFunction("x", {})).rejects.toMatchObject({ message: "The server answered with HTTP 502.", status: 502 });
  });
});
