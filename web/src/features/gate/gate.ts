/**
 * The passcode gate's client side: one call, POST /api/gate, which checks
 * the passcode and sets the signed, HttpOnly gate_verified cookie.
 */
import { isRecord } from "@/lib/api";

export const PASSCODE_REQUIRED = "Please enter the access passcode";
export const PASSCODE_WRONG = "Invalid access passcode. Please try again.";

/** The message for an empty passcode, or undefined. */
export function validatePasscode(passcode: string): string | undefined {
  return passcode.trim() === "" ? PASSCODE_REQUIRED : undefined;
}

export type GateResult = { ok: true } | { ok: false; message: string };

/**
 * Sends the passcode. A wrong one (401) gives the spec's message; other
 * refusals (too many attempts, settings unavailable) the server's.
 */
export async function submitPasscode(passcode: string, fetcher: typeof fetch = fetch): Promise<GateResult> {
  let response: Response;
  try {
    response = await fetcher("/api/gate", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      credentials: "same-origin",
      body: JSON.stringify({ passcode }),
    });
  } catch {
    return { ok: false, message: "The server could not be reached. Please try again." };
  }
  if (response.ok) return { ok: true };
  if (response.status === 401) return { ok: false, message: PASSCODE_WRONG };
  const body: unknown = await response.json().catch(() => null);
  const message = isRecord(body) && typeof body.message === "string" && body.message !== "" ? body.message : `The server answered with HTTP ${response.status}.`;
  return { ok: false, message };
}
