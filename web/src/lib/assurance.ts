import type { Session } from "@supabase/supabase-js";
import { isRecord } from "./api";

/**
 * Two-step verification as the session shows it. The server refuses the
 * data, storage and function calls of a password-only (aal1) session of an
 * account with a verified authenticator; the app sends such a session to
 * the code step of the sign-in screen instead of into the app.
 */

/** The claims of an access token, unverified (the server verifies it); null when unreadable. */
export function tokenClaims(jwt: string): Record<string, unknown> | null {
  const part = jwt.split(".")[1];
  if (!part) return null;
  try {
    const json = atob(part.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(part.length / 4) * 4, "="));
    const claims: unknown = JSON.parse(json);
    return isRecord(claims) ? claims : null;
  } catch {
    return null;
  }
}

/**
 * Whether `session` must still answer the authenticator challenge: its
 * user has a verified factor and its access token is not at aal2. This is
 * supabase-js's `mfa.getAuthenticatorAssuranceLevel()` (nextLevel aal2,
 * currentLevel below it) judged from the session alone, so the route guard
 * can decide before the library has loaded.
 */
export function secondFactorDue(session: Pick<Session, "access_token"> & { user?: unknown } | null | undefined): boolean {
  if (!session) return false;
  const factors: unknown = isRecord(session.user) ? session.user.factors : undefined;
  const verified = Array.isArray(factors) && factors.some((f: unknown) => isRecord(f) && f.status === "verified");
  return verified && tokenClaims(session.access_token)?.aal !== "aal2";
}
