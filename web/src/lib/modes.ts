/**
 * Preview and demo modes (spec §4, product.md §8). The client's triggers only
 * choose the demo experience; the server decides whether a read-only demo
 * session may be issued, and refuses every write from it.
 */

/** Local-storage flag that keeps preview on across visits. */
export const PREVIEW_FLAG_KEY = "preview_on";
/** The hosted-preview host suffix named by the spec. */
export const PREVIEW_HOST_SUFFIX = "lovable.dev";
/** Session-storage key of the demo impersonation state. */
export const IMPERSONATION_KEY = "fairbalance.demo.impersonation";
/** Local flag set once the passcode gate has been passed. */
export const GATE_PASSED_KEY = "gate_passed";

function safeStorage(kind: "localStorage" | "sessionStorage"): Storage | undefined {
  try {
    return window[kind];
  } catch {
    return undefined;
  }
}

/**
 * Whether the visitor asked for preview mode: the host ends with the preview
 * suffix, the query has a `preview` parameter, or `preview_on` is "true".
 */
export function previewRequested(location: Pick<Location, "hostname" | "search"> = window.location): boolean {
  if (location.hostname.endsWith(PREVIEW_HOST_SUFFIX)) return true;
  if (new URLSearchParams(location.search).has("preview")) return true;
  return safeStorage("localStorage")?.getItem(PREVIEW_FLAG_KEY) === "true";
}

/** Turns the remembered preview flag on or off. */
export function setPreviewFlag(on: boolean): void {
  const storage = safeStorage("localStorage");
  if (on) storage?.setItem(PREVIEW_FLAG_KEY, "true");
  else storage?.removeItem(PREVIEW_FLAG_KEY);
}

/** Demo role impersonation: starts inactive as viewer (spec §4). */
export interface Impersonation {
  active: boolean;
  role: string;
  displayName: string;
}

export const INACTIVE_IMPERSONATION: Impersonation = { active: false, role: "viewer", displayName: "Viewer" };

/** The impersonation state kept in session storage. */
export function readImpersonation(): Impersonation {
  const raw = safeStorage("sessionStorage")?.getItem(IMPERSONATION_KEY);
  if (!raw) return INACTIVE_IMPERSONATION;
  try {
    const value = JSON.parse(raw) as Partial<Impersonation>;
    if (typeof value.active === "boolean" && typeof value.role === "string") {
      return { active: value.active, role: value.role, displayName: value.displayName ?? value.role };
    }
  } catch {
    // fall through: a damaged entry is treated as no impersonation
  }
  return INACTIVE_IMPERSONATION;
}

export function writeImpersonation(state: Impersonation): void {
  const storage = safeStorage("sessionStorage");
  if (!state.active) storage?.removeItem(IMPERSONATION_KEY);
  else storage?.setItem(IMPERSONATION_KEY, JSON.stringify(state));
}

/** Whether a record is demo data (spec §3): id with a run of zeros, '[DEMO]', the demo domain, 'Demo'. */
export function isDemoRecord(record: { id?: string | null; title?: string | null; email?: string | null; name?: string | null }): boolean {
  return (
    /^0{8}-/.test(record.id ?? "") ||
    (record.title ?? "").includes("[DEMO]") ||
    (record.email ?? "").toLowerCase().endsWith("@demo.example.com") ||
    (record.name ?? "").includes("Demo")
  );
}

/** The local flag recorded after the passcode gate is passed. */
export function markGatePassed(): void {
  safeStorage("localStorage")?.setItem(GATE_PASSED_KEY, "true");
}

export function clearGatePassed(): void {
  safeStorage("localStorage")?.removeItem(GATE_PASSED_KEY);
}

/**
 * What a read-only (demo) session is told where a write action would be:
 * the demo workspace can be explored, never changed (the server refuses
 * every write from it).
 */
export const READ_ONLY_NOTE = "Read-only demo: changes are turned off";
/** The longer explanation, for a screen or a dialog that is only shown. */
export const READ_ONLY_EXPLANATION =
  "This is the read-only demo workspace: you can look at everything, but nothing can be created, changed or deleted.";
