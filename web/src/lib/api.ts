/**
 * Small helpers for talking to the Fairbalance server. Requests are
 * same-origin (the Go server serves both this app and its API; in
 * development Vite proxies the API paths to it).
 */

/** A failed API call. `status` is the HTTP status, or 0 if the server could not be reached. */
export class ApiError extends Error {
  readonly status: number;

  constructor(message: string, status: number, options?: ErrorOptions) {
    super(message, options);
    this.name = "ApiError";
    this.status = status;
  }
}

export interface RequestOptions {
  signal?: AbortSignal;
}

/**
 * GETs `path` and returns the parsed JSON body, unvalidated. Rejects with an
 * {@link ApiError} on network failure, a non-2xx status or a body that is
 * not JSON; an aborted request rejects with the abort reason unchanged.
 */
export async function getJSON(path: string, options: RequestOptions = {}): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: "GET",
      headers: { Accept: "application/json" },
      credentials: "same-origin",
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) {
      throw error;
    }
    throw new ApiError("The server could not be reached.", 0, { cause: error });
  }

  if (!response.ok) {
    throw new ApiError(await describeFailure(response), response.status);
  }

  try {
    return (await response.json()) as unknown;
  } catch (error) {
    throw new ApiError("The server sent a response that is not valid JSON.", response.status, {
      cause: error,
    });
  }
}

/** Prefers a server-supplied `{"error": "..."}` or `{"message": "..."}` over a generic text. */
async function describeFailure(response: Response): Promise<string> {
  const generic = `The server answered with HTTP ${response.status}${
    response.statusText ? ` ${response.statusText}` : ""
  }.`;
  try {
    const body: unknown = await response.json();
    if (isRecord(body)) {
      const detail = body.error ?? body.message;
      if (typeof detail === "string" && detail.trim() !== "") {
        return detail;
      }
    }
  } catch {
    // Not JSON; fall through to the generic message.
  }
  return generic;
}

/** Narrows `value` to a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
