import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { type Asset, invalidateAssets } from "@/entities/assets";
import { invalidateVersions } from "@/entities/versions";
import { unwrap } from "@/lib/data";
import type { FunctionArgs, Row } from "@/lib/db-types";
import { isUuid } from "@/lib/early";
import type { Decision } from "@/lib/review-types";
import { getSupabase } from "@/lib/supabase";

/**
 * The review workflow's server state for an asset's page: its rounds
 * (`reviews`) with their steps (`review_steps`) and each step's signature
 * manifestation (`signatures`), the change requests raised on it
 * (`change_requests`), the ready-for-review gate (`review_gate`) and the
 * organisation's workflow templates to choose from; and the workflow's
 * functions as typed fetchers, each with the caches it changes
 * ({@link invalidateAfterReview}). The server is the authority: every
 * change is one of its functions.
 */

/** A round of review of one version (table `reviews`). */
export type Review = Row<"reviews">;
/** A step of a round (table `review_steps`). */
export type ReviewStep = Row<"review_steps">;
/** An electronic signature (table `signatures`; never changed). */
export type Signature = Row<"signatures">;
/** A change a step asked for (table `change_requests`): the next round's checklist. */
export type ChangeRequest = Row<"change_requests">;
/** A workflow template (table `workflow_templates`). */
export type WorkflowTemplate = Row<"workflow_templates">;

/**
 * What a screen shows of a signature (21 CFR 11.50: the signer's printed
 * name, the UTC time, the meaning) and what it binds (the version and the
 * SHA-256 of its rendition).
 */
export type SignatureManifestation = Pick<Signature, "id" | "signer_name" | "signed_at" | "meaning" | "decision" | "rendition_sha256" | "version_id">;

/** A step with the manifestation of its signature (null until decided). */
export type RoundStep = ReviewStep & { signature: SignatureManifestation | null };

/** A round with its steps in the template's order. */
export type Round = Review & { steps: RoundStep[] };

/** review_gate's answer: whether the asset may be submitted now, and every condition it does not meet. */
export interface ReviewGate {
  ready: boolean;
  unmet: { code: string; message: string }[];
}

/** verify_signature's answer. */
export interface SignatureVerification {
  valid: boolean;
  reason: string;
  seal_intact: boolean;
  bound_to_step: boolean;
  rendition_matches: boolean;
  signature_id: string;
  signer_name: string;
  signed_at: string;
  meaning: string;
}

/** A template as the submit dialog offers it. */
export type TemplateChoice = Pick<WorkflowTemplate, "id" | "name" | "description" | "is_default" | "steps">;

/** decide_step's answer: the round and step as they now stand, the signature and the change requests raised. */
export interface DecisionResult {
  review: Review;
  step: ReviewStep;
  signature: Signature;
  change_requests: ChangeRequest[];
}

export const reviewKeys = {
  all: ["reviews"] as const,
  /** Everything the asset's page shows of its review: a prefix of the three below. */
  asset: (assetId: string) => [...reviewKeys.all, "asset", assetId] as const,
  rounds: (assetId: string) => [...reviewKeys.asset(assetId), "rounds"] as const,
  changes: (assetId: string) => [...reviewKeys.asset(assetId), "changes"] as const,
  gate: (assetId: string) => [...reviewKeys.asset(assetId), "gate"] as const,
};

/**
 * The templates offered at submission sit under the workflow templates'
 * root, which Settings refreshes when an administrator edits one.
 */
export const templateChoicesKey = ["workflow-templates", "choices"] as const;

/**
 * The Review Center's queue (entities/review-queue) keeps its queries
 * under this root: a claim, a decision or a submission here changes it.
 */
export const reviewQueueRoot = ["review-queue"] as const;

const SIGNATURE_COLUMNS = "id, signer_name, signed_at, meaning, decision, rendition_sha256, version_id";

/** A row of `review_steps` with its signature embedded. */
export type StepRow = ReviewStep & { signatures: SignatureManifestation | null };

/**
 * The rounds of an asset with their steps (each with its signature's
 * manifestation) in the template's order, newest round first. The data
 * API embeds one level deep, so rounds and steps are read apart.
 */
export function toRounds(reviews: Review[], steps: StepRow[]): Round[] {
  return reviews
    .map((review) => ({
      ...review,
      steps: steps
        .filter((s) => s.review_id === review.id)
        .map(({ signatures, ...step }) => ({ ...step, signature: signatures }))
        .sort((a, b) => a.position - b.position),
    }))
    .sort((a, b) => b.round - a.round);
}

/** Every round of an asset with its steps and their signatures' manifestation, newest round first. */
export function assetRoundsQuery(assetId: string) {
  return queryOptions({
    queryKey: reviewKeys.rounds(assetId),
    enabled: isUuid(assetId),
    // Reviewers decide in parallel: coming back to the tab shows what the others did.
    refetchOnWindowFocus: true,
    queryFn: async (): Promise<Round[]> => {
      const sb = await getSupabase();
      const [reviews, steps] = await Promise.all([
        sb.from("reviews").select("*").eq("asset_id", assetId).order("round", { ascending: false }),
        sb.from("review_steps").select(`*, signatures(${SIGNATURE_COLUMNS})`).eq("asset_id", assetId).order("position"),
      ]);
      const stepRows: unknown = unwrap(steps);
      return toRounds(unwrap(reviews), stepRows as StepRow[]);
    },
  });
}

/** The change requests raised on an asset in any round, oldest first (those of one decision by their text). */
export function assetChangeRequestsQuery(assetId: string) {
  return queryOptions({
    queryKey: reviewKeys.changes(assetId),
    enabled: isUuid(assetId),
    refetchOnWindowFocus: true,
    queryFn: async (): Promise<ChangeRequest[]> => {
      const sb = await getSupabase();
      return unwrap(await sb.from("change_requests").select("*").eq("asset_id", assetId).order("created_at", { ascending: true }).order("text"));
    },
  });
}

/**
 * The ready-for-review gate of an asset: every unmet condition, listed
 * before the author tries. Asked afresh whenever it is shown, since a new
 * version or a detail changes the answer.
 */
export function reviewGateQuery(assetId: string, enabled = true) {
  return queryOptions({
    queryKey: reviewKeys.gate(assetId),
    enabled: enabled && isUuid(assetId),
    staleTime: 0,
    queryFn: async (): Promise<ReviewGate> => {
      const sb = await getSupabase();
      return unwrap(await sb.rpc("review_gate", { asset_id: assetId })) as unknown as ReviewGate;
    },
  });
}

/** The organisation's workflow templates to submit with, by name (none: the built-in workflow applies). */
export function templateChoicesQuery(enabled = true) {
  return queryOptions({
    queryKey: templateChoicesKey,
    enabled,
    queryFn: async (): Promise<TemplateChoice[]> => {
      const sb = await getSupabase();
      return unwrap(await sb.from("workflow_templates").select("id, name, description, is_default, steps").order("name"));
    },
  });
}

// ---- the workflow's functions

/** Opens a round on the asset's current version (submit_for_review); 422 names every unmet condition. */
export async function submitForReview(assetId: string, templateId?: string): Promise<Review & { steps: ReviewStep[] }> {
  const sb = await getSupabase();
  const args = templateId ? { asset_id: assetId, template_id: templateId } : { asset_id: assetId };
  return unwrap(await sb.rpc("submit_for_review", args)) as unknown as Review & { steps: ReviewStep[] };
}

/** Withdraws an open round before any decision (withdraw_review); the asset goes back to draft. */
export async function withdrawReview(reviewId: string): Promise<Review & { steps: ReviewStep[] }> {
  const sb = await getSupabase();
  return unwrap(await sb.rpc("withdraw_review", { review_id: reviewId })) as unknown as Review & { steps: ReviewStep[] };
}

/** Takes an active step to decide it oneself (claim_step). */
export async function claimStep(stepId: string): Promise<ReviewStep> {
  const sb = await getSupabase();
  return unwrap(await sb.rpc("claim_step", { step_id: stepId })) as unknown as ReviewStep;
}

/** Assigns an active step to a reviewer of its role (assign_step; owners and admins). */
export async function assignStep(stepId: string, userId: string): Promise<ReviewStep> {
  const sb = await getSupabase();
  return unwrap(await sb.rpc("assign_step", { step_id: stepId, user_id: userId })) as unknown as ReviewStep;
}

/** A decision to sign. */
export interface DecisionInput {
  stepId: string;
  decision: Decision;
  comment: string;
  /** The signer's password, checked by the server at this moment. */
  password: string;
  /** The authenticator code, when the signer has a verified factor. */
  totpCode?: string | undefined;
  /** The changes asked for (changes_requested only), each its text or its text and the annotation it points at. */
  changeRequests?: (string | { text: string; annotation_id: string })[] | undefined;
}

/** Decides a step, signing it (decide_step): 403 28P01 for a wrong password or code, 429 PT429 while signing is locked. */
export async function decideStep(input: DecisionInput): Promise<DecisionResult> {
  const sb = await getSupabase();
  const args: {
    step_id: string;
    decision: string;
    comment: string;
    password: string;
    totp_code?: string;
    change_requests?: (string | { text: string; annotation_id: string })[];
  } = {
    step_id: input.stepId,
    decision: input.decision,
    comment: input.comment,
    password: input.password,
  };
  if (input.totpCode) args.totp_code = input.totpCode;
  if (input.decision === "changes_requested" && input.changeRequests) args.change_requests = input.changeRequests;
  // The registry types change_requests as a list of texts; decide_step also
  // takes {text, annotation_id} items (a change request pointing at a comment).
  return unwrap(await sb.rpc("decide_step", args as FunctionArgs<"decide_step">)) as unknown as DecisionResult;
}

/** The author marks a change request done, with an optional note (mark_change_done). */
export async function markChangeDone(changeRequestId: string, note: string): Promise<ChangeRequest> {
  const sb = await getSupabase();
  return unwrap(await sb.rpc("mark_change_done", { change_request_id: changeRequestId, note })) as unknown as ChangeRequest;
}

/** A reviewer of the raising role confirms a done change on the new version (confirm_change). */
export async function confirmChange(changeRequestId: string): Promise<ChangeRequest> {
  const sb = await getSupabase();
  return unwrap(await sb.rpc("confirm_change", { change_request_id: changeRequestId })) as unknown as ChangeRequest;
}

/** Whether a signature is intact, bound to its step, and its version's bytes unchanged (verify_signature; reads only). */
export async function verifySignature(signatureId: string): Promise<SignatureVerification> {
  const sb = await getSupabase();
  return unwrap(await sb.rpc("verify_signature", { signature_id: signatureId })) as unknown as SignatureVerification;
}

/** Takes an approved asset out of use, with a reason (withdraw_asset; owners and admins). */
export async function withdrawAsset(assetId: string, reason: string): Promise<Asset> {
  const sb = await getSupabase();
  return unwrap(await sb.rpc("withdraw_asset", { asset_id: assetId, reason })) as unknown as Asset;
}

/** Sets an approved asset's expiry date, YYYY-MM-DD (set_asset_expiry; owners and admins). */
export async function setAssetExpiry(assetId: string, expiresAt: string): Promise<Asset> {
  const sb = await getSupabase();
  return unwrap(await sb.rpc("set_asset_expiry", { asset_id: assetId, expires_at: expiresAt })) as unknown as Asset;
}

// ---- what each function changes

/** The workflow's changes, by function. */
export type ReviewChange =
  | "submit"
  | "withdraw_review"
  | "claim"
  | "assign"
  | "decide"
  | "mark_done"
  | "confirm"
  | "withdraw_asset"
  | "set_expiry";

/** The caches a change refreshes. */
export interface ReviewEffects {
  /** The asset (its status, expiry, approved version) wherever it is shown. */
  asset: boolean;
  /** The asset's versions (a submitted version becomes immutable). */
  versions: boolean;
  /** The asset's rounds and steps. */
  rounds: boolean;
  /** The asset's change requests. */
  changes: boolean;
  /** The ready-for-review gate (it reads the status, the version and the change requests). */
  gate: boolean;
  /** The Review Center's queue. */
  queue: boolean;
}

const NONE: ReviewEffects = { asset: false, versions: false, rounds: false, changes: false, gate: false, queue: false };

/**
 * What `change` changes. A decision changes the asset and its gate only
 * when it closed the round, and the change requests only when it raised
 * some (pass decide_step's answer).
 */
export function reviewEffects(change: ReviewChange, decided?: Pick<DecisionResult, "review" | "change_requests">): ReviewEffects {
  switch (change) {
    case "submit":
      return { ...NONE, asset: true, versions: true, rounds: true, gate: true, queue: true };
    case "withdraw_review":
      return { ...NONE, asset: true, rounds: true, gate: true, queue: true };
    case "claim":
    case "assign":
      return { ...NONE, rounds: true, queue: true };
    case "decide": {
      const closed = decided ? decided.review.status !== "open" : true;
      const raised = decided ? decided.change_requests.length > 0 : true;
      return { ...NONE, rounds: true, queue: true, asset: closed, gate: closed, changes: raised };
    }
    case "mark_done":
      return { ...NONE, changes: true, gate: true };
    case "confirm":
      return { ...NONE, changes: true };
    case "withdraw_asset":
      return { ...NONE, asset: true, gate: true };
    case "set_expiry":
      return { ...NONE, asset: true };
  }
}

/** Refreshes what `change` changed on the asset `assetId` (see {@link reviewEffects}). */
export async function invalidateAfterReview(
  queryClient: QueryClient,
  change: ReviewChange,
  assetId: string,
  decided?: Pick<DecisionResult, "review" | "change_requests">,
): Promise<void> {
  const e = reviewEffects(change, decided);
  const work: Promise<void>[] = [];
  // invalidateVersions refreshes the asset too.
  if (e.versions) work.push(invalidateVersions(queryClient, assetId));
  else if (e.asset) work.push(invalidateAssets(queryClient));
  if (e.rounds) work.push(queryClient.invalidateQueries({ queryKey: reviewKeys.rounds(assetId) }));
  if (e.changes) work.push(queryClient.invalidateQueries({ queryKey: reviewKeys.changes(assetId) }));
  if (e.gate) work.push(queryClient.invalidateQueries({ queryKey: reviewKeys.gate(assetId) }));
  if (e.queue) work.push(queryClient.invalidateQueries({ queryKey: reviewQueueRoot }));
  await Promise.all(work);
}

/**
 * Refreshes everything the asset's page shows of its review (rounds,
 * change requests, gate): after a new version or new details, which the
 * gate reads.
 */
export async function invalidateAssetReview(queryClient: QueryClient, assetId: string): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: reviewKeys.asset(assetId) });
}
