import { ApiError } from "./api";

/** A refused or failed data-API call, with the HTTP status and PostgREST code. */
export class DataError extends ApiError {
  readonly code: string;
  readonly details: string | null;
  /**
   * The server's per-field messages (`{"column": "message"}`), when the
   * body carried them beside code, message, details and hint; null when not.
   */
  readonly fields: Readonly<Record<string, string>> | null;

  constructor(message: string, status: number, code: string, details: string | null = null, fields: Record<string, string> | null = null) {
    super(message, status);
    this.name = "DataError";
    this.code = code;
    this.details = details;
    this.fields = fields;
  }
}

interface Result<T> {
  data: T | null;
  error: { message: string; code?: string; details?: string | null; fields?: unknown } | null;
  status: number;
}

/** The string-valued entries of `value` when it is a plain object, else null. */
export function stringRecord(value: unknown): Record<string, string> | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === "string" && v.trim() !== "") out[k] = v;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * The data of a supabase-js call, or a {@link DataError} carrying its HTTP
 * status (so queries are not retried on 4xx) and the server's per-field
 * messages. postgrest-js hands back the error body as parsed, so keys
 * beyond code/message/details/hint (the server's `fields`) survive to here.
 */
export function unwrap<T>(result: Result<T>): T {
  if (result.error) {
    const e = result.error;
    throw new DataError(e.message, result.status, e.code ?? "", e.details ?? null, stringRecord(e.fields));
  }
  return result.data as T;
}
