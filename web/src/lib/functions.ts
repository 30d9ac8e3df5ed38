import { ApiError, isRecord } from "./api";
import { getConfig } from "./config";
import { errorMessage } from "./errors";
import { reportRefusal } from "./session-end";

/**
 * Invokes the server's functions (`POST /functions/v1/{name}`, JSON body
 * `{action, …}`) with a plain `fetch`, for screens that must work without
 * loading supabase-js (sign-in) or without its gate redirect (safe mode).
 * The answer has the same shape as `supabase.functions.invoke` would give.
 */

/** A function call the server refused or that did not reach it. */
export class FunctionError extends ApiError {
  /** The server's error code (`invalid_recovery_key`, `gate_required`, …), "" when none. */
  readonly code: string;
  /** The parsed body of the answer, when it was JSON. */
  readonly body: Record<string, unknown> | undefined;

  constructor(message: string, status: number, code = "", body?: Record<string, unknown>, options?: ErrorOptions) {
    super(message, status, options);
    this.name = "FunctionError";
    this.code = code;
    this.body = body;
  }
}

/** The header that carries the recovery key (httpapi/functions.go). */
export const RECOVERY_KEY_HEADER = "X-Recovery-Key";

export interface InvokeOptions {
  /** A signed-in user's access token; the anon key is sent otherwise. */
  accessToken?: string | undefined;
  /** The instance's recovery key (safe-mode repairs). */
  recoveryKey?: string | undefined;
  signal?: AbortSignal;
}

/** The request headers of a function call: API key, bearer and, if given, the recovery key. */
export function functionHeaders(anonKey: string, options: Pick<InvokeOptions, "accessToken" | "recoveryKey"> = {}): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: "application/json",
    apikey: anonKey,
    Authorization: `Bearer ${options.accessToken ?? anonKey}`,
  };
  const key = options.recoveryKey?.trim();
  if (key) headers[RECOVERY_KEY_HEADER] = key;
  return headers;
}

/**
 * Calls function `name` with `body` and resolves to its JSON answer.
 * Rejects with a {@link FunctionError} carrying the server's message (the
 * first of msg, message, error_description, error) for a non-2xx answer,
 * an answer with `success: false`, or a network failure (status 0).
 */
export async function invokeFunction(name: string, body: Record<string, unknown>, options: InvokeOptions = {}): Promise<Record<string, unknown>> {
  const { anonKey } = await getConfig();
  let response: Response;
  try {
    response = await fetch(`/functions/v1/${encodeURIComponent(name)}`, {
      method: "POST",
      headers: functionHeaders(anonKey, options),
      body: JSON.stringify(body),
      credentials: "same-origin",
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new FunctionError("The server could not be reached.", 0, "network_error", undefined, { cause: error });
  }
  const parsed: unknown = await response.json().catch(() => undefined);
  const record = isRecord(parsed) ? parsed : undefined;
  if (!response.ok || record?.success === false) {
    const code = typeof record?.code === "string" ? record.code : "";
    reportRefusal(response.url || `/functions/v1/${name}`, response.status, options.accessToken, code);
    const fallback = `The server answered with HTTP ${response.status}.`;
    throw new FunctionError(errorMessage(record, fallback), response.status, code, record);
  }
  return record ?? {};
}
