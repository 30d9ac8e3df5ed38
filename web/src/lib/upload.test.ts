import { afterEach, describe, expect, it, vi } from "vitest";
import { isAbortError, uploadWithProgress, UploadError } from "./upload";

vi.mock("./config", () => ({ getConfig: () => Promise.resolve({ anonKey: "anon-key" }) }));
vi.mock("./supabase", () => ({
  getSupabase: () => Promise.resolve({ auth: { getSession: () => Promise.resolve({ data: { session: { access_token: "user-token" } } }) } }),
  readStoredSession: () => null,
}));

// A scripted stand-in for XMLHttpRequest: records the request and lets the
// test decide how it ends.
class FakeXHR {
  static last: FakeXHR | undefined;
  method = "";
  url = "";
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = "";
  responseType = "";
  aborted = false;
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXHR.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  respond(status: number, body: string) {
    this.status = status;
    this.responseText = body;
    this.onload?.();
  }
}

async function started(): Promise<FakeXHR> {
  return vi.waitFor(() => {
    if (!FakeXHR.last) throw new Error("not sent yet");
    return FakeXHR.last;
  });
}

afterEach(() => {
  FakeXHR.last = undefined;
});

const file = new File([new Uint8Array(2048)], "label.pdf", { type: "application/pdf" });
const url = "/storage/v1/object/upload/sign/asset-files/org/abc.pdf?token=t";

describe("uploadWithProgress", () => {
  it("PUTs the file to the signed URL with supabase-js headers and reports progress", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXHR);
    const progress = vi.fn();
    const promise = uploadWithProgress(url, file, progress);
    const xhr = await started();
    expect(xhr.method).toBe("PUT");
    expect(xhr.url).toBe(url);
    expect(xhr.headers).toMatchObject({
      apikey: "anon-key",
      authorization: "Bearer user-token",
      "x-upsert": "false",
      "content-type": "application/pdf",
    });
    expect(xhr.body).toBe(file);
    xhr.upload.onprogress?.({ loaded: 1024, total: 2048, lengthComputable: true });
    expect(progress).toHaveBeenLastCalledWith(1024, 2048);
    xhr.respond(200, JSON.stringify({ Key: "asset-files/org/abc.pdf" }));
    await expect(promise).resolves.toEqual({ Key: "asset-files/org/abc.pdf" });
    expect(progress).toHaveBeenLastCalledWith(2048, 2048);
  });

  it("rejects with the storage service's message and the status from statusCode", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXHR);
    const promise = uploadWithProgress(url, file);
    const xhr = await started();
    xhr.respond(400, JSON.stringify({ statusCode: "413", error: "Payload too large", message: "The object exceeded the maximum allowed size" }));
    const error = await promise.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadError);
    expect((error as UploadError).message).toBe("The object exceeded the maximum allowed size");
    expect((error as UploadError).status).toBe(413);
  });

  it("rejects a network failure with a plain message", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXHR);
    const promise = uploadWithProgress(url, file);
    const xhr = await started();
    xhr.onerror?.();
    await expect(promise).rejects.toThrow("the server could not be reached");
  });

  it("aborts when the signal fires", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXHR);
    const controller = new AbortController();
    const promise = uploadWithProgress(url, file, undefined, controller.signal);
    const xhr = await started();
    controller.abort();
    const error = await promise.catch((e: unknown) => e);
    expect(xhr.aborted).toBe(true);
    expect(isAbortError(error)).toBe(true);
  });

  it("does not start when the signal has already fired", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXHR);
    const controller = new AbortController();
    controller.abort();
    const error = await uploadWithProgress(url, file, undefined, controller.signal).catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
    expect(FakeXHR.last).toBeUndefined();
  });
});
