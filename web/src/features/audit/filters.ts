/**
 * The Audit Log's filters: how they live in the URL (so a filtered view can
 * be shared and bookmarked), how a period becomes created_at bounds, and the
 * small formatting helpers the table and the export use. Everything here is
 * pure so it can be tested without a browser or a server.
 */

/** Rows per page. Pages are read by id (keyset), never by offset. */
export const PAGE_SIZE = 50;

export type Period = "" | "24h" | "7d" | "30d" | "custom";

export const PERIODS: { value: Period; label: string }[] = [
  { value: "", label: "Any time" },
  { value: "24h", label: "Last 24 hours" },
  { value: "7d", label: "Last 7 days" },
  { value: "30d", label: "Last 30 days" },
  { value: "custom", label: "Custom range" },
];

/** The filters of the Audit Log, as the URL holds them. Empty strings mean "no filter". */
export interface AuditFilters {
  /** A member's user id (actor_id). */
  actor: string;
  /** An action name; matched exactly when it is a known action, else as a case-insensitive substring. */
  action: string;
  /** An object type (object_type), matched exactly. */
  type: string;
  period: Period;
  /** Custom range, local calendar dates YYYY-MM-DD, both inclusive. */
  from: string;
  to: string;
}

export const EMPTY_FILTERS: AuditFilters = { actor: "", action: "", type: "", period: "", from: "", to: "" };

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isPeriod(value: string): value is Period {
  return PERIODS.some((p) => p.value === value);
}

/** Reads the filters from a query string; unknown or malformed values are dropped. */
export function filtersFromSearch(params: URLSearchParams): AuditFilters {
  const get = (k: string) => (params.get(k) ?? "").trim();
  const period = get("period");
  const from = get("from");
  const to = get("to");
  return {
    actor: get("actor"),
    action: get("action"),
    type: get("type"),
    period: isPeriod(period) ? period : "",
    from: DATE.test(from) ? from : "",
    to: DATE.test(to) ? to : "",
  };
}

/**
 * The query string of a view: the filters (only those set) and the page
 * cursor `before` (entries with a smaller id), in a stable order.
 */
export function searchFromFilters(filters: AuditFilters, before?: number | null): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.actor) params.set("actor", filters.actor);
  if (filters.action) params.set("action", filters.action);
  if (filters.type) params.set("type", filters.type);
  if (filters.period) params.set("period", filters.period);
  if (filters.period === "custom") {
    if (filters.from) params.set("from", filters.from);
    if (filters.to) params.set("to", filters.to);
  }
  if (before != null && before > 0) params.set("before", String(before));
  return params;
}

/** The page cursor of a query string: only entries with an id below it are shown. */
export function cursorFromSearch(params: URLSearchParams): number | null {
  const raw = params.get("before");
  if (!raw || !/^\d+$/.test(raw)) return null;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** Whether any filter is set (the period included). */
export function hasFilters(filters: AuditFilters): boolean {
  return Boolean(filters.actor || filters.action || filters.type || filters.period);
}

const HOUR = 3_600_000;
const PERIOD_MS: Record<"24h" | "7d" | "30d", number> = { "24h": 24 * HOUR, "7d": 7 * 24 * HOUR, "30d": 30 * 24 * HOUR };

/** Local midnight of a YYYY-MM-DD date, plus `days`. */
function localMidnight(date: string, days = 0): Date {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(y, m - 1, d + days);
}

/**
 * The created_at bounds of a period: `since` inclusive, `until` exclusive,
 * as ISO instants. Custom dates are the user's local calendar days, and the
 * "to" day is included whole. A custom range whose end is before its start
 * is swapped rather than matching nothing.
 */
export function periodBounds(filters: Pick<AuditFilters, "period" | "from" | "to">, now: Date = new Date()): { since?: string; until?: string } {
  switch (filters.period) {
    case "24h":
    case "7d":
    case "30d":
      return { since: new Date(now.getTime() - PERIOD_MS[filters.period]).toISOString() };
    case "custom": {
      let { from, to } = filters;
      if (from && to && from > to) [from, to] = [to, from];
      const out: { since?: string; until?: string } = {};
      if (from) out.since = localMidnight(from).toISOString();
      if (to) out.until = localMidnight(to, 1).toISOString();
      return out;
    }
    default:
      return {};
  }
}

/**
 * Actions the server and the app write, offered as suggestions. Data API
 * writes are recorded as `<table>.<insert|update|delete>`.
 */
export const KNOWN_ACTIONS = [
  "audit_chain_verified",
  "audit_chain_verification_failed",
  "demo_role_reset",
  "demo_role_switched",
  "invite_accepted",
  "invite_created",
  "invite_resent",
  "invite_revoked",
  "invites.insert",
  "member_deactivated",
  "member_reactivated",
  "notification_preferences.insert",
  "notification_preferences.update",
  "onboarding_completed",
  "organization_created",
  "orgs.insert",
  "orgs.update",
  "profiles_v2.update",
  "session_revoked",
  "user_invited",
  "workspace_settings.update",
] as const;

/** Object types the trail holds, offered as suggestions. */
export const KNOWN_OBJECT_TYPES = [
  "audit_chain",
  "invite",
  "member",
  "notification_preferences",
  "org",
  "orgs",
  "profiles_v2",
  "session",
  "user_invite",
  "workspace_settings",
] as const;

/**
 * How the action filter is sent: an exact match (served by the trail's
 * action index) when the text is a known or already-seen action, otherwise a
 * case-insensitive substring match so partial names still find entries.
 */
export function actionFilter(action: string, known: Iterable<string> = KNOWN_ACTIONS): { op: "eq" | "ilike"; value: string } | null {
  const text = action.trim();
  if (!text) return null;
  for (const k of known) if (k === text) return { op: "eq", value: text };
  // PostgREST patterns use * as the wildcard. "_" and "%" are LIKE
  // wildcards too and are not escaped (SQLite's LIKE has no default escape
  // character): in action names "_" only ever widens the match by a letter.
  return { op: "ilike", value: `*${text}*` };
}

/** `audit-log-YYYY-MM-DD.csv`, with the local date of `now`. */
export function csvFilename(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `audit-log-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}

function humanKey(key: string): string {
  return key.replace(/_/g, " ");
}

function shortValue(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value === "" ? "“”" : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.every((v) => typeof v !== "object" || v === null) ? value.map(shortValue).join(", ") : `${value.length} items`;
  return "{…}";
}

/**
 * A one-line summary of an entry's meta for the table: "key: value" pairs
 * joined by " · ", nested values abbreviated, cut to `max` characters.
 * Returns "" when there is nothing to say.
 */
export function metaSummary(meta: unknown, max = 80): string {
  if (meta === null || meta === undefined) return "";
  let text: string;
  if (typeof meta === "object" && !Array.isArray(meta)) {
    text = Object.entries(meta as Record<string, unknown>)
      .map(([k, v]) => `${humanKey(k)}: ${shortValue(v)}`)
      .join(" · ");
  } else {
    text = shortValue(meta);
  }
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** The badge colour of an action, from what it does. */
export function actionVariant(action: string): "red" | "green" | "blue" | "amber" | "gray" {
  const a = action.toLowerCase();
  if (a.startsWith("demo_")) return "amber";
  if (/(delete|failed|failure|revoked|deactivated|broken|rejected)/.test(a)) return "red";
  if (/(insert|created|accepted|verified|completed|reactivated|invited)/.test(a)) return "green";
  if (/(update|changed|resent|switched|edited)/.test(a)) return "blue";
  return "gray";
}

/** A long id shortened for a table cell (the full id goes in the title). */
export function shortId(id: string | null | undefined, keep = 8): string {
  if (!id) return "";
  return id.length > keep + 1 ? `${id.slice(0, keep)}…` : id;
}
