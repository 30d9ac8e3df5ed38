/**
 * The route guard's decision (spec §2 "Route guard"), as a pure function so
 * it is tested without a browser.
 */

/** Paths the guard does not check at all. */
export const UNCHECKED_PATHS = ["/health", "/safe"] as const;

/**
 * Paths open without a session: the spec's /login, /logout and /gate, and the
 * screens one needs before having an account (sign-up, password reset).
 */
export const OPEN_PATHS = ["/login", "/logout", "/gate", "/signup", "/forgot-password", "/reset-password"] as const;

export interface GuardInput {
  path: string;
  status: "loading" | "signed-in" | "signed-out";
  /** The server's passcode gate is on and this browser has not passed it. */
  gateBlocked: boolean;
  /** Starting the session failed unexpectedly. */
  failed: boolean;
  /**
   * The session is signed in with the password only but its account has a
   * verified authenticator (see secondFactorDue): the server refuses it
   * everything but finishing the sign-in, so it goes to /login's code step.
   */
  secondFactorDue?: boolean;
  /**
   * The session ended elsewhere (see lib/session-end) and the member has
   * not been sent to sign in yet: from every screen but the open ones,
   * safe mode and health included, they go to /login remembering the page.
   */
  sessionEnded?: boolean;
}

export type GuardDecision =
  | { kind: "render" }
  | { kind: "checking" }
  | { kind: "redirect"; to: string; rememberFrom: boolean };

function matches(path: string, list: readonly string[]): boolean {
  return list.some((p) => path === p || path.startsWith(`${p}/`));
}

/** What the guard does for one navigation. */
export function decideGuard({ path, status, gateBlocked, failed, secondFactorDue = false, sessionEnded = false }: GuardInput): GuardDecision {
  if (sessionEnded && !matches(path, OPEN_PATHS)) return { kind: "redirect", to: "/login", rememberFrom: true };
  if (matches(path, UNCHECKED_PATHS)) return { kind: "render" };
  if (failed) return { kind: "redirect", to: "/safe", rememberFrom: false };
  if (gateBlocked && path !== "/gate") return { kind: "redirect", to: "/gate", rememberFrom: false };
  if (matches(path, OPEN_PATHS)) return { kind: "render" };
  if (status === "loading") return { kind: "checking" };
  if (status === "signed-out") return { kind: "redirect", to: "/login", rememberFrom: true };
  if (secondFactorDue) return { kind: "redirect", to: "/login", rememberFrom: true };
  return { kind: "render" };
}

/** The page to return to after signing in: a same-site path only, never /login itself. */
export function safeReturnPath(from: unknown): string {
  if (typeof from !== "string" || !from.startsWith("/") || from.startsWith("//")) return "/";
  if (from === "/login" || from.startsWith("/login?") || from === "/logout") return "/";
  return from;
}
