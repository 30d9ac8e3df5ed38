import { describe, expect, it } from "vitest";
import { actionSummary, auditSentence, CLIENT_AUDIT_ACTIONS, describeAction, hasSentence, subjectRefs } from "./sentences";
import { SERVER_AUDIT_ACTIONS } from "./server-actions";

const base = { actor_id: "u1", object_id: null, object_type: null, meta: null };

describe("every recorded action has a sentence", () => {
  // SERVER_AUDIT_ACTIONS is generated from the server's vocabulary (a Go
  // test keeps it current): an action the server starts recording fails
  // here until it is given a sentence.
  it.each([...SERVER_AUDIT_ACTIONS])("the server's %s", (action) => {
    expect(hasSentence(action)).toBe(true);
    const words = describeAction({ ...base, action });
    expect(words).not.toBe(action.replace(/[._]+/g, " "));
    expect(words).not.toMatch(/[._]/);
  });

  it.each([...CLIENT_AUDIT_ACTIONS])("the app's %s", (action) => {
    expect(hasSentence(action)).toBe(true);
  });

  it("and an action nobody words is not taken for one", () => {
    expect(hasSentence("asset_viewed")).toBe(false);
    expect(hasSentence("some_table.delete")).toBe(false);
    expect(hasSentence("widget_created")).toBe(false);
  });
});

describe("describeAction", () => {
  it("words the onboarding entries", () => {
    expect(describeAction({ ...base, action: "organization_created", meta: { organization_name: "Acme", industry: null } })).toBe(
      "set up the organization Acme",
    );
    expect(
      describeAction({ ...base, action: "user_invited", meta: { invited_email: "a@x.io", invited_role: "reviewer_legal", invitation_method: "onboarding_wizard" } }),
    ).toBe("invited a@x.io as Legal reviewer");
    expect(describeAction({ ...base, action: "onboarding_completed" })).toBe("completed the workspace setup");
    expect(describeAction({ ...base, action: "invite_accepted", meta: { role: "marketer" } })).toBe("joined as Marketer");
  });

  it("words the data API's table writes", () => {
    expect(describeAction({ ...base, action: "orgs.insert" })).toBe("created the organization");
    expect(describeAction({ ...base, action: "orgs.update", before_json: [{ id: "o1", name: "Acme" }], after_json: [{ id: "o1", name: "Acme Pharma" }] })).toBe(
      "renamed the organization",
    );
    expect(describeAction({ ...base, action: "orgs.update", before_json: [{ name: "Acme", industry: "" }], after_json: [{ name: "Acme", industry: "Biotech" }] })).toBe(
      "updated the organization",
    );
    expect(describeAction({ ...base, action: "profiles_v2.update", object_id: "u1" })).toBe("updated their profile");
    expect(describeAction({ ...base, action: "profiles_v2.update", object_id: "u2" })).toBe("updated a member's profile");
    expect(
      describeAction({
        ...base,
        action: "profiles_v2.update",
        object_id: "u2",
        before_json: [{ id: "u2", full_name: "Mary Marketer", role: "marketer" }],
        after_json: [{ id: "u2", full_name: "Mary Marketer", role: "admin" }],
      }),
    ).toBe("changed Mary Marketer’s role from Marketer to Admin");
    expect(describeAction({ ...base, action: "some_table.delete" })).toBe("deleted some table");
  });

  it("names content by what the entry recorded", () => {
    const asset = { id: "a1", job_code: "FB-US-0001", title: "Launch e-mail", status: "draft" };
    expect(describeAction({ ...base, action: "asset_created", after_json: { asset, version: { number: 1 } } })).toBe("created the asset FB-US-0001");
    expect(describeAction({ ...base, action: "asset_updated", before_json: [asset], after_json: [{ ...asset, title: "Launch" }] })).toBe(
      "updated the asset FB-US-0001",
    );
    expect(describeAction({ ...base, action: "product_created", after_json: [{ id: "p1", brand_name: "Zelvora" }] })).toBe("created the product Zelvora");
    expect(describeAction({ ...base, action: "product_created", after_json: [{ brand_name: "A" }, { brand_name: "B" }] })).toBe("created 2 products");
    expect(describeAction({ ...base, action: "module_deleted", before_json: [{ id: "m1", title: "Zelvora ISI" }] })).toBe("deleted the module “Zelvora ISI”");
    expect(
      describeAction({
        ...base,
        action: "claim_updated",
        before_json: [{ id: "c1", text: "Zelvora lowers LDL-C by 52% at week 12", status: "draft" }],
        after_json: [{ id: "c1", text: "Zelvora lowers LDL-C by 52% at week 12", status: "approved" }],
      }),
    ).toBe("moved the claim “Zelvora lowers LDL-C by 52% at week 12” from Draft to Approved");
    expect(describeAction({ ...base, action: "asset_created" })).toBe("created an asset");
    expect(describeAction({ ...base, action: "review_record_exported", meta: { job_code: "FB-US-0001", round: 2, format: "pdf" } })).toBe(
      "exported the review record of round 2 of the asset FB-US-0001 (PDF)",
    );
    expect(describeAction({ ...base, action: "form_2253_exported", meta: { job_code: "FB-US-0001", format: "json" } })).toBe(
      "exported the Form 2253 data of the asset FB-US-0001 (JSON)",
    );
  });

  it("names what it looked up when the entry did not record it", () => {
    const version = { ...base, action: "asset_version_created", object_id: "v2", after_json: { id: "v2", asset_id: "a1", number: 2 } };
    expect(describeAction(version)).toBe("added version 2 to an asset");
    expect(subjectRefs([version])).toEqual([{ table: "assets", id: "a1" }]);
    expect(describeAction(version, { assets: new Map([["a1", "FB-US-0001"]]) })).toBe("added version 2 to the asset FB-US-0001");

    const link = { ...base, action: "claim_reference_linked", after_json: [{ claim_id: "c1", reference_id: "r1", page: 4 }] };
    expect(subjectRefs([link])).toEqual([
      { table: "claims", id: "c1" },
      { table: "references", id: "r1" },
    ]);
    expect(describeAction(link, { claims: new Map([["c1", "Lowers LDL-C"]]), references: new Map([["r1", "Prescribing information"]]) })).toBe(
      "cited the reference “Prescribing information” (page 4) for the claim “Lowers LDL-C”",
    );
    // What the entry recorded needs no lookup.
    expect(subjectRefs([{ ...base, action: "asset_created", after_json: { asset: { job_code: "FB-US-0001" } } }])).toEqual([]);
  });

  it("words storage, members and invitations", () => {
    expect(describeAction({ ...base, action: "object.create", after_json: { bucket_id: "assets", name: "org/a1/v1/launch.pdf" } })).toBe(
      "uploaded the file launch.pdf",
    );
    expect(describeAction({ ...base, action: "invite_created", after_json: { email: "mia@x.io", role: "reviewer_medical" } })).toBe(
      "created an invitation for mia@x.io as Medical reviewer",
    );
    expect(describeAction({ ...base, action: "member_deactivated", before_json: { full_name: "Leo Legal", email: "leo@x.io" } })).toBe("deactivated Leo Legal");
    expect(describeAction({ ...base, action: "login", meta: { method: "password" } })).toBe("signed in");
  });

  it("reads an unknown action as words, never as code", () => {
    expect(describeAction({ ...base, action: "asset_submitted_for_review" })).toBe("asset submitted for review");
  });
});

describe("the sentence", () => {
  it("starts with the actor", () => {
    const entry = { ...base, action: "asset_created", after_json: { asset: { job_code: "FB-US-0001" } } };
    expect(auditSentence("Mary Marketer", entry)).toBe("Mary Marketer created the asset FB-US-0001");
    expect(actionSummary(entry)).toBe("Created the asset FB-US-0001");
  });
});
