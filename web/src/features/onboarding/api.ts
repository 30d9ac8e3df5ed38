import { unwrap } from "@/lib/data";
import type { Json } from "@/lib/database.types";
import { getSupabase } from "@/lib/supabase";
import type { PendingInvite } from "./invites";

// The onboarding wizard's data calls (spec §7, product data calls). The
// server takes the actor and organisation of audit entries from the token;
// actor_id and org_id are sent as the spec's client sends them and replaced.

/** An organization as the wizard keeps it between its steps. */
export interface CreatedOrg {
  id: string;
  name: string;
  industry: string;
}

/** Inserts the organization, returning the row (spec: insert into orgs with name, returning the row). */
export async function insertOrganization(name: string, industry: string): Promise<CreatedOrg> {
  const sb = await getSupabase();
  const row = unwrap<CreatedOrg>(
    await sb
      .from("orgs")
      .insert({ name, ...(industry ? { industry } : {}) })
      .select("id, name, industry")
      .single(),
  );
  return { id: row.id, name: row.name, industry: row.industry };
}

/**
 * Joins the user to the organization they just created (spec: update
 * profiles_v2 setting org_id where id is the user). The server accepts this
 * only from no organization to one this same user created.
 */
export async function joinOrganization(userId: string, orgId: string): Promise<void> {
  const sb = await getSupabase();
  unwrap(await sb.from("profiles_v2").update({ org_id: orgId }).eq("id", userId));
}

/** Renames the organization when the admin went back to step 1 and changed it. */
export async function updateOrganization(orgId: string, name: string, industry: string): Promise<void> {
  const sb = await getSupabase();
  unwrap(await sb.from("orgs").update({ name, industry }).eq("id", orgId));
}

/** An entry of the organization's audit trail, as the wizard writes it. */
export interface AuditInsert {
  action: string;
  object_type?: string;
  object_id?: string;
  meta: Record<string, Json>;
}

/** Appends an entry to the audit trail (audit_logs_v2). */
export async function logAudit(userId: string, orgId: string, entry: AuditInsert): Promise<void> {
  const sb = await getSupabase();
  unwrap(
    await sb.from("audit_logs_v2").insert({
      actor_id: userId,
      org_id: orgId,
      action: entry.action,
      object_type: entry.object_type ?? null,
      object_id: entry.object_id ?? null,
      meta: entry.meta,
    }),
  );
}

/** create_invite's answer: the token is returned once, only its hash is kept. */
export interface CreatedInvite {
  id: string;
  email: string;
  role: string;
  token: string;
  expires_at: string;
}

/** Creates a pending invitation (rpc create_invite). */
export async function createInvite(invite: PendingInvite): Promise<CreatedInvite> {
  const sb = await getSupabase();
  const data = unwrap(await sb.rpc("create_invite", { email: invite.email, role: invite.role })) as Record<string, unknown> | null;
  if (!data || typeof data.token !== "string" || typeof data.id !== "string") {
    throw new Error("The server did not return the invitation");
  }
  return {
    id: data.id,
    email: typeof data.email === "string" ? data.email : invite.email,
    role: typeof data.role === "string" ? data.role : invite.role,
    token: data.token,
    expires_at: typeof data.expires_at === "string" ? data.expires_at : "",
  };
}
