import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { unwrap } from "@/lib/data";
import type { Row } from "@/lib/db-types";
import { getSupabase } from "@/lib/supabase";

/** An invitation (view `invites`; the token is never stored, only its hash). */
export type Invite = Row<"invites">;

/** The token and expiry create_invite and resend_invite return (shown once). */
export interface IssuedInvite {
  id: string;
  email: string;
  role: string;
  token: string;
  expires_at: string;
}

export const inviteKeys = {
  all: ["invites"] as const,
  open: (orgId: string | null | undefined) => [...inviteKeys.all, "open", orgId ?? null] as const,
  byToken: (token: string) => [...inviteKeys.all, "token", token] as const,
};

/**
 * Invitations not yet accepted or revoked (pending and expired), newest
 * first. Only administrators read them (the server returns none to anyone
 * else), so the query runs only when `enabled`.
 */
export function openInvitesQuery(orgId: string | null | undefined, enabled: boolean) {
  return queryOptions({
    queryKey: inviteKeys.open(orgId),
    enabled: Boolean(orgId) && enabled,
    queryFn: async (): Promise<Invite[]> => {
      const sb = await getSupabase();
      return unwrap(await sb.from("invites").select("*").in("status", ["pending", "expired"]).order("created_at", { ascending: false }));
    },
  });
}

/** Reads create_invite's and resend_invite's answer. */
export function parseIssued(body: unknown): IssuedInvite {
  const r = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  if (!str(r.token)) throw new Error("The server did not return an invitation link.");
  return { id: str(r.id), email: str(r.email), role: str(r.role), token: str(r.token), expires_at: str(r.expires_at) };
}

/** Creates a pending invitation (rpc create_invite); its token is returned once. */
export async function createInvite(email: string, role: string): Promise<IssuedInvite> {
  const sb = await getSupabase();
  return parseIssued(unwrap(await sb.rpc("create_invite", { email, role })));
}

/** Issues a fresh link for an invitation (rpc resend_invite). */
export async function resendInvite(inviteId: string): Promise<IssuedInvite> {
  const sb = await getSupabase();
  return parseIssued(unwrap(await sb.rpc("resend_invite", { invite_id: inviteId })));
}

/** Revokes an invitation (rpc revoke_invite). */
export async function revokeInvite(inviteId: string): Promise<void> {
  const sb = await getSupabase();
  unwrap(await sb.rpc("revoke_invite", { invite_id: inviteId }));
}

/** get_invite's answer for a token, or its refusal (rpc get_invite: e-mail and role only). */
export async function lookUpInvite(token: string): Promise<{ data: unknown; error: unknown }> {
  const sb = await getSupabase();
  const { data, error } = await sb.rpc("get_invite", { token });
  return { data, error };
}

/** accept_invite's answer for the signed-in account (`{success, role}` or `{success: false, error}`), or its refusal. */
export async function acceptInvite(token: string): Promise<{ data: unknown; error: unknown }> {
  const sb = await getSupabase();
  const { data, error } = await sb.rpc("accept_invite", { token });
  return { data, error };
}

/** Refreshes every screen that lists invitations. */
export async function invalidateInvites(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: inviteKeys.all });
}
