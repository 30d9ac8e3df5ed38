import { useQuery } from "@tanstack/react-query";
import { dayAfter, expiringAssetsQuery, myDraftsQuery } from "@/entities/assets";
import { recentActivityQuery } from "@/entities/audit";
import { contentCountsQuery } from "@/entities/content";
import { type Invite, openInvitesQuery } from "@/entities/invites";
import { type Member, membersQuery } from "@/entities/members";
import { orgQuery } from "@/entities/orgs";
import { NO_QUEUE_FILTERS, reviewQueueFirstQuery } from "@/entities/review-queue";

/** How many items the Command Center's work cards list before linking to the rest. */
export const WORK_PREVIEW = 5;

/** How far ahead "expiring soon" looks (product.md: notice 30 days before). */
export const EXPIRY_WINDOW_DAYS = 30;

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

/** My open review steps (claimed by me, or unclaimed for my role), by due date; only reviewers have any. */
export function useMySteps(enabled: boolean) {
  return useQuery({ ...reviewQueueFirstQuery("mine", WORK_PREVIEW), enabled });
}

/** The rounds I submitted that are still in review, by due date. */
export function useMySubmissions(enabled: boolean) {
  return useQuery({ ...reviewQueueFirstQuery("submitted", WORK_PREVIEW, { ...NO_QUEUE_FILTERS, status: "open" }), enabled });
}

/** My assets waiting for me: drafts and those sent back with changes requested. */
export function useMyDrafts(userId: string | undefined, enabled: boolean) {
  return useQuery({ ...myDraftsQuery(userId, WORK_PREVIEW), enabled: enabled && Boolean(userId) });
}

/** The organisation's assets by status (content_counts). */
export function usePipelineCounts(enabled: boolean) {
  return useQuery({ ...contentCountsQuery(), enabled });
}

/** Approved assets whose approval ends within the window, soonest first. */
export function useExpiringAssets(enabled: boolean) {
  return useQuery({ ...expiringAssetsQuery(dayAfter(new Date(), EXPIRY_WINDOW_DAYS)), enabled });
}
