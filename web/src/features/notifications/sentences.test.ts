import { describe, expect, it } from "vitest";
import type { NotificationItem } from "@/entities/notifications";
import { NOTICE_KIND_LABELS, noticeDetail, noticeKindLabel, noticeSentence, type NoticeSentence } from "./sentences";

const NOW = Date.parse("2026-11-27T12:00:00Z");
const MEI = "5b0c2a6e-1d3f-4c5a-8e7f-0a1b2c3d4e5f";
const names = new Map([[MEI, "Dr. Mei Medical"]]);

function notice(over: Partial<NotificationItem>): NotificationItem {
  return {
    id: "n1",
    kind: "step_activated",
    title: "Zephyra email: medical reviewer step of round 2 awaits review",
    body: "",
    asset_id: "a1",
    review_id: "r1",
    step_id: "s1",
    read_at: null,
    created_at: "2026-11-27T11:00:00Z",
    assets: { title: "Zephyra email", expires_at: "2026-12-20" },
    reviews: { round: 2, status: "open" },
    review_steps: { role: "reviewer_medical", status: "active", due_at: "2026-11-28T11:00:00Z", decided_by: null },
    ...over,
  };
}

/** The sentence as read: the asset's title in its place. */
const read = (s: NoticeSentence) => `${s.before}${s.asset ?? ""}${s.after}`;

describe("noticeSentence", () => {
  it("names the asset and the reviewer's area for a step that became active or was assigned", () => {
    expect(read(noticeSentence(notice({}), names, NOW))).toBe("Zephyra email awaits your medical review (round 2).");
    const assigned = noticeSentence(notice({ kind: "step_assigned", review_steps: { role: "reviewer_legal", status: "active", due_at: null, decided_by: null } }), names, NOW);
    expect(assigned).toEqual({ before: "You were assigned the legal review of ", asset: "Zephyra email", after: " (round 2)." });
  });

  it("says who decided what, by name, or by role when the name is unknown", () => {
    const decided = (status: "approved" | "approved_with_changes" | "changes_requested" | "rejected", by: string | null = MEI) =>
      read(noticeSentence(notice({ kind: "decision", review_steps: { role: "reviewer_medical", status, due_at: null, decided_by: by } }), names, NOW));
    expect(decided("approved")).toBe("Dr. Mei Medical approved Zephyra email (round 2).");
    expect(decided("approved_with_changes")).toBe("Dr. Mei Medical approved Zephyra email with changes (round 2).");
    expect(decided("changes_requested")).toBe("Dr. Mei Medical requested changes to Zephyra email (round 2).");
    expect(decided("rejected", null)).toBe("The medical reviewer rejected Zephyra email (round 2).");
  });

  it("tells the round's outcome", () => {
    const closed = (status: "approved" | "changes_requested" | "rejected" | "withdrawn") =>
      read(noticeSentence(notice({ kind: "round_closed", reviews: { round: 1, status } }), names, NOW));
    expect(closed("approved")).toBe("Zephyra email was approved in round 1.");
    expect(closed("changes_requested")).toBe("Round 1 of Zephyra email closed with changes requested.");
    expect(closed("rejected")).toBe("Zephyra email was rejected in round 1.");
    expect(closed("withdrawn")).toBe("Round 1 of Zephyra email closed.");
  });

  it("says when a step is due, that it is overdue, and when an approval expires or expired", () => {
    expect(read(noticeSentence(notice({ kind: "due_soon" }), names, NOW))).toBe("Your medical review of Zephyra email is due in 23 hours.");
    expect(read(noticeSentence(notice({ kind: "overdue" }), names, NOW))).toBe("The medical review of Zephyra email is overdue.");
    expect(read(noticeSentence(notice({ kind: "expiry_soon" }), names, NOW))).toMatch(/^The approval of Zephyra email expires on .*20.*2026\.$/);
    expect(read(noticeSentence(notice({ kind: "expiry_soon", assets: { title: "Zephyra email", expires_at: null } }), names, NOW))).toBe(
      "The approval of Zephyra email expires within 30 days.",
    );
    expect(read(noticeSentence(notice({ kind: "expired" }), names, NOW))).toBe("The approval of Zephyra email has expired.");
    expect(read(noticeSentence(notice({ kind: "asset_withdrawn" }), names, NOW))).toBe("Zephyra email was withdrawn.");
  });

  it("uses the server's words for a lockout, for a notice whose asset is gone, and for a kind it does not know", () => {
    const locked = notice({ kind: "signing_locked", title: "Signing locked for Leo Legal after 5 failed attempts" });
    expect(noticeSentence(locked, names, NOW)).toEqual({ before: "Signing locked for Leo Legal after 5 failed attempts", asset: null, after: "" });
    expect(noticeSentence(notice({ assets: null }), names, NOW).asset).toBeNull();
    const future = notice({ kind: "brand_new" as NotificationItem["kind"], title: "Something new" });
    expect(read(noticeSentence(future, names, NOW))).toBe("Something new");
    expect(noticeKindLabel("brand_new")).toBe("brand_new");
  });

  it("has a short label for every kind", () => {
    expect(Object.keys(NOTICE_KIND_LABELS)).toHaveLength(11);
    expect(noticeKindLabel("expiry_soon")).toBe("Expiring soon");
  });

  it("says who mentioned the reader, around the asset's title", () => {
    const n = notice({ kind: "mentioned", title: "Dr. Mei Medical mentioned you on Zephyra email" });
    expect(noticeSentence(n, names, NOW)).toEqual({ before: "Dr. Mei Medical mentioned you on ", asset: n.assets?.title, after: "." });
  });
});

describe("noticeDetail", () => {
  it("gives a waiting step's due time, or what became of it since", () => {
    expect(noticeDetail(notice({}), NOW)).toMatch(/^Due .*2026/);
    expect(noticeDetail(notice({}), Date.parse("2026-11-29T00:00:00Z"))).toMatch(/^Overdue: it was due .*2026/);
    expect(noticeDetail(notice({ review_steps: { role: "reviewer_medical", status: "approved_with_changes", due_at: null, decided_by: MEI } }))).toBe(
      "Decided since: approved with changes.",
    );
    expect(noticeDetail(notice({ kind: "overdue", review_steps: { role: "reviewer_medical", status: "skipped", due_at: null, decided_by: null } }))).toBe(
      "The round closed without this step.",
    );
    expect(noticeDetail(notice({ reviews: { round: 1, status: "withdrawn" } }))).toBe("The round was withdrawn.");
    expect(noticeDetail(notice({ review_steps: null, body: "Due 1 Dec 2026 11:00 UTC." }))).toBe("Due 1 Dec 2026 11:00 UTC.");
  });

  it("gives a decision's comment and a withdrawal's reason", () => {
    expect(noticeDetail(notice({ kind: "decision", body: " Fair balance is in place. " }))).toBe("Fair balance is in place.");
    expect(noticeDetail(notice({ kind: "asset_withdrawn", body: "Label update" }))).toBe("Label update");
  });
});
