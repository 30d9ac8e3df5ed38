import type { AuditEntry, AuditMember } from "./api";

/** The actor id the server records for writes made with the service-role key. */
const SERVICE_ROLE = "service_role";
/** The actor id of entries the server's scheduled jobs write. */
const SYSTEM = "system";

/** Who an entry's actor is, for display: a member's name and e-mail when known. */
export function actorLabel(entry: Pick<AuditEntry, "actor_id" | "actor_email">, members: Map<string, AuditMember>): { name: string; email: string } {
  const id = entry.actor_id ?? "";
  if (id === SERVICE_ROLE) return { name: "System", email: "service role" };
  // The server's own background work (the review workflow's overdue marks and expiries).
  if (id === SYSTEM) return { name: "System", email: "" };
  const m = members.get(id);
  if (m) return { name: m.full_name || m.email, email: m.full_name ? m.email : "" };
  if (entry.actor_email) return { name: entry.actor_email, email: "" };
  if (!id) return { name: "System", email: "" };
  return { name: "Former member", email: id };
}
