import type { AuditEntry } from "@/entities/audit";

// Who did it and when, as the Command Center's activity says it; what they
// did is worded by the audit trail's sentences (entities/audit), the same
// the Audit Log uses.

/** The fields of an audit_logs_v2 entry the activity list uses. */
export type ActivityEntry = Pick<
  AuditEntry,
  "id" | "actor_id" | "actor_email" | "action" | "object_type" | "object_id" | "meta" | "before_json" | "after_json" | "created_at"
>;

/**
 * Who did it: the member's name from the directory, else the e-mail the
 * trail recorded; the service role, and the server's own background work
 * (actor "system": overdue marks, expiries), are Fairbalance itself.
 */
export function actorName(entry: Pick<ActivityEntry, "actor_id" | "actor_email">, names: ReadonlyMap<string, string>): string {
  if (entry.actor_id === "service_role" || entry.actor_id === "system") return "Fairbalance";
  const name = entry.actor_id ? names.get(entry.actor_id) : undefined;
  if (name) return name;
  if (entry.actor_email) return entry.actor_email;
  return "Someone";
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago"… relative to `now`. */
export function relativeTime(iso: string, now: Date = new Date()): string {
  const then = new Date(iso);
  if (Number.isNaN(then.getTime())) return "";
  const seconds = Math.round((then.getTime() - now.getTime()) / 1000);
  if (Math.abs(seconds) < 45) return "just now";
  const format = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === "minute") {
      return format.format(Math.round(seconds / size), unit);
    }
  }
  return "just now";
}
