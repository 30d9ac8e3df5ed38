import { infiniteQueryOptions, queryOptions, type QueryClient } from "@tanstack/react-query";
import { unwrap } from "@/lib/data";
import type { Row } from "@/lib/db-types";
import { getSupabase } from "@/lib/supabase";

/**
 * The Review Center's queue (rpc review_queue): keyset pages of review
 * steps ("mine") or rounds ("open", "submitted"), overdue first, then by
 * due time, each with its asset; the tabs' counts come with the first page.
 * The Command Center reads the first few items of a tab through the same
 * fetcher. Every workflow change (submit, claim, decide, withdraw) changes
 * the queue: {@link invalidateReviewQueue} refreshes all of it, and an
 * asset's invalidation (entities/assets) calls it.
 */

/** The queue's tabs: my steps, the organisation's open rounds, the rounds I submitted. */
export const QUEUE_TABS = ["mine", "open", "submitted"] as const;
export type QueueTab = (typeof QUEUE_TABS)[number];

/** What review_queue filters by; "" for no filter. `product` is a product id, `type` the asset's type, `role` the step's. */
export interface QueueFilters {
  product: string;
  type: string;
  role: string;
  /** "overdue"; "claimed" or "unclaimed" on "mine"; a round's status on the other tabs. */
  status: string;
}

export const NO_QUEUE_FILTERS: QueueFilters = { product: "", type: "", role: "", status: "" };

/** Items per page unless asked otherwise (the server's default too). */
export const QUEUE_PAGE_SIZE = 25;

/** The asset of a queue item, as review_queue embeds it. */
export type QueueAsset = Pick<Row<"assets">, "id" | "title" | "job_code" | "type" | "product_id" | "status" | "owner_id" | "current_version_number">;

/** A round, as review_queue returns it (embedded in a step, or as an item). */
export type QueueReview = Pick<
  Row<"reviews">,
  "id" | "round" | "status" | "version_id" | "template_name" | "submitted_by" | "submitted_at" | "due_at" | "closed_at"
>;

/** A step, as review_queue returns it (an item of "mine", or a round's steps). */
export type QueueStep = Pick<
  Row<"review_steps">,
  "id" | "review_id" | "asset_id" | "role" | "required" | "step_order" | "status" | "activated_at" | "due_at" | "claimed_by" | "claimed_at" | "decided_by" | "decided_at"
>;

/** An item of "mine": an active step with its asset and round. */
export interface StepItem extends QueueStep {
  kind: "step";
  overdue: boolean;
  asset: QueueAsset;
  review: QueueReview;
  /** The number of the version the round reviews. */
  version_number: number | null;
}

/** An item of "open" or "submitted": a round with its asset and steps. */
export interface RoundItem extends QueueReview {
  kind: "round";
  overdue: boolean;
  asset: QueueAsset;
  steps: QueueStep[];
  /** The number of the version the round reviews. */
  version_number: number | null;
}

export type QueueItem = StepItem | RoundItem;

/** How many items each tab holds, with the same filters. */
export type QueueCounts = Record<QueueTab, number>;

/** One page of a tab. */
export interface QueuePage {
  tab: QueueTab;
  items: QueueItem[];
  /** The cursor of the next page; null on the last. */
  next: string | null;
  /** The tabs' counts: on the first page only (null on the next ones). */
  counts: QueueCounts | null;
}

export const reviewQueueKeys = {
  all: ["review-queue"] as const,
  lists: () => [...reviewQueueKeys.all, "list"] as const,
  list: (tab: QueueTab, filters: QueueFilters, size: number) => [...reviewQueueKeys.lists(), tab, filters, size] as const,
  firsts: () => [...reviewQueueKeys.all, "first"] as const,
  first: (tab: QueueTab, filters: QueueFilters, size: number) => [...reviewQueueKeys.firsts(), tab, filters, size] as const,
};

/** review_queue's arguments for a page: only the filters that are set. */
export function queueArgs(tab: QueueTab, filters: QueueFilters, after: string | null, size: number): Record<string, string | number> {
  const args: Record<string, string | number> = { tab, limit: size };
  if (filters.product) args.product_id = filters.product;
  if (filters.type) args.type = filters.type;
  if (filters.role) args.role = filters.role;
  if (filters.status) args.status = filters.status;
  if (after) args.after = after;
  return args;
}

interface RawPage {
  tab: QueueTab;
  items: Record<string, unknown>[];
  next: string | null;
  counts: QueueCounts | null;
}

/**
 * The page's items typed by tab. An open round reviews its asset's current
 * version (an asset in review takes no new version); a closed round may
 * review an older one, whose number `numbers` gives (by version id).
 */
export function toItems(tab: QueueTab, raw: readonly Record<string, unknown>[], numbers: ReadonlyMap<string, number>): QueueItem[] {
  return raw.map((r) => {
    if (tab === "mine") {
      const step = r as unknown as Omit<StepItem, "kind" | "version_number">;
      return { ...step, kind: "step", version_number: step.asset.current_version_number || null };
    }
    const round = r as unknown as Omit<RoundItem, "kind" | "version_number">;
    const version = round.status === "open" ? round.asset.current_version_number || null : (numbers.get(round.version_id) ?? null);
    return { ...round, kind: "round", version_number: version };
  });
}

/** The version ids of closed rounds in a page, whose numbers toItems needs. */
export function closedRoundVersions(tab: QueueTab, raw: readonly Record<string, unknown>[]): string[] {
  if (tab === "mine") return [];
  const ids = new Set<string>();
  for (const r of raw) {
    if (r.status !== "open" && typeof r.version_id === "string") ids.add(r.version_id);
  }
  return [...ids];
}

/** One page of a tab after `after` (null: the first, with the counts). */
export async function fetchQueuePage(tab: QueueTab, filters: QueueFilters, after: string | null, size: number = QUEUE_PAGE_SIZE, signal?: AbortSignal): Promise<QueuePage> {
  const sb = await getSupabase();
  let call = sb.rpc("review_queue", queueArgs(tab, filters, after, size));
  if (signal) call = call.abortSignal(signal);
  const page = unwrap(await call) as unknown as RawPage;
  const numbers = new Map<string, number>();
  const ids = closedRoundVersions(tab, page.items);
  if (ids.length > 0) {
    let versions = sb.from("asset_versions").select("id, number").in("id", ids);
    if (signal) versions = versions.abortSignal(signal);
    for (const v of unwrap(await versions)) numbers.set(v.id, v.number);
  }
  return { tab: page.tab, items: toItems(tab, page.items, numbers), next: page.next, counts: page.counts };
}

/** A tab of the queue, read in keyset pages (the Review Center). */
export function reviewQueueQuery(tab: QueueTab, filters: QueueFilters, size: number = QUEUE_PAGE_SIZE) {
  return infiniteQueryOptions({
    queryKey: reviewQueueKeys.list(tab, filters, size),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => fetchQueuePage(tab, filters, pageParam, size, signal),
    getNextPageParam: (page) => page.next ?? undefined,
    staleTime: 15_000,
  });
}

/** The first `size` items of a tab and the counts (the Command Center's cards). */
export function reviewQueueFirstQuery(tab: QueueTab, size: number, filters: QueueFilters = NO_QUEUE_FILTERS) {
  return queryOptions({
    queryKey: reviewQueueKeys.first(tab, filters, size),
    queryFn: ({ signal }) => fetchQueuePage(tab, filters, null, size, signal),
    staleTime: 15_000,
  });
}

/** Refreshes every tab and card of the queue after a workflow change. */
export function invalidateReviewQueue(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: reviewQueueKeys.all });
}
