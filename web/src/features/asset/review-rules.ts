import type { Asset } from "@/entities/assets";
import type { ChangeRequest, Round, RoundStep } from "@/entities/reviews";
import { isRecord } from "@/lib/api";
import { stringRecord } from "@/lib/data";
import { isAdminRole } from "@/lib/roles";

/**
 * What the asset page offers whom in the review workflow. These mirror the
 * server's rules (service/review*.go) so that nobody is shown a button the
 * server would refuse; the server stays the authority and its refusals are
 * shown as it words them.
 */

/** Who is looking. */
export interface Viewer {
  userId: string | null;
  role: string | null | undefined;
  /** The read-only demo: everything shown, no writes offered. */
  readOnly: boolean;
}

/**
 * Whether the viewer submits the asset and answers its review (submit,
 * withdraw a round, mark changes done): owners and admins for every asset,
 * marketers for the assets they own or made (product design, section 2).
 */
export function answersForAsset(viewer: Viewer, asset: Pick<Asset, "created_by" | "owner_id">): boolean {
  if (viewer.readOnly || !viewer.userId) return false;
  if (isAdminRole(viewer.role)) return true;
  return viewer.role === "marketer" && (asset.created_by === viewer.userId || asset.owner_id === viewer.userId);
}

/**
 * Whether the viewer may export a round's review record and an approved
 * asset's Form 2253 data: every member but viewers (product design,
 * section 2), the read-only demo included — an export writes nothing.
 */
export function exportsRecords(viewer: Pick<Viewer, "userId" | "role">): boolean {
  return viewer.userId !== null && typeof viewer.role === "string" && viewer.role !== "" && viewer.role !== "viewer";
}

/** Whether an asset in `status` has Form 2253 data to export: it is approved now. */
export function hasForm2253(status: string): boolean {
  return status === "approved";
}

/** Whether the asset may go (back) into review from its status. */
export function submittable(status: string): boolean {
  return status === "draft" || status === "changes_requested";
}

/** Why a step offers the viewer no decision although they review for its role. */
export type DecideBlock = "author" | "claimed";

/** What the viewer may do on one step. */
export interface StepActions {
  claim: boolean;
  /** Assign (or reassign) the step to a reviewer of its role: owners and admins. */
  assign: boolean;
  decide: boolean;
  /** Set when the viewer reviews for the step's role but may not decide it. */
  blocked: DecideBlock | null;
}

const NO_ACTIONS: StepActions = { claim: false, assign: false, decide: false, blocked: null };

/**
 * The actions on `step` of `round` for `viewer`, given the author of the
 * version under review: only an active step of an open round is claimed,
 * assigned or decided; only a reviewer of its role claims or decides it,
 * never the version's author, and not when someone else claimed it.
 */
export function stepActions(step: RoundStep, round: Pick<Round, "status">, viewer: Viewer, authorId: string | null): StepActions {
  if (viewer.readOnly || !viewer.userId || round.status !== "open" || step.status !== "active") return NO_ACTIONS;
  const assign = isAdminRole(viewer.role);
  if (viewer.role !== step.role) return { ...NO_ACTIONS, assign };
  if (authorId === viewer.userId) return { ...NO_ACTIONS, assign, blocked: "author" };
  const claimedByOther = step.claimed_by !== null && step.claimed_by !== viewer.userId;
  if (claimedByOther) return { ...NO_ACTIONS, assign, blocked: "claimed" };
  return { claim: step.claimed_by === null, assign, decide: true, blocked: null };
}

/** Whether an active step is past its due time (marked by the overdue sweep, or due before `now`). */
export function isOverdue(step: Pick<RoundStep, "status" | "due_at" | "overdue_at">, now: number = Date.now()): boolean {
  if (step.status !== "active") return false;
  if (step.overdue_at) return true;
  return step.due_at !== null && Date.parse(step.due_at) < now;
}

/** Whether any step of the round has been decided (a round is withdrawn only before that). */
export function anyDecided(round: Round): boolean {
  return round.steps.some((s) => s.decided_at !== null || s.signature_id !== null);
}

/**
 * The change requests of `role` that keep its step of `round` from
 * approving: raised in an earlier round and not confirmed yet (the
 * server's rule in decide_step).
 */
export function blockingChanges(changes: ChangeRequest[], round: Pick<Round, "id">, role: string): ChangeRequest[] {
  return changes.filter((c) => c.role === role && c.review_id !== round.id && c.status !== "confirmed");
}

/**
 * The checklist the page shows now: during an open round, the requests
 * raised before it that it has still to confirm or confirmed itself;
 * between rounds, every request not confirmed yet (the author's to-do).
 */
export function checklist(changes: ChangeRequest[], open: Round | undefined): ChangeRequest[] {
  if (open) return changes.filter((c) => c.review_id !== open.id && (c.status !== "confirmed" || c.confirmed_review_id === open.id));
  return changes.filter((c) => c.status !== "confirmed");
}

/**
 * Whether the viewer may confirm `change` now: a reviewer of the role that
 * raised it, not the author of the version under review, while that
 * role's step of the open round is active.
 */
export function canConfirm(change: ChangeRequest, open: Round | undefined, viewer: Viewer, authorId: string | null): boolean {
  if (viewer.readOnly || !open || change.status !== "done" || viewer.role !== change.role || viewer.userId === authorId) return false;
  return open.steps.some((s) => s.role === change.role && s.status === "active");
}

/** Whether the viewer may mark `change` done now: who answers for the asset, between rounds. */
export function canMarkDone(change: ChangeRequest, asset: Pick<Asset, "status" | "created_by" | "owner_id">, viewer: Viewer): boolean {
  return change.status === "open" && asset.status !== "in_review" && asset.status !== "archived" && answersForAsset(viewer, asset);
}

/** One unmet condition of the ready-for-review gate. */
export interface GateProblem {
  code: string;
  message: string;
}

/**
 * The unmet conditions of a 422 refusal of submit_for_review: its
 * `details` (one "code: message" per line, in the gate's order), else its
 * `fields` (condition → message); empty for any other error.
 */
export function gateRefusal(error: unknown): GateProblem[] {
  if (!isRecord(error) && !(error instanceof Error)) return [];
  const record = error as unknown as Record<string, unknown>;
  if (record.code !== "PT422") return [];
  // details keeps the gate's order; fields is keyed by condition.
  const lines =
    typeof record.details === "string"
      ? record.details
          .split("\n")
          .map((line) => /^([a-z_]+):\s*(.+)$/.exec(line.trim()))
          .filter((m): m is RegExpExecArray => m !== null)
          .map((m) => ({ code: m[1] ?? "", message: m[2] ?? "" }))
      : [];
  if (lines.length > 0) return lines;
  const fields = stringRecord(record.fields);
  return fields ? Object.entries(fields).map(([code, message]) => ({ code, message })) : [];
}

/**
 * The comment thread a change request points at (its annotation on the
 * version it was raised on, and the thread, which continues on later
 * versions), or null.
 */
export function changeThread(change: Pick<ChangeRequest, "thread_id" | "annotation_id">): { threadId: string; annotationId: string | null } | null {
  if (!change.thread_id) return null;
  return { threadId: change.thread_id, annotationId: change.annotation_id };
}
