import type { User } from "@supabase/supabase-js";
import { errorMessage } from "@/lib/errors";
import { getSupabase } from "@/lib/supabase";
import { LOGIN_FAILED, LOGIN_UNEXPECTED } from "./validation";

/** The server refused the credentials; `message` is what to show. */
export class SignInRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SignInRefused";
  }
}

/**
 * Signs in with e-mail and password and returns the user. supabase-js is
 * loaded here, on submit, not with the screen. Rejects with
 * {@link SignInRefused} carrying the server's message (or 'Authentication
 * failed. Please try again.' when it gives none); anything else (the
 * server unreachable, the client failing to load) rejects as is.
 */
export async function signInWithPassword(email: string, password: string): Promise<User> {
  const sb = await getSupabase();
  const { data, error } = await sb.auth.signInWithPassword({ email: email.trim(), password });
  if (error) {
    // Network failures and 5xx come back as retryable errors, not refusals.
    if (error.name === "AuthRetryableFetchError") throw error;
    throw new SignInRefused(errorMessage(error, LOGIN_FAILED));
  }
  return data.user;
}

/**
 * Whether the session just signed in must still give an authenticator code
 * (two-step verification): supabase-js's assurance levels say the account
 * can reach aal2 but the session is below it. The server refuses such a
 * session everything but finishing the sign-in.
 */
export async function secondFactorRequired(): Promise<boolean> {
  const sb = await getSupabase();
  const { data, error } = await sb.auth.mfa.getAuthenticatorAssuranceLevel();
  if (error) throw error;
  return data.nextLevel === "aal2" && data.currentLevel !== "aal2";
}

/** The message to show for a failed sign-in. */
export function signInErrorMessage(error: unknown): string {
  return error instanceof SignInRefused ? error.message : LOGIN_UNEXPECTED;
}
