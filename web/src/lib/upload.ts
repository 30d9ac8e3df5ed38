import { getConfig } from "./config";
import { getSupabase, readStoredSession } from "./supabase";

/** The storage service's answer to a successful upload (storage-js shape). */
export interface UploadResult {
  /** `bucket/path` of the stored object. */
  Key?: string;
  Id?: string;
  [key: string]: unknown;
}

/** A refused or failed upload, with the storage service's message and status. */
export class UploadError extends Error {
  /** HTTP status (the storage `statusCode` when the body carries one); 0 for a network failure. */
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = "UploadError";
    this.status = status;
  }
}

/** The message given when the person cancels an upload (the promise rejects with an AbortError). */
export const UPLOAD_CANCELLED = "Upload cancelled.";

/** Options beyond the four positional arguments; mainly for tests. */
export interface UploadOptions {
  /** Replaces the bearer token (default: the current session's, else the anon key). */
  accessToken?: string;
  /** Replaces the anon key sent as `apikey`. */
  apiKey?: string;
}

/**
 * Uploads `file` to a signed upload URL (as returned by the rpc
 * `prepare_upload`, relative to this origin) with XMLHttpRequest, because
 * fetch cannot report upload progress. Sends the headers supabase-js sends
 * (`apikey`, `Authorization: Bearer <session token>`) plus `x-upsert: false`
 * and the file's content type.
 *
 * `onProgress(loaded, total)` is called as bytes leave the browser. Resolves
 * with the storage service's JSON answer; rejects with an {@link UploadError}
 * carrying the server's message (storage errors are
 * `{statusCode, error, message}`, often sent as HTTP 400 with the real status
 * in `statusCode`), or with a DOMException named "AbortError" when `signal`
 * aborts.
 */
export async function uploadWithProgress(
  signedUrl: string,
  file: Blob,
  onProgress?: (loaded: number, total: number) => void,
  signal?: AbortSignal,
  options: UploadOptions = {},
): Promise<UploadResult> {
  if (signal?.aborted) throw abortError();
  const [apiKey, accessToken] = await Promise.all([
    options.apiKey ?? getConfig().then((c) => c.anonKey),
    options.accessToken ?? currentAccessToken(),
  ]);
  if (signal?.aborted) throw abortError();

  return new Promise<UploadResult>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", signedUrl);
    xhr.setRequestHeader("apikey", apiKey);
    xhr.setRequestHeader("Authorization", `Bearer ${accessToken || apiKey}`);
    xhr.setRequestHeader("x-upsert", "false");
    xhr.setRequestHeader("content-type", file.type || "application/octet-stream");
    xhr.responseType = "text";

    const onAbort = () => {
      xhr.abort();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    const done = () => {
      signal?.removeEventListener("abort", onAbort);
    };

    xhr.upload.onprogress = (event) => {
      onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size);
    };
    xhr.onload = () => {
      done();
      const body = parseJSON(xhr.responseText);
      const bodyStatus = Number(isObject(body) ? body.statusCode : NaN);
      const failed = xhr.status < 200 || xhr.status >= 300 || (Number.isFinite(bodyStatus) && bodyStatus >= 400);
      if (failed) {
        const status = Number.isFinite(bodyStatus) && bodyStatus >= 400 ? bodyStatus : xhr.status;
        reject(new UploadError(serverMessage(body, xhr.status), status));
        return;
      }
      onProgress?.(file.size, file.size);
      resolve(isObject(body) ? body : {});
    };
    xhr.onerror = () => {
      done();
      reject(new UploadError("The upload failed: the server could not be reached.", 0));
    };
    xhr.onabort = () => {
      done();
      reject(abortError());
    };
    xhr.send(file);
  });
}

/** Whether `error` is the rejection of a cancelled upload. */
export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException ? error.name === "AbortError" : (error as { name?: unknown } | null)?.name === "AbortError";
}

function abortError(): DOMException {
  return new DOMException(UPLOAD_CANCELLED, "AbortError");
}

// The session token, refreshed by supabase-js when near expiry; the stored
// copy is the fallback when the client cannot load.
async function currentAccessToken(): Promise<string> {
  try {
    const supabase = await getSupabase();
    const { data } = await supabase.auth.getSession();
    if (data.session?.access_token) return data.session.access_token;
  } catch {
    // fall through to the stored session
  }
  return readStoredSession()?.access_token ?? "";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseJSON(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function serverMessage(body: unknown, status: number): string {
  if (isObject(body)) {
    for (const key of ["message", "msg", "error_description", "error"]) {
      const value = body[key];
      if (typeof value === "string" && value.trim() !== "") return value;
    }
  }
  if (typeof body === "string" && body.trim() !== "" && body.length < 300) return body.trim();
  return `The upload failed (HTTP ${status}).`;
}
