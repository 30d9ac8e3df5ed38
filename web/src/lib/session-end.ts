import { isRecord } from "./api";
import { tokenClaims } from "./assurance";

/**
 * Ended sessions. A member's session can end without this browser taking
 * part: signed out on another device, revoked by its member or an
 * administrator, ended by a deactivation, or its refresh refused. The
 * server then refuses the token on every surface. The requests of the app
 * report such refusals here (one window event each); the session provider
 * asks the identity server once whether the session is really gone and,
 * if it is, ends it in this browser with one notice, and the route guard
 * sends the member to sign in, remembering where they were.
 */

/** Fired on `window` when a data surface refuses a member's token. */
export const CREDENTIAL_REFUSED_EVENT = "fairbalance:credential-refused";

/** The one notice of an ended session (a toast with this id, so never twice). */
export const SESSION_ENDED_TOAST_ID = "session-ended";
export const SESSION_ENDED_TITLE = "Your session has ended";
export const SESSION_ENDED_DESCRIPTION = "Sign in again to continue where you left off.";

// The surfaces that judge a member's token as Identity.Caller does.
const DATA_SURFACES = ["/rest/v1/", "/storage/v1/", "/functions/v1/"];

function pathOf(url: string): string {
  try {
    return new URL(url, window.location.origin).pathname;
  } catch {
    return url;
  }
}

/**
 * Whether an answer may mean that the member's session ended: a 401 or 403
 * of a data surface to a request made with a member's token (not the API
 * key) — other than the passcode gate's refusal. A 403 is often only a
 * permission the member lacks, so this is a reason to ask, never the answer.
 */
export function mayMeanSessionEnded(url: string, status: number, bearer: string | null | undefined, code?: string): boolean {
  if (status !== 401 && status !== 403) return false;
  if (code === "gate_required") return false;
  if (!DATA_SURFACES.some((p) => pathOf(url).startsWith(p))) return false;
  if (!bearer) return false;
  return tokenClaims(bearer.replace(/^Bearer\s+/i, ""))?.role === "authenticated";
}

/** Reports an answer for {@link mayMeanSessionEnded}; the session provider checks. */
export function reportRefusal(url: string, status: number, bearer: string | null | undefined, code?: string): void {
  if (mayMeanSessionEnded(url, status, bearer, code)) window.dispatchEvent(new Event(CREDENTIAL_REFUSED_EVENT));
}

/** The identity server's codes for a token whose session, or account, is gone (service.Identity.Authenticate). */
const ENDED_CODES = new Set(["session_not_found", "session_expired", "user_not_found", "user_banned", "bad_jwt"]);

/**
 * Whether the identity server's refusal of `GET /auth/v1/user` (as
 * supabase-js reports it) says the session ended. supabase-js turns
 * session_not_found into an AuthSessionMissingError (and drops the
 * session itself); a network failure or the passcode gate says nothing.
 */
export function sessionEndedBy(error: unknown): boolean {
  if (!isRecord(error) && !(error instanceof Error)) return false;
  const e = error as { name?: unknown; code?: unknown };
  if (e.name === "AuthSessionMissingError") return true;
  return typeof e.code === "string" && ENDED_CODES.has(e.code);
}
