/**
 * Safe mode's helpers: the prefilled administrator, the temporary password
 * generator and readers of the repair functions' answers.
 */
import { isRecord } from "@/lib/api";
import { FunctionError } from "@/lib/functions";
import { passwordProblem } from "@/lib/password";

/** Prefilled in the create-administrator form (spec §9); the operator changes it. */
export const DEFAULT_ADMIN_EMAIL = "admin@example.com";

export const EMAIL_AND_PASSWORD_REQUIRED = "Email and password required";
export const EMAIL_REQUIRED = "Email address required";

// No look-alikes (0/O, 1/l/I), so the password can be read out and typed.
const UPPER = "ABCDEFGHJKLMNPQRSTUVWXYZ";
const LOWER = "abcdefghijkmnopqrstuvwxyz";
const DIGITS = "23456789";
const ALL = UPPER + LOWER + DIGITS;

function pick(set: string, random: number): string {
  return set.charAt(random % set.length);
}

/**
 * A random temporary password of `length` characters (at least 8) that
 * meets every rule of lib/password: one of each class, the rest from all
 * three, shuffled, from `crypto.getRandomValues`.
 */
export function generateTemporaryPassword(length = 16, random: (n: number) => Uint32Array = defaultRandom): string {
  const n = Math.max(8, length);
  const values = random(n * 2);
  const at = (i: number) => values[i] ?? 0;
  const chars = [pick(UPPER, at(0)), pick(LOWER, at(1)), pick(DIGITS, at(2))];
  for (let i = 3; i < n; i++) chars.push(pick(ALL, at(i)));
  // Fisher–Yates with the second half of the random values.
  for (let i = chars.length - 1; i > 0; i--) {
    const j = at(n + i) % (i + 1);
    [chars[i], chars[j]] = [chars[j] ?? "", chars[i] ?? ""];
  }
  const password = chars.join("");
  return passwordProblem(password) ? generateTemporaryPassword(length, random) : password;
}

function defaultRandom(n: number): Uint32Array {
  return crypto.getRandomValues(new Uint32Array(n));
}

/** Create-administrator form: both fields are required. */
export function validateCreateAdmin(email: string, password: string): string | undefined {
  return email.trim() === "" || password === "" ? EMAIL_AND_PASSWORD_REQUIRED : undefined;
}

/** Force-create form: an e-mail is required. */
export function validateForceCreate(email: string): string | undefined {
  return email.trim() === "" ? EMAIL_REQUIRED : undefined;
}

/** GET_DB_STATUS, as shown. */
export interface DbStatus {
  backend: string;
  healthy: boolean;
  hasUsers: boolean;
  migrationLevel: number | null;
  message: string;
}

export function parseDbStatus(body: Record<string, unknown>): DbStatus {
  return {
    backend: typeof body.backend === "string" ? body.backend : "unknown",
    healthy: body.healthy === true,
    hasUsers: body.has_users === true,
    migrationLevel: typeof body.migration_level === "number" ? body.migration_level : null,
    message: typeof body.message === "string" ? body.message : "",
  };
}

/** A database backend as people name it. */
export function backendLabel(backend: string): string {
  if (backend === "sqlite") return "SQLite";
  if (backend === "postgres" || backend === "postgresql") return "PostgreSQL";
  return backend;
}

/** The workspace security settings (security-manager), as label and value rows. */
export function describeSettings(settings: unknown): { label: string; value: string }[] {
  if (!isRecord(settings)) return [];
  const yesNo = (v: unknown) => (v === true ? "Yes" : "No");
  return [
    { label: "Passcode gate", value: settings.preview_passcode_enabled === true ? "On" : "Off" },
    { label: "Passcode set", value: yesNo(settings.preview_passcode_set) },
    { label: "Site access", value: typeof settings.site_access_mode === "string" ? settings.site_access_mode : "—" },
    { label: "Sign-up disabled", value: yesNo(settings.disable_signup) },
    { label: "Indexing blocked", value: yesNo(settings.block_indexing) },
  ];
}

/** How a repair will be authorised, for the screen to say so before it is tried. */
export function repairCredential(recoveryKey: string, signedInEmail: string | undefined): "recovery-key" | "session" | "none" {
  if (recoveryKey.trim() !== "") return "recovery-key";
  if (signedInEmail) return "session";
  return "none";
}

/**
 * Whether the signed-in session holds the instance operator's rights (the
 * repairs and instance-wide settings are the operator's, not every
 * organisation admin's): "unknown" when the server could not say.
 */
export type SessionStanding = "operator" | "not-operator" | "unknown";

/** The standing the security manager's GET_SETTINGS answer shows: `editable` only for the operator. */
export function standingFromSettings(body: Record<string, unknown>): SessionStanding {
  return body.editable === true ? "operator" : "not-operator";
}

/** The standing a refused GET_SETTINGS shows: a 403 is a session without the rights; anything else says nothing. */
export function standingFromError(error: unknown): SessionStanding {
  return error instanceof FunctionError && error.status === 403 ? "not-operator" : "unknown";
}
