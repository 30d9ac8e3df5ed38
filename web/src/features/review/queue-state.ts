import { NO_QUEUE_FILTERS, QUEUE_TABS, type QueueFilters, type QueueTab } from "@/entities/review-queue";
import { ASSET_TYPES } from "@/lib/content-types";
import { isReviewerRole, REVIEW_STATUSES, REVIEWER_ROLES, reviewStatusLabel } from "@/lib/review-types";

// What the Review Center shows is in its URL (?tab=…&product=…&type=…&role=…&status=…),
// so a view can be shared, bookmarked and survives a reload. Values the
// screen cannot send (an unknown tab, a status another tab uses) are
// dropped here rather than refused by the server.

export const FILTER_KEYS = ["product", "type", "role", "status"] as const satisfies readonly (keyof QueueFilters)[];

export const TAB_LABELS: Record<QueueTab, string> = {
  mine: "My queue",
  open: "All open rounds",
  submitted: "My submissions",
};

export interface Choice {
  value: string;
  label: string;
}

const OVERDUE: Choice = { value: "overdue", label: "Overdue" };

/** The status filter's choices on each tab (review_queue's `status`). */
export function statusChoices(tab: QueueTab): Choice[] {
  if (tab === "mine") {
    return [OVERDUE, { value: "claimed", label: "Claimed by me" }, { value: "unclaimed", label: "Unclaimed" }];
  }
  if (tab === "open") return [OVERDUE];
  return [OVERDUE, ...REVIEW_STATUSES.map((s) => ({ value: s, label: reviewStatusLabel(s) }))];
}

/** Whether the status filter `status` applies to `tab`. */
export function statusFits(tab: QueueTab, status: string): boolean {
  return status === "" || statusChoices(tab).some((c) => c.value === status);
}

/**
 * The tab a member lands on without one in the URL: reviewers their queue,
 * marketers what they submitted; owners, admins and viewers, who oversee
 * rather than decide, every open round.
 */
export function defaultTab(role: string | null | undefined): QueueTab {
  if (isReviewerRole(role)) return "mine";
  if (role === "marketer") return "submitted";
  return "open";
}

export interface QueueView {
  tab: QueueTab;
  filters: QueueFilters;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The tab and filters the URL asks for, each checked; the role's default tab when none is given. */
export function readView(params: URLSearchParams, role: string | null | undefined): QueueView {
  const asked = params.get("tab") ?? "";
  const tab = (QUEUE_TABS as readonly string[]).includes(asked) ? (asked as QueueTab) : defaultTab(role);
  const product = params.get("product") ?? "";
  const type = params.get("type") ?? "";
  const reviewer = params.get("role") ?? "";
  const status = params.get("status") ?? "";
  return {
    tab,
    filters: {
      ...NO_QUEUE_FILTERS,
      product: UUID.test(product) ? product.toLowerCase() : "",
      type: (ASSET_TYPES as readonly string[]).includes(type) ? type : "",
      role: (REVIEWER_ROLES as readonly string[]).includes(reviewer) ? reviewer : "",
      status: statusFits(tab, status) ? status : "",
    },
  };
}

/**
 * The URL after switching to `tab`: the filters are kept, except a status
 * the new tab does not know.
 */
export function paramsForTab(params: URLSearchParams, tab: QueueTab): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set("tab", tab);
  if (!statusFits(tab, next.get("status") ?? "")) next.delete("status");
  return next;
}

/** Whether `filters` narrow the list. */
export function isFiltered(filters: QueueFilters): boolean {
  return FILTER_KEYS.some((k) => filters[k] !== "");
}

/**
 * Whether the counts of the other tabs mean anything with these filters: a
 * status only one tab knows (claimed, a round's outcome) makes the others'
 * counts zero, which would read as "nothing there".
 */
export function countsComparable(filters: QueueFilters): boolean {
  return filters.status === "" || filters.status === "overdue";
}
