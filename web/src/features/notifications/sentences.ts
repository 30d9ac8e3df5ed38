import type { NotificationItem, NotificationKind } from "@/entities/notifications";
import { formatDate, formatDateTime, formatRelativeTime } from "@/lib/format-time";
import { reviewerRoleLabel } from "@/lib/review-types";

/**
 * What a notice says, as one sentence around the asset's title (which the
 * bell shows emphasised): `before` + title + `after`. Without the asset
 * (deleted, or a notice about none) the sentence is the server's title.
 */
export interface NoticeSentence {
  before: string;
  asset: string | null;
  after: string;
}

/** A short name for what a notice is about, shown beside its time. */
export const NOTICE_KIND_LABELS: Record<NotificationKind, string> = {
  step_activated: "Review needed",
  step_assigned: "Assigned to you",
  decision: "Decision",
  round_closed: "Round closed",
  due_soon: "Due soon",
  overdue: "Overdue",
  expiry_soon: "Expiring soon",
  expired: "Expired",
  signing_locked: "Signing locked",
  asset_withdrawn: "Approval withdrawn",
  mentioned: "Mentioned you",
};

/** "Decision" for "decision"; an unknown kind (a newer server) as given. */
export function noticeKindLabel(kind: string): string {
  return (NOTICE_KIND_LABELS as Record<string, string | undefined>)[kind] ?? kind;
}

function area(n: NotificationItem): string {
  return n.review_steps ? `${reviewerRoleLabel(n.review_steps.role).toLowerCase()} review` : "review";
}

function round(n: NotificationItem): string {
  return n.reviews ? ` (round ${n.reviews.round})` : "";
}

/**
 * The notice's sentence. `names` gives the names of members by id (who
 * decided); `now` is when it is read (for "due tomorrow").
 */
export function noticeSentence(n: NotificationItem, names: ReadonlyMap<string, string>, now: number = Date.now()): NoticeSentence {
  const asset = n.assets?.title ?? null;
  const fallback: NoticeSentence = { before: n.title, asset: null, after: "" };
  if (asset === null) return fallback;
  const at = (before: string, after: string): NoticeSentence => ({ before, asset, after });

  switch (n.kind) {
    case "step_activated":
      return at("", ` awaits your ${area(n)}${round(n)}.`);
    case "step_assigned":
      return at(`You were assigned the ${area(n)} of `, `${round(n)}.`);
    case "decision": {
      const step = n.review_steps;
      if (!step) return fallback;
      const who = (step.decided_by ? names.get(step.decided_by) : undefined) ?? `The ${reviewerRoleLabel(step.role).toLowerCase()} reviewer`;
      switch (step.status) {
        case "approved":
          return at(`${who} approved `, `${round(n)}.`);
        case "approved_with_changes":
          return at(`${who} approved `, ` with changes${round(n)}.`);
        case "changes_requested":
          return at(`${who} requested changes to `, `${round(n)}.`);
        case "rejected":
          return at(`${who} rejected `, `${round(n)}.`);
        default:
          return fallback;
      }
    }
    case "round_closed": {
      const r = n.reviews;
      if (!r) return fallback;
      switch (r.status) {
        case "approved":
          return at("", ` was approved in round ${r.round}.`);
        case "changes_requested":
          return at(`Round ${r.round} of `, " closed with changes requested.");
        case "rejected":
          return at("", ` was rejected in round ${r.round}.`);
        default:
          return at(`Round ${r.round} of `, " closed.");
      }
    }
    case "due_soon": {
      const due = n.review_steps?.due_at;
      return at(`Your ${area(n)} of `, due ? ` is due ${formatRelativeTime(due, now)}.` : " is due soon.");
    }
    case "overdue":
      return at(`The ${area(n)} of `, " is overdue.");
    case "expiry_soon": {
      const expires = n.assets?.expires_at;
      return at("The approval of ", expires ? ` expires on ${formatDate(`${expires.slice(0, 10)}T12:00:00`)}.` : " expires within 30 days.");
    }
    case "expired":
      return at("The approval of ", " has expired.");
    case "asset_withdrawn":
      return at("", " was withdrawn.");
    case "mentioned":
      // The server's title is "<name> mentioned you on <asset title>".
      return n.title.endsWith(` on ${asset}`) ? at(n.title.slice(0, n.title.length - asset.length), ".") : at("You were mentioned in a comment on ", ".");
    default:
      // signing_locked and kinds a newer server adds: the server's own words.
      return fallback;
  }
}

const DECIDED: Record<string, string> = {
  approved: "approved",
  approved_with_changes: "approved with changes",
  changes_requested: "changes requested",
  rejected: "rejected",
};

/**
 * The line under the sentence: for a step, when it is due (in the reader's
 * time; past that, that it is overdue) — or, once it no longer waits for
 * anyone, what became of it, so an
 * old "awaits your review" is not taken for work still to do; otherwise a
 * reviewer's comment, a withdrawal's reason, the server's advice on an
 * expiry. "" when there is nothing to add.
 */
export function noticeDetail(n: NotificationItem, now: number = Date.now()): string {
  switch (n.kind) {
    case "step_activated":
    case "step_assigned":
    case "due_soon":
    case "overdue": {
      const step = n.review_steps;
      if (n.reviews?.status === "withdrawn") return "The round was withdrawn.";
      const decided = step ? DECIDED[step.status] : undefined;
      if (decided) return `Decided since: ${decided}.`;
      if (step?.status === "skipped") return "The round closed without this step.";
      if (step?.due_at) {
        const late = step.status === "active" && Date.parse(step.due_at) < now;
        // An overdue notice says so already.
        const lead = !late ? "Due" : n.kind === "overdue" ? "It was due" : "Overdue: it was due";
        return `${lead} ${formatDateTime(step.due_at)}`;
      }
      return n.kind === "step_activated" || n.kind === "step_assigned" ? n.body.trim() : "";
    }
    default:
      return n.body.trim();
  }
}
