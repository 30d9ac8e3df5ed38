import type { AuditEntry } from "@/entities/audit";
import { roleLabel } from "@/lib/roles";

// How the Command Center words the audit trail: who did what, and when,
// in plain language. Unknown actions still read sensibly, so a new kind of
// entry never shows up as raw code.

/** The fields of an audit_logs_v2 entry the activity list uses. */
export type ActivityEntry = Pick<AuditEntry, "id" | "actor_id" | "actor_email" | "action" | "object_type" | "object_id" | "meta" | "created_at">;

function metaString(meta: unknown, key: string): string | undefined {
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) return undefined;
  const value = (meta as Record<string, unknown>)[key];
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

// Nouns for the tables whose writes the data API records as "table.op".
const TABLE_NOUNS: Record<string, string> = {
  orgs: "the organization",
  workspace_settings: "the workspace settings",
  notification_preferences: "their notification preferences",
  invites: "an invitation",
  members: "a member",
};

const OPERATION_VERBS: Record<string, string> = {
  insert: "created",
  update: "updated",
  upsert: "saved",
  delete: "deleted",
};

function humanize(action: string): string {
  return action.replace(/[._]+/g, " ").trim();
}

/** The entry's action as the end of a sentence that starts with the actor's name. */
export function describeAction(entry: Pick<ActivityEntry, "action" | "actor_id" | "object_id" | "object_type" | "meta">): string {
  const { action, meta } = entry;
  switch (action) {
    case "organization_created": {
      const name = metaString(meta, "organization_name");
      return name ? `set up the organization ${name}` : "set up the organization";
    }
    case "onboarding_completed":
      return "completed the workspace setup";
    case "user_invited": {
      const email = metaString(meta, "invited_email");
      const role = metaString(meta, "invited_role");
      if (email && role) return `invited ${email} as ${roleLabel(role)}`;
      return email ? `invited ${email}` : "invited someone";
    }
    case "invite_created":
      return "created an invitation";
    case "invite_accepted": {
      const role = metaString(meta, "role");
      return role ? `joined as ${roleLabel(role)}` : "joined the organization";
    }
    case "invite_revoked":
      return "revoked an invitation";
    case "invite_resent": {
      const email = metaString(meta, "email");
      return email ? `re-sent the invitation to ${email}` : "re-sent an invitation";
    }
    case "member_deactivated":
      return "deactivated a member";
    case "member_reactivated":
      return "reactivated a member";
    case "session_revoked":
      return "signed out one of their sessions";
    case "audit_chain_verified":
      return "verified the audit trail";
    case "audit_chain_verification_failed":
      return "ran an audit trail check that found a break";
    case "demo_role_switched": {
      const role = metaString(meta, "role");
      return role ? `switched the demo role to ${roleLabel(role)}` : "switched the demo role";
    }
    case "demo_role_reset":
      return "reset the demo role";
    case "demo_data_seeded":
      return "loaded the demo data";
  }
  const dot = action.indexOf(".");
  if (dot > 0) {
    const table = action.slice(0, dot);
    const verb = OPERATION_VERBS[action.slice(dot + 1)];
    if (verb) {
      if (table === "profiles_v2") {
        const own = entry.object_id !== null && entry.object_id === entry.actor_id;
        return `${verb} ${own ? "their profile" : "a member's profile"}`;
      }
      return `${verb} ${TABLE_NOUNS[table] ?? humanize(table)}`;
    }
  }
  return humanize(action);
}

/**
 * Who did it: the member's name from the directory, else the e-mail the
 * trail recorded; the service role is the system itself.
 */
export function actorName(entry: Pick<ActivityEntry, "actor_id" | "actor_email">, names: ReadonlyMap<string, string>): string {
  if (entry.actor_id === "service_role") return "Fairbalance";
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

/** "Good morning" before noon, "Good afternoon" until 18:00, then "Good evening". */
export function greeting(now: Date = new Date()): string {
  const h = now.getHours();
  if (h < 12) return "Good morning";
  if (h < 18) return "Good afternoon";
  return "Good evening";
}

/** The name to greet: the first word of the full name, else the e-mail's local part. */
export function firstName(fullName: string | null | undefined, email: string | null | undefined): string {
  const first = (fullName ?? "").trim().split(/\s+/)[0];
  if (first) return first;
  const local = (email ?? "").split("@")[0];
  return local ?? "";
}
