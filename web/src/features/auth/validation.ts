/**
 * The sign-in screens' validation and the small decisions around it: the
 * rules as plain functions, and the forms' schemas (zod's small "mini"
 * build, so the sign-in route stays light) made of them. Messages are the
 * specification's, word for word, where it gives them.
 */
import { z } from "zod/mini";
import { isRecord } from "@/lib/api";
import { tokenClaims } from "@/lib/assurance";
import { errorMessage } from "@/lib/errors";
import { passwordProblem, PASSWORDS_DO_NOT_MATCH } from "@/lib/password";

export const BOTH_REQUIRED = "Please enter both email and password";
export const LOGIN_FAILED = "Authentication failed. Please try again.";
export const LOGIN_UNEXPECTED = "Something went wrong. Please try again.";
export const SETUP_REQUIRED = "Email and password required";
export const EMAIL_REQUIRED = "Please enter your email address";
export const FIRST_NAME_REQUIRED = "Please enter your first name";
export const LAST_NAME_REQUIRED = "Please enter your last name";
export const INVALID_RESET_LINK = "Invalid reset link. Please request a new password reset.";
export const INVITE_INVALID = "Invalid invite token";
export const INVITE_EXPIRED = "This invite has expired";
export const INVITE_LOOKUP_FAILED = "Failed to validate invite";

const blank = (s: string) => s.trim() === "";

/** Login: both fields are needed. Returns the message, or undefined when the form may be sent. */
export function validateLogin(email: string, password: string): string | undefined {
  return blank(email) || password === "" ? BOTH_REQUIRED : undefined;
}

/** Initial setup (first administrator): both fields, and a password the server will accept. */
export function validateSetup(email: string, password: string): string | undefined {
  if (blank(email) || password === "") return SETUP_REQUIRED;
  return passwordProblem(password);
}

export interface SignupValues {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

export type SignupErrors = Partial<Record<keyof SignupValues | "form", string>>;

/**
 * Sign-up: all four fields are required; e-mail and password together carry
 * the spec's message; the password must meet the rules of lib/password.
 */
export function validateSignup(v: SignupValues): SignupErrors {
  const errors: SignupErrors = {};
  if (blank(v.firstName)) errors.firstName = FIRST_NAME_REQUIRED;
  if (blank(v.lastName)) errors.lastName = LAST_NAME_REQUIRED;
  if (blank(v.email) || v.password === "") {
    errors.form = BOTH_REQUIRED;
  } else {
    const problem = passwordProblem(v.password);
    if (problem) errors.password = problem;
  }
  return errors;
}

export function hasErrors(errors: object): boolean {
  return Object.values(errors).some(Boolean);
}

/** Forgot password: a non-blank e-mail. */
export function validateForgot(email: string): string | undefined {
  return blank(email) ? EMAIL_REQUIRED : undefined;
}

/** Reset password: the first unmet rule, then the confirmation must match. */
export function validateReset(password: string, confirm: string): { password?: string; confirm?: string } {
  const problem = passwordProblem(password);
  if (problem) return { password: problem };
  if (password !== confirm) return { confirm: PASSWORDS_DO_NOT_MATCH };
  return {};
}

/** Adds a message for `path` ("root": the form's own message, shown above the fields). */
function issue(ctx: { addIssue: (issue: { code: "custom"; path: string[]; message: string }) => void }, path: string, message: string | undefined) {
  if (message) ctx.addIssue({ code: "custom", path: [path], message });
}

/** The sign-in form: both fields, else the spec's message for the form. */
export const loginSchema = z.object({ email: z.string(), password: z.string() }).check(
  z.superRefine((v, ctx) => {
    issue(ctx, "root", validateLogin(v.email, v.password));
  }),
);

/** The initial-setup form: both fields and a password the server accepts (the form's message). */
export const setupSchema = z.object({ email: z.string(), password: z.string() }).check(
  z.superRefine((v, ctx) => {
    issue(ctx, "root", validateSetup(v.email, v.password));
  }),
);

/** The sign-up form: names beside their fields, the e-mail/password pair for the form, the password rules beside it. */
export const signupSchema = z.object({ firstName: z.string(), lastName: z.string(), email: z.string(), password: z.string() }).check(
  z.superRefine((v, ctx) => {
    const errors = validateSignup(v);
    issue(ctx, "firstName", errors.firstName);
    issue(ctx, "lastName", errors.lastName);
    issue(ctx, "root", errors.form);
    issue(ctx, "password", errors.password);
  }),
);

/** The forgot-password form: a non-blank e-mail (the form's message). */
export const forgotSchema = z.object({ email: z.string() }).check(
  z.superRefine((v, ctx) => {
    issue(ctx, "root", validateForgot(v.email));
  }),
);

/** The reset-password form: the first unmet rule beside the password, then the confirmation. */
export const resetSchema = z.object({ password: z.string(), confirm: z.string() }).check(
  z.superRefine((v, ctx) => {
    const errors = validateReset(v.password, v.confirm);
    issue(ctx, "password", errors.password);
    issue(ctx, "confirm", errors.confirm);
  }),
);

/** The session tokens (or the error) an e-mail link brought in the query string or fragment. */
export interface LinkTokens {
  accessToken: string;
  refreshToken: string;
  /** The server's error_description when the link was refused (expired, used). */
  error: string;
}

/**
 * Reads `access_token`, `refresh_token` and `error_description` from the
 * query string and from the fragment (where this server's implicit-flow
 * redirect puts them); the fragment wins.
 */
export function readLinkTokens(search: string, hash: string): LinkTokens {
  const query = new URLSearchParams(search);
  const fragment = new URLSearchParams(hash.replace(/^#/, ""));
  const get = (k: string) => fragment.get(k) ?? query.get(k) ?? "";
  return { accessToken: get("access_token"), refreshToken: get("refresh_token"), error: get("error_description") };
}

export { tokenClaims };

/**
 * Whether an access token comes from an e-mailed link (recovery, OTP,
 * magic link): the sessions the server lets change the password without
 * reauthentication, and the only ones the reset screen accepts.
 */
export function isRecoveryToken(jwt: string): boolean {
  const amr = tokenClaims(jwt)?.amr;
  if (!Array.isArray(amr) || amr.length === 0) return false;
  const last: unknown = amr[amr.length - 1];
  const method = isRecord(last) ? last.method : undefined;
  return method === "recovery" || method === "otp" || method === "magiclink";
}

/**
 * Whether the server flagged the account to choose a new password at first
 * sign-in (safe mode's FORCE_CREATE_ADMIN_DEV sets `must_reset_password` in
 * app metadata; the server clears it when the password changes). User
 * metadata is also read, though only the server-set flag is authoritative.
 */
export function mustResetPassword(user: { app_metadata?: unknown; user_metadata?: unknown } | null | undefined): boolean {
  const flag = (meta: unknown) => isRecord(meta) && meta.must_reset_password === true;
  return flag(user?.app_metadata) || flag(user?.user_metadata);
}

/** The message shown when an invitation cannot be used. */
export function inviteProblem(error: unknown): string {
  const message = errorMessage(error, "");
  if (message === INVITE_INVALID || message === INVITE_EXPIRED) return message;
  return INVITE_LOOKUP_FAILED;
}

/** An invitation as `rpc get_invite` describes it. */
export interface InviteInfo {
  email: string;
  role: string;
}

export function parseInvite(data: unknown): InviteInfo | null {
  if (!isRecord(data) || typeof data.email !== "string" || typeof data.role !== "string") return null;
  return { email: data.email, role: data.role };
}

/** What to tell the new member after trying to accept the invitation. */
export interface Notice {
  kind: "success" | "error";
  title: string;
  description: string;
}

/**
 * The toast after `rpc accept_invite`: its transport error, its refusal
 * (`{success:false, error}`) or its success, in the spec's words.
 */
export function acceptInviteNotice(data: unknown, error: unknown): Notice {
  if (error) {
    return {
      kind: "error",
      title: "Account created",
      description: "Your account was created but invite acceptance failed. Please contact an admin.",
    };
  }
  if (isRecord(data) && data.success === true) {
    return { kind: "success", title: "Account created!", description: "Welcome to the team!" };
  }
  const reason = isRecord(data) && typeof data.error === "string" && data.error !== "" ? data.error : INVITE_INVALID;
  const sentence = /[.!?]$/.test(reason) ? reason : `${reason}.`;
  return { kind: "error", title: "Failed to accept invite", description: `${sentence} Please contact an administrator.` };
}
