import { useQuery } from "@tanstack/react-query";
import { unwrap } from "@/lib/data";
import { RECENT_DEFAULT } from "@/lib/logger";
import { getSupabase } from "@/lib/supabase";
import type { ActivityEntry } from "./activity";

// The Command Center's reads. Every one is scoped by the server to the
// caller's organisation; the keys carry the organisation so a member who
// changes organisation never sees the previous one's cached rows.

export interface OrgSummary {
  id: string;
  name: string;
  industry: string;
}

export interface MemberSummary {
  id: string;
  full_name: string;
  email: string;
  role: string;
  deactivated_at: string | null;
  created_at: string;
}

export interface InviteSummary {
  id: string;
  email: string;
  role: string;
  expires_at: string;
  created_at: string;
}

/** The caller's organization. */
export function useOrg(orgId: string | null | undefined) {
  return useQuery({
    queryKey: ["home", "org", orgId],
    enabled: Boolean(orgId),
    queryFn: async (): Promise<OrgSummary | null> => {
      const sb = await getSupabase();
      return unwrap<OrgSummary | null>(await sb.from("orgs").select("id, name, industry").eq("id", orgId ?? "").maybeSingle());
    },
  });
}

/** The organization's members, oldest first (the creator leads). */
export function useMembers(orgId: string | null | undefined) {
  return useQuery({
    queryKey: ["home", "members", orgId],
    enabled: Boolean(orgId),
    staleTime: 30_000,
    queryFn: async (): Promise<MemberSummary[]> => {
      const sb = await getSupabase();
      return unwrap<MemberSummary[]>(
        await sb
          .from("members")
          .select("id, full_name, email, role, deactivated_at, created_at")
          .order("created_at", { ascending: true }),
      );
    },
  });
}

/**
 * Pending invitations. Only administrators read them (the server returns
 * none to anyone else), so the query runs only for them.
 */
export function usePendingInvites(orgId: string | null | undefined, isAdmin: boolean) {
  return useQuery({
    queryKey: ["home", "invites", orgId],
    enabled: Boolean(orgId) && isAdmin,
    staleTime: 30_000,
    queryFn: async (): Promise<InviteSummary[]> => {
      const sb = await getSupabase();
      return unwrap<InviteSummary[]>(
        await sb
          .from("invites")
          .select("id, email, role, expires_at, created_at")
          .eq("status", "pending")
          .order("created_at", { ascending: false }),
      );
    },
  });
}

/** The newest entries of the audit trail (spec §9: recent lists show 10). */
export function useRecentActivity(orgId: string | null | undefined) {
  return useQuery({
    queryKey: ["home", "activity", orgId],
    enabled: Boolean(orgId),
    staleTime: 0,
    queryFn: async (): Promise<ActivityEntry[]> => {
      const sb = await getSupabase();
      return unwrap<ActivityEntry[]>(
        await sb
          .from("audit_logs_v2")
          .select("id, actor_id, actor_email, action, object_type, object_id, meta, created_at")
          .order("id", { ascending: false })
          .limit(RECENT_DEFAULT),
      );
    },
  });
}
