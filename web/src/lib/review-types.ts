import type { BadgeProps } from "@/components/ui/badge";
import { lookup, variantOf } from "./content-types";
import { Constants, type Database } from "./database.types";

/**
 * Labels and badge colours for the review workflow (rounds, steps, reviewer
 * roles), and how a due date reads ("Due tomorrow", "Overdue by 2 days"),
 * shared by the Review Center, the Command Center and an asset's page so
 * every screen names a state the same way. The value lists come from the
 * generated database types (the server's vocabularies): a value the server
 * adds fails the type check here until it has a label; an unknown value is
 * shown as given.
 */

type Variant = NonNullable<BadgeProps["variant"]>;
type Enums = Database["public"]["Enums"];
const VOCABULARIES = Constants.public.Enums;

/** The reviewer roles, in the order rounds list their steps. */
export const REVIEWER_ROLES = VOCABULARIES.reviewer_role;
export type ReviewerRole = Enums["reviewer_role"];

/** The statuses of a round. */
export const REVIEW_STATUSES = VOCABULARIES.review_status;
export type ReviewStatus = Enums["review_status"];

/** The statuses of a round's step. */
export const STEP_STATUSES = VOCABULARIES.step_status;
export type StepStatus = Enums["step_status"];

const ROLE_SHORT: Record<ReviewerRole, string> = {
  reviewer_medical: "Medical",
  reviewer_legal: "Legal",
  reviewer_regulatory: "Regulatory",
};

const REVIEW_STATUS_LABELS: Record<ReviewStatus, string> = {
  open: "In review",
  approved: "Approved",
  changes_requested: "Changes requested",
  rejected: "Rejected",
  withdrawn: "Withdrawn",
};

// Colours as for assets: blue = moving, green = usable, amber = back to the
// author, red = must not be used, gray = not in play.
const REVIEW_STATUS_VARIANTS: Record<ReviewStatus, Variant> = {
  open: "blue",
  approved: "green",
  changes_requested: "amber",
  rejected: "red",
  withdrawn: "gray",
};

const STEP_STATUS_LABELS: Record<StepStatus, string> = {
  waiting: "Waiting",
  active: "In review",
  approved: "Approved",
  approved_with_changes: "Approved with changes",
  changes_requested: "Changes requested",
  rejected: "Rejected",
  skipped: "Skipped",
};

const STEP_STATUS_VARIANTS: Record<StepStatus, Variant> = {
  waiting: "gray",
  active: "blue",
  approved: "green",
  approved_with_changes: "green",
  changes_requested: "amber",
  rejected: "red",
  skipped: "gray",
};

/** The decisions, in the order the sign dialog offers them. */
export const DECISIONS = VOCABULARIES.decision;
export type Decision = Enums["decision"];

const DECISION_LABELS: Record<Decision, string> = {
  approved: "Approve",
  approved_with_changes: "Approve with changes",
  changes_requested: "Request changes",
  rejected: "Reject",
};

export const SIGNATURE_MEANINGS = VOCABULARIES.signature_meaning;
export type SignatureMeaning = Enums["signature_meaning"];

const MEANING_LABELS: Record<SignatureMeaning, string> = {
  approval: "Approval",
  review: "Review",
  rejection: "Rejection",
};

export const CHANGE_REQUEST_STATUSES = VOCABULARIES.change_request_status;
export type ChangeRequestStatus = Enums["change_request_status"];

const CHANGE_REQUEST_STATUS_LABELS: Record<ChangeRequestStatus, string> = {
  open: "Open",
  done: "Done",
  confirmed: "Confirmed",
};

const CHANGE_REQUEST_STATUS_VARIANTS: Record<ChangeRequestStatus, Variant> = {
  open: "amber",
  done: "blue",
  confirmed: "green",
};

/** Whether `role` is one of the reviewer roles (who decide review steps). */
export function isReviewerRole(role: string | null | undefined): role is ReviewerRole {
  return (REVIEWER_ROLES as readonly string[]).includes(role ?? "");
}

/** "Medical" for "reviewer_medical": the review a step is, in a word. */
export const reviewerRoleLabel = (value: string | null | undefined) => lookup(ROLE_SHORT, value);
/** "In review" for an open round. */
export const reviewStatusLabel = (value: string | null | undefined) => lookup(REVIEW_STATUS_LABELS, value);
/** Badge colour of a round's status. */
export const reviewStatusVariant = (value: string | null | undefined) => variantOf(REVIEW_STATUS_VARIANTS, value);
/** "Approved with changes" for "approved_with_changes". */
export const stepStatusLabel = (value: string | null | undefined) => lookup(STEP_STATUS_LABELS, value);
/** Badge colour of a step's status. */
export const stepStatusVariant = (value: string | null | undefined) => variantOf(STEP_STATUS_VARIANTS, value);

/** The verb of a decision: "Request changes" for "changes_requested". */
export const decisionLabel = (value: string | null | undefined) => lookup(DECISION_LABELS, value);
/** "Approval" for "approval": the meaning a signature manifests (21 CFR 11.50). */
export const meaningLabel = (value: string | null | undefined) => lookup(MEANING_LABELS, value);
/** "Done" for "done". */
export const changeRequestStatusLabel = (value: string | null | undefined) => lookup(CHANGE_REQUEST_STATUS_LABELS, value);
/** Badge colour of a change request's status. */
export const changeRequestStatusVariant = (value: string | null | undefined) => variantOf(CHANGE_REQUEST_STATUS_VARIANTS, value);

/** The meaning a decision's signature takes (the server's rule): approval for both approvals, review for changes, rejection. */
export function decisionMeaning(decision: Decision): SignatureMeaning {
  if (decision === "approved" || decision === "approved_with_changes") return "approval";
  if (decision === "rejected") return "rejection";
  return "review";
}

/** Whether a member with `role` reviews for `stepRole` (only a reviewer of a step's role decides it). */
export function reviewsFor(role: string | null | undefined, stepRole: string): boolean {
  return role === stepRole;
}

/** Sorts steps as a round lists them: by order, then medical, legal, regulatory. */
export function byStepOrder<T extends { step_order: number; role: string }>(steps: readonly T[]): T[] {
  const rank = (role: string) => {
    const i = (REVIEWER_ROLES as readonly string[]).indexOf(role);
    return i < 0 ? REVIEWER_ROLES.length : i;
  };
  return [...steps].sort((a, b) => a.step_order - b.step_order || rank(a.role) - rank(b.role));
}

/** Where a due time stands: past it, within today or tomorrow (local calendar days), or later. */
export type DueState = "overdue" | "today" | "tomorrow" | "later";

export interface Due {
  state: DueState;
  /** "Overdue by 3 days", "Due today", "Due tomorrow", "Due in 4 days". */
  label: string;
}

const DAY = 86_400_000;

function localDay(d: Date): number {
  return Date.UTC(d.getFullYear(), d.getMonth(), d.getDate());
}

/**
 * How a step's or round's due time reads at `now`, by local calendar days
 * (a step due at 11:00 tomorrow is "Due tomorrow" all of today). `overdue`
 * is the server's word when it gave one: it compares with its own clock,
 * and a row it calls overdue must read so even if this browser's clock lags.
 * Null when there is no due time (a closed round).
 */
export function dueOf(dueAt: string | null | undefined, now: Date = new Date(), overdue?: boolean): Due | null {
  if (!dueAt) return null;
  const due = new Date(dueAt);
  if (Number.isNaN(due.getTime())) return null;
  const days = Math.round((localDay(due) - localDay(now)) / DAY);
  if (overdue === true || (overdue === undefined && due.getTime() < now.getTime())) {
    const late = Math.max(0, -days);
    return { state: "overdue", label: late === 0 ? "Overdue since today" : late === 1 ? "Overdue by 1 day" : `Overdue by ${late} days` };
  }
  if (days <= 0) return { state: "today", label: "Due today" };
  if (days === 1) return { state: "tomorrow", label: "Due tomorrow" };
  return { state: "later", label: `Due in ${days} days` };
}
