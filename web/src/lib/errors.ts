import { isRecord } from "./api";

/**
 * The message of a failed call, taken (as the spec says) from the first of
 * `msg`, `message`, `error_description` and `error` that is a non-empty
 * string, or `fallback`.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (typeof error === "string" && error.trim() !== "") {
    return error;
  }
  if (isRecord(error) || error instanceof Error) {
    const record = error as unknown as Record<string, unknown>;
    for (const key of ["msg", "message", "error_description", "error"]) {
      const value = record[key];
      if (typeof value === "string" && value.trim() !== "") {
        return value;
      }
    }
  }
  return fallback;
}

/** The spec's demo-mode refusal; the server sends the same text. */
export const DEMO_WRITE_REFUSED = "Demo mode: writes disabled. This is a read-only preview.";
