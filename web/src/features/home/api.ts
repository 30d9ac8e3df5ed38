import { useQuery } from "@tanstack/react-query";
import { recentActivityQuery } from "@/entities/audit";
import { type Invite, openInvitesQuery } from "@/entities/invites";
import { type Member, membersQuery } from "@/entities/members";
import { orgQuery } from "@/entities/orgs";

// The Command Center's reads, from the entities: every one is scoped by the
// server to the caller's organisation, and the keys carry the organisation
// so a member who changes organisation never sees the previous one's rows.

/** The organization's members, oldest first (the creator leads). */
function byJoining(members: Member[]): Member[] {
  return [...members].sort((a, b) => a.created_at.localeCompare(b.created_at));
}

/** Invitations still waiting for an answer. */
function pendingOnly(invites: Invite[]): Invite[] {
  return invites.filter((i) => i.status === "pending");
}

/** The caller's organization. */
export function useOrg(orgId: string | null | undefined) {
  return useQuery(orgQuery(orgId));
}

/** The organization's members, oldest first. */
export function useMembers(orgId: string | null | undefined) {
  return useQuery({ ...membersQuery(orgId), staleTime: 30_000, select: byJoining });
}

/**
 * Pending invitations. Only administrators read them (the server returns
 * none to anyone else), so the query runs only for them.
 */
export function usePendingInvites(orgId: string | null | undefined, isAdmin: boolean) {
  return useQuery({ ...openInvitesQuery(orgId, isAdmin), staleTime: 30_000, select: pendingOnly });
}

/** The newest entries of the audit trail (spec §9: recent lists show 10). */
export function useRecentActivity(orgId: string | null | undefined) {
  return useQuery(recentActivityQuery(orgId));
}
