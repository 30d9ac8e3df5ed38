import { deleteCookie, readCookie, writeCookie } from "./cookies";

/** The spec's safe-mode cookie: 7200 s, set by ?__safe=1, cleared by ?__clear_safe=1. */
export const SAFE_MODE_COOKIE = "safe_mode";
export const SAFE_MODE_MAX_AGE = 7200;

export function safeModeActive(): boolean {
  return readCookie(SAFE_MODE_COOKIE) === "1";
}

export function startSafeMode(): void {
  writeCookie(SAFE_MODE_COOKIE, "1", SAFE_MODE_MAX_AGE);
}

export function clearSafeMode(): void {
  deleteCookie(SAFE_MODE_COOKIE);
}

/**
 * Applies `__safe=1` / `__clear_safe=1` from the address bar. Returns what
 * changed, so the safe-mode screen can say so.
 */
export function applySafeModeQuery(search: string = window.location.search): "started" | "cleared" | null {
  const params = new URLSearchParams(search);
  if (params.get("__clear_safe") === "1") {
    clearSafeMode();
    return "cleared";
  }
  if (params.get("__safe") === "1") {
    startSafeMode();
    return "started";
  }
  return null;
}
