import { describe, expect, it } from "vitest";
import { closedRoundVersions, NO_QUEUE_FILTERS, queueArgs, reviewQueueKeys, reviewQueueQuery, toItems } from "./index";

const asset = { id: "a1", title: "Launch email", job_code: "FB-US-0001", type: "email", product_id: null, status: "in_review", owner_id: "u1", current_version_number: 3 };
const review = {
  id: "r1",
  round: 2,
  status: "open",
  version_id: "v3",
  template_name: "Standard",
  submitted_by: "u1",
  submitted_at: "2026-11-20T10:00:00Z",
  due_at: "2026-11-27T10:00:00Z",
  closed_at: null,
};

describe("queueArgs", () => {
  it("sends only the filters that are set, and the cursor after the first page", () => {
    expect(queueArgs("mine", NO_QUEUE_FILTERS, null, 25)).toEqual({ tab: "mine", limit: 25 });
    expect(queueArgs("submitted", { product: "p1", type: "email", role: "reviewer_legal", status: "approved" }, "cur", 10)).toEqual({
      tab: "submitted",
      limit: 10,
      product_id: "p1",
      type: "email",
      role: "reviewer_legal",
      status: "approved",
      after: "cur",
    });
  });
});

describe("toItems", () => {
  it("types a step of my queue, reviewing its asset's current version", () => {
    const [item] = toItems("mine", [{ id: "s1", role: "reviewer_medical", status: "active", overdue: true, asset, review }], new Map());
    expect(item).toMatchObject({ kind: "step", id: "s1", overdue: true, version_number: 3 });
  });

  it("gives a closed round the number of the version it reviewed, not the asset's current one", () => {
    const raw = [
      { ...review, id: "open", steps: [], overdue: false, asset },
      { ...review, id: "closed", status: "changes_requested", version_id: "v1", due_at: null, steps: [], overdue: false, asset },
      { ...review, id: "unknown", status: "approved", version_id: "gone", due_at: null, steps: [], overdue: false, asset },
    ];
    expect(closedRoundVersions("submitted", raw)).toEqual(["v1", "gone"]);
    expect(closedRoundVersions("mine", raw)).toEqual([]);
    const items = toItems("submitted", raw, new Map([["v1", 1]]));
    expect(items.map((i) => [i.id, i.kind, i.version_number])).toEqual([
      ["open", "round", 3],
      ["closed", "round", 1],
      ["unknown", "round", null],
    ]);
  });
});

describe("keys", () => {
  it("keep every tab, filter set and card under one root, apart from each other", () => {
    const key = reviewQueueQuery("open", NO_QUEUE_FILTERS).queryKey;
    expect(key.slice(0, 1)).toEqual(reviewQueueKeys.all);
    expect(reviewQueueKeys.list("open", NO_QUEUE_FILTERS, 25)).not.toEqual(reviewQueueKeys.list("mine", NO_QUEUE_FILTERS, 25));
    expect(reviewQueueKeys.list("open", { ...NO_QUEUE_FILTERS, type: "email" }, 25)).not.toEqual(reviewQueueKeys.list("open", NO_QUEUE_FILTERS, 25));
    expect(reviewQueueKeys.first("mine", NO_QUEUE_FILTERS, 5)).not.toEqual(reviewQueueKeys.list("mine", NO_QUEUE_FILTERS, 5));
  });
});
