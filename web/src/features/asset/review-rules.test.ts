import { describe, expect, it } from "vitest";
import type { Asset } from "@/entities/assets";
import type { ChangeRequest, Round, RoundStep } from "@/entities/reviews";
import { signSchema, signValues } from "@/entities/reviews/schema";
import { DataError } from "@/lib/data";
import {
  answersForAsset,
  anyDecided,
  blockingChanges,
  canConfirm,
  canMarkDone,
  checklist,
  exportsRecords,
  gateRefusal,
  hasForm2253,
  isOverdue,
  stepActions,
  type Viewer,
} from "./review-rules";

const MARA = "u-mara";
const MEI = "u-mei";
const MAX = "u-max"; // a second medical reviewer
const ADA = "u-ada";

const viewer = (userId: string, role: string, readOnly = false): Viewer => ({ userId, role, readOnly });

function step(over: Partial<RoundStep> = {}): RoundStep {
  return {
    id: "s1",
    org_id: "o",
    review_id: "r2",
    asset_id: "a",
    position: 1,
    role: "reviewer_medical",
    required: true,
    step_order: 1,
    due_days: 5,
    status: "active",
    activated_at: "2026-03-02T10:00:00Z",
    due_at: "2026-03-09T10:00:00Z",
    claimed_by: null,
    claimed_at: null,
    decided_by: null,
    decided_at: null,
    comment: "",
    signature_id: null,
    overdue_at: null,
    created_at: "2026-03-02T10:00:00Z",
    updated_at: "2026-03-02T10:00:00Z",
    signature: null,
    ...over,
  };
}

function round(steps: RoundStep[], over: Partial<Round> = {}): Round {
  return { id: "r2", round: 2, status: "open", version_id: "v2", steps, ...over } as Round;
}

function change(over: Partial<ChangeRequest> = {}): ChangeRequest {
  return { id: "c1", role: "reviewer_medical", review_id: "r1", status: "done", confirmed_review_id: null, ...over } as ChangeRequest;
}

describe("who answers for an asset (submit, withdraw, mark done)", () => {
  const asset = { created_by: MARA, owner_id: null } as Pick<Asset, "created_by" | "owner_id">;
  it("is its maker or owner among marketers, and every admin or owner", () => {
    expect(answersForAsset(viewer(MARA, "marketer"), asset)).toBe(true);
    expect(answersForAsset(viewer("u-other", "marketer"), asset)).toBe(false);
    expect(answersForAsset(viewer("u-other", "marketer"), { ...asset, owner_id: "u-other" })).toBe(true);
    expect(answersForAsset(viewer(ADA, "admin"), asset)).toBe(true);
    expect(answersForAsset(viewer(ADA, "owner"), asset)).toBe(true);
    expect(answersForAsset(viewer(MEI, "reviewer_medical"), { ...asset, owner_id: MEI })).toBe(false);
    expect(answersForAsset(viewer("u-v", "viewer"), asset)).toBe(false);
  });
  it("is nobody in the read-only demo", () => {
    expect(answersForAsset(viewer(ADA, "admin", true), asset)).toBe(false);
  });
});

describe("the actions on a step", () => {
  it("offer a reviewer of the step's role claim and decide on an unclaimed active step", () => {
    expect(stepActions(step(), round([]), viewer(MEI, "reviewer_medical"), MARA)).toEqual({ claim: true, assign: false, decide: true, blocked: null });
  });

  it("offer the claimer decide but not claim again; another reviewer of the role neither, with the reason", () => {
    const claimed = step({ claimed_by: MEI });
    expect(stepActions(claimed, round([]), viewer(MEI, "reviewer_medical"), MARA)).toEqual({ claim: false, assign: false, decide: true, blocked: null });
    expect(stepActions(claimed, round([]), viewer(MAX, "reviewer_medical"), MARA)).toEqual({ claim: false, assign: false, decide: false, blocked: "claimed" });
  });

  it("never offer the author of the version a decision, even holding the role", () => {
    expect(stepActions(step(), round([]), viewer(MARA, "reviewer_medical"), MARA)).toEqual({ claim: false, assign: false, decide: false, blocked: "author" });
    expect(stepActions(step(), round([]), viewer(MARA, "marketer"), MARA)).toEqual({ claim: false, assign: false, decide: false, blocked: null });
  });

  it("offer other roles nothing, admins only the assignment", () => {
    expect(stepActions(step(), round([]), viewer("u-lou", "reviewer_legal"), MARA)).toEqual({ claim: false, assign: false, decide: false, blocked: null });
    expect(stepActions(step(), round([]), viewer(ADA, "admin"), MARA)).toEqual({ claim: false, assign: true, decide: false, blocked: null });
  });

  it("offer nothing on a waiting or decided step, in a closed round, or in the read-only demo", () => {
    const mei = viewer(MEI, "reviewer_medical");
    const none = { claim: false, assign: false, decide: false, blocked: null };
    expect(stepActions(step({ status: "waiting" }), round([]), mei, MARA)).toEqual(none);
    expect(stepActions(step({ status: "approved" }), round([]), mei, MARA)).toEqual(none);
    expect(stepActions(step(), round([], { status: "changes_requested" }), mei, MARA)).toEqual(none);
    expect(stepActions(step(), round([]), viewer(MEI, "reviewer_medical", true), MARA)).toEqual(none);
    expect(stepActions(step(), round([]), viewer(ADA, "admin", true), MARA)).toEqual(none);
  });
});

describe("overdue", () => {
  const now = Date.parse("2026-03-10T00:00:00Z");
  it("is an active step past its due time or marked by the sweep", () => {
    expect(isOverdue(step(), now)).toBe(true);
    expect(isOverdue(step({ due_at: "2026-03-11T00:00:00Z" }), now)).toBe(false);
    expect(isOverdue(step({ due_at: "2026-03-11T00:00:00Z", overdue_at: "2026-03-09T10:00:00Z" }), now)).toBe(true);
  });
  it("is never a decided or waiting step", () => {
    expect(isOverdue(step({ status: "approved" }), now)).toBe(false);
    expect(isOverdue(step({ status: "waiting", due_at: null }), now)).toBe(false);
  });
});

describe("the change-request checklist", () => {
  const open = round([step()]);
  const raised = [
    change({ id: "c1", status: "done" }),
    change({ id: "c2", status: "confirmed", confirmed_review_id: "r2" }),
    change({ id: "c3", status: "confirmed", confirmed_review_id: "r0", review_id: "r0" }),
    change({ id: "c4", role: "reviewer_legal", status: "open" }),
    change({ id: "c5", review_id: "r2", status: "open" }),
  ];

  it("during a round: the earlier requests still to confirm and those it confirmed, not older confirmed ones or its own", () => {
    expect(checklist(raised, open).map((c) => c.id)).toEqual(["c1", "c2", "c4"]);
  });

  it("between rounds: every request not confirmed yet", () => {
    expect(checklist(raised, undefined).map((c) => c.id)).toEqual(["c1", "c4", "c5"]);
  });

  it("block the role's approval while an earlier request of that role is unconfirmed", () => {
    expect(blockingChanges(raised, open, "reviewer_medical").map((c) => c.id)).toEqual(["c1"]);
    expect(blockingChanges(raised, open, "reviewer_regulatory")).toEqual([]);
  });

  it("are confirmed by a reviewer of the raising role while that role's step is active, never by the author", () => {
    const done = change();
    expect(canConfirm(done, open, viewer(MEI, "reviewer_medical"), MARA)).toBe(true);
    expect(canConfirm(done, open, viewer("u-lou", "reviewer_legal"), MARA)).toBe(false);
    expect(canConfirm(done, open, viewer(MEI, "reviewer_medical"), MEI)).toBe(false);
    expect(canConfirm(done, undefined, viewer(MEI, "reviewer_medical"), MARA)).toBe(false);
    expect(canConfirm(done, round([step({ status: "waiting" })]), viewer(MEI, "reviewer_medical"), MARA)).toBe(false);
    expect(canConfirm(change({ status: "open" }), open, viewer(MEI, "reviewer_medical"), MARA)).toBe(false);
    expect(canConfirm(done, open, viewer(MEI, "reviewer_medical", true), MARA)).toBe(false);
  });

  it("are marked done by who answers for the asset, between rounds only", () => {
    const asset = { status: "changes_requested", created_by: MARA, owner_id: null } as Pick<Asset, "status" | "created_by" | "owner_id">;
    const openOne = change({ status: "open" });
    expect(canMarkDone(openOne, asset, viewer(MARA, "marketer"))).toBe(true);
    expect(canMarkDone(openOne, { ...asset, status: "in_review" }, viewer(MARA, "marketer"))).toBe(false);
    expect(canMarkDone(change({ status: "done" }), asset, viewer(MARA, "marketer"))).toBe(false);
    expect(canMarkDone(openOne, asset, viewer(MEI, "reviewer_medical"))).toBe(false);
  });

  it("let a round be withdrawn only before any decision", () => {
    expect(anyDecided(round([step(), step({ id: "s2" })]))).toBe(false);
    expect(anyDecided(round([step(), step({ id: "s2", status: "approved", decided_at: "2026-03-03T10:00:00Z", signature_id: "sig" })]))).toBe(true);
  });
});

describe("a 422 of submit_for_review", () => {
  it("names every unmet condition in the gate's order, from details", () => {
    const e = new DataError(
      "The asset is not ready for review.",
      422,
      "PT422",
      "product_id: Choose the product the asset promotes.\nmarket: Choose the asset's market.\nisi: The version must contain the ISI.",
      { isi: "The version must contain the ISI.", market: "Choose the asset's market.", product_id: "Choose the product the asset promotes." },
    );
    expect(gateRefusal(e).map((p) => p.code)).toEqual(["product_id", "market", "isi"]);
    expect(gateRefusal(e)[1]?.message).toBe("Choose the asset's market.");
  });

  it("falls back on fields, and reads nothing from another refusal", () => {
    expect(gateRefusal(new DataError("Not ready", 422, "PT422", null, { version: "Add a new version." }))).toEqual([{ code: "version", message: "Add a new version." }]);
    expect(gateRefusal(new DataError("The asset is already in review.", 409, "PT409", "status: no"))).toEqual([]);
    expect(gateRefusal("boom")).toEqual([]);
  });
});

describe("the sign form", () => {
  const parse = (over: Partial<ReturnType<typeof signValues>>) => signSchema.safeParse({ ...signValues(false), comment: "Fine.", password: "pw", ...over });
  const messages = (r: ReturnType<typeof parse>) => (r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));

  it("needs a comment and the password, in the server's words", () => {
    expect(messages(parse({ comment: "  ", password: "" }))).toEqual(["comment: The comment is required.", "password: Enter your password to sign."]);
  });

  it("needs at least one change request when requesting changes, and sends them trimmed without blanks", () => {
    expect(messages(parse({ decision: "changes_requested", change_requests: [{ text: " ", annotation_id: "" }] }))).toEqual([
      "change_requests: Requesting changes needs at least one change request.",
    ]);
    const ok = parse({
      decision: "changes_requested",
      change_requests: [
        { text: " Cite ZEN-1. ", annotation_id: "" },
        { text: "", annotation_id: "" },
        { text: "Move the ISI.", annotation_id: "" },
      ],
    });
    expect(ok.success && ok.data.changeRequests).toEqual(["Cite ZEN-1.", "Move the ISI."]);
  });

  it("sends a change request that points at an annotation with the annotation's id", () => {
    const ok = parse({
      decision: "changes_requested",
      change_requests: [
        { text: " Cite ZEN-1 here. ", annotation_id: "a-3" },
        { text: "Move the ISI.", annotation_id: "" },
        { text: "  ", annotation_id: "a-4" },
      ],
    });
    expect(ok.success && ok.data.changeRequests).toEqual([{ text: "Cite ZEN-1 here.", annotation_id: "a-3" }, "Move the ISI."]);
  });

  it("sends no change requests with any other decision", () => {
    const ok = parse({ decision: "approved", change_requests: [{ text: "left over", annotation_id: "" }] });
    expect(ok.success && ok.data).toEqual({ decision: "approved", comment: "Fine.", changeRequests: undefined, password: "pw", totpCode: undefined });
  });

  it("asks a signer with an authenticator for its 6-digit code", () => {
    expect(messages(parse({ needs_code: true, totp_code: "12345" }))).toEqual(["totp_code: Enter the 6-digit code of your authenticator app to sign."]);
    const ok = parse({ needs_code: true, totp_code: "123456" });
    expect(ok.success && ok.data.totpCode).toBe("123456");
  });
});

describe("exportsRecords and hasForm2253", () => {
  it("let every member but a viewer export, the read-only demo included", () => {
    for (const role of ["owner", "admin", "marketer", "reviewer_medical", "reviewer_legal", "reviewer_regulatory"]) {
      expect(exportsRecords(viewer("u", role))).toBe(true);
      expect(exportsRecords(viewer("u", role, true))).toBe(true);
    }
    expect(exportsRecords(viewer("u", "viewer"))).toBe(false);
    expect(exportsRecords(viewer("u", "viewer", true))).toBe(false);
  });

  it("offer nothing before the member is known", () => {
    expect(exportsRecords({ userId: null, role: "admin" })).toBe(false);
    expect(exportsRecords({ userId: "u", role: null })).toBe(false);
    expect(exportsRecords({ userId: "u", role: undefined })).toBe(false);
    expect(exportsRecords({ userId: "u", role: "" })).toBe(false);
  });

  it("offer Form 2253 data for an approved asset only", () => {
    expect(hasForm2253("approved")).toBe(true);
    for (const status of ["draft", "in_review", "changes_requested", "rejected", "expired", "withdrawn", "archived"]) {
      expect(hasForm2253(status)).toBe(false);
    }
  });
});
