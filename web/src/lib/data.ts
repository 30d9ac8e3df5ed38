import { ApiError } from "./api";

/** A refused or failed data-API call, with the HTTP status and PostgREST code. */
export class DataError extends ApiError {
  readonly code: string;
  readonly details: string | null;

  constructor(message: string, status: number, code: string, details: string | null = null) {
    super(message, status);
    this.name = "DataError";
    this.code = code;
    this.details = details;
  }
}

interface Result<T> {
  data: T | null;
  error: { message: string; code?: string; details?: string | null } | null;
  status: number;
}

/**
 * The data of a supabase-js call, or a {@link DataError} carrying its HTTP
 * status (so queries are not retried on 4xx).
 */
export function unwrap<T>(result: Result<T>): T {
  if (result.error) {
    throw new DataError(result.error.message, result.status, result.error.code ?? "", result.error.details ?? null);
  }
  return result.data as T;
}
