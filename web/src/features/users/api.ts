import { useQuery } from "@tanstack/react-query";
import { unwrap } from "@/lib/data";
import type { Database } from "@/lib/database.types";
import type { Role } from "@/lib/roles";
import { getSupabase } from "@/lib/supabase";

export type Member = Database["public"]["Tables"]["members"]["Row"];
export type Invite = Database["public"]["Tables"]["invites"]["Row"];

export const MEMBERS_KEY = "members";
export const INVITES_KEY = "invites";

/** The members of the caller's organisation (the server shows no one else's), by name. */
export function useMembers(orgId: string | null | undefined) {
  return useQuery({
    queryKey: [MEMBERS_KEY, "org", orgId],
    enabled: Boolean(orgId),
    queryFn: async (): Promise<Member[]> => {
      const sb = await getSupabase();
      return unwrap<Member[]>(await sb.from("members").select("*").order("full_name", { ascending: true }));
    },
  });
}

/** Invitations not yet accepted or revoked (pending and expired), newest first. Admins only. */
export function useOpenInvites(orgId: string | null | undefined, enabled: boolean) {
  return useQuery({
    queryKey: [INVITES_KEY, orgId],
    enabled: Boolean(orgId) && enabled,
    queryFn: async (): Promise<Invite[]> => {
      const sb = await getSupabase();
      return unwrap<Invite[]>(
        await sb.from("invites").select("*").in("status", ["pending", "expired"]).order("created_at", { ascending: false }),
      );
    },
  });
}

/** The organisation's name, for the page's description. */
export function useOrgName(orgId: string | null | undefined) {
  return useQuery({
    queryKey: ["org", orgId],
    enabled: Boolean(orgId),
    queryFn: async (): Promise<{ id: string; name: string } | null> => {
      const sb = await getSupabase();
      return unwrap<{ id: string; name: string } | null>(
        await sb.from("orgs").select("id, name").eq("id", orgId ?? "").maybeSingle(),
      );
    },
  });
}

/** The roles an invitation or a role change offers (the owner is not handed out here). */
export const ASSIGNABLE_ROLES = [
  "admin",
  "reviewer_medical",
  "reviewer_legal",
  "reviewer_regulatory",
  "marketer",
  "viewer",
] as const satisfies readonly Role[];

/** What each role does, shown under the role picker. */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  owner: "Everything an admin does, and owns the organisation.",
  admin: "Manages members, roles, workspace settings, products and content.",
  reviewer_medical: "Reviews clinical accuracy, claim substantiation and fair balance.",
  reviewer_legal: "Reviews legal risk: comparative claims, trademarks, guarantees, endorsements.",
  reviewer_regulatory: "Reviews labelling, ISI, required statements and FDA 2253 readiness.",
  marketer: "Creates content, runs the pre-screen and submits it for review.",
  viewer: "Reads content, reviews and the audit log.",
};

/** Role ranks as the server compares them (service/tables.go): nobody acts above their own. */
const RANK: Record<string, number> = {
  owner: 3,
  admin: 2,
  reviewer_medical: 1,
  reviewer_legal: 1,
  reviewer_regulatory: 1,
  marketer: 1,
  viewer: 0,
};

/** Whether `actor` may manage someone holding `target` (a hint for the screen; the server decides). */
export function canManage(actor: string | null | undefined, target: string): boolean {
  return (RANK[actor ?? ""] ?? -1) >= 2 && (RANK[target] ?? 0) <= (RANK[actor ?? ""] ?? -1);
}

/** The sign-up link of an invitation token. */
export function inviteLink(token: string, origin: string = window.location.origin): string {
  return `${origin}/signup?invite=${encodeURIComponent(token)}`;
}

/** The token and expiry create_invite and resend_invite return (shown once). */
export interface IssuedInvite {
  id: string;
  email: string;
  role: string;
  token: string;
  expires_at: string;
}

export function parseIssued(body: unknown): IssuedInvite {
  const r = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  if (!str(r.token)) throw new Error("The server did not return an invitation link.");
  return { id: str(r.id), email: str(r.email), role: str(r.role), token: str(r.token), expires_at: str(r.expires_at) };
}
