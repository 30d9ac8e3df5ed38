import type { BadgeProps } from "@/components/ui/badge";
import { Constants, type Database } from "./database.types";

/**
 * Labels and badge colours of the review workflow's vocabularies (reviewer
 * roles, step and round statuses, decisions, signature meanings, change
 * request statuses), from the generated database types, so every screen
 * names a decision the same way. Like lib/content-types, an unknown value
 * is shown as given.
 */

type Variant = NonNullable<BadgeProps["variant"]>;
type Enums = Database["public"]["Enums"];
const VOCABULARIES = Constants.public.Enums;

export const REVIEWER_ROLES = VOCABULARIES.reviewer_role;
export type ReviewerRole = Enums["reviewer_role"];

const REVIEWER_ROLE_LABELS: Record<ReviewerRole, string> = {
  reviewer_medical: "Medical",
  reviewer_legal: "Legal",
  reviewer_regulatory: "Regulatory",
};

export const STEP_STATUSES = VOCABULARIES.step_status;
export type StepStatus = Enums["step_status"];

const STEP_STATUS_LABELS: Record<StepStatus, string> = {
  waiting: "Waiting",
  active: "In review",
  approved: "Approved",
  approved_with_changes: "Approved with changes",
  changes_requested: "Changes requested",
  rejected: "Rejected",
  skipped: "Skipped",
};

// Green = approved, blue = under way, amber = back to the author, red = rejected, gray = not in play.
const STEP_STATUS_VARIANTS: Record<StepStatus, Variant> = {
  waiting: "gray",
  active: "blue",
  approved: "green",
  approved_with_changes: "green",
  changes_requested: "amber",
  rejected: "red",
  skipped: "gray",
};

export const REVIEW_STATUSES = VOCABULARIES.review_status;
export type ReviewStatus = Enums["review_status"];

const REVIEW_STATUS_LABELS: Record<ReviewStatus, string> = {
  open: "In review",
  approved: "Approved",
  changes_requested: "Changes requested",
  rejected: "Rejected",
  withdrawn: "Withdrawn",
};

const REVIEW_STATUS_VARIANTS: Record<ReviewStatus, Variant> = {
  open: "blue",
  approved: "green",
  changes_requested: "amber",
  rejected: "red",
  withdrawn: "gray",
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

function lookup<K extends string>(labels: Record<K, string>, value: string | null | undefined): string {
  if (value == null || value === "") return "—";
  return (labels as Record<string, string | undefined>)[value] ?? value;
}

function variantOf<K extends string>(variants: Record<K, Variant>, value: string | null | undefined): Variant {
  if (value == null) return "gray";
  return (variants as Record<string, Variant | undefined>)[value] ?? "gray";
}

/** "Medical" for "reviewer_medical". */
export const reviewerRoleLabel = (value: string | null | undefined) => lookup(REVIEWER_ROLE_LABELS, value);
/** "Approved with changes" for "approved_with_changes"; an active step is "In review". */
export const stepStatusLabel = (value: string | null | undefined) => lookup(STEP_STATUS_LABELS, value);
/** Badge colour of a step status. */
export const stepStatusVariant = (value: string | null | undefined) => variantOf(STEP_STATUS_VARIANTS, value);
/** "In review" for an open round. */
export const reviewStatusLabel = (value: string | null | undefined) => lookup(REVIEW_STATUS_LABELS, value);
/** Badge colour of a round's status. */
export const reviewStatusVariant = (value: string | null | undefined) => variantOf(REVIEW_STATUS_VARIANTS, value);
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
