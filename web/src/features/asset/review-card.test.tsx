import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Asset } from "@/entities/assets";
import type { Person } from "@/entities/members";
import { type ChangeRequest, reviewKeys, type Round, type RoundStep } from "@/entities/reviews";
import type { VersionSummary } from "@/entities/versions";
import { createTestQueryClient } from "@/test/utils";
import { ReviewCard, type ReviewDialogState } from "./review-panel";
import type { Viewer } from "./review-rules";

// The review card of an asset's page, from the rows the server gives, for
// each kind of member: what they see and what they are offered.

// A stand-in for supabase-js's rpc: the server's answers to the card's calls.
const rpc = vi.fn();
const getSession = vi.fn(() => Promise.resolve({ data: { session: { access_token: "token-of-the-member" } } }));
vi.mock("@/lib/supabase", () => ({ getSupabase: () => Promise.resolve({ rpc, auth: { getSession } }) }));
vi.mock("sonner", () => ({ toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }));

const ASSET = "6f1c2a9e-3d4b-4c5a-8e7f-0a1b2c3d4e5f";
const MARA = "u-mara";
const MEI = "u-mei";
const LOU = "u-lou";
const ADA = "u-ada";

const people: Person[] = [
  { id: MARA, full_name: "Mara Marketer", email: "mara@example.com" },
  { id: MEI, full_name: "Dr. Mei Medical", email: "mei@example.com" },
  { id: LOU, full_name: "Lou Legal", email: "lou@example.com" },
  { id: ADA, full_name: "Alex Admin", email: "ada@example.com" },
];

const versions = [
  { id: "v2", number: 2, created_by: MARA, sha256: "b".repeat(64) },
  { id: "v1", number: 1, created_by: MARA, sha256: "a".repeat(64) },
] as VersionSummary[];

function asset(over: Partial<Asset> = {}): Asset {
  return {
    id: ASSET,
    title: "Zentria detail aid",
    job_code: "FB-US-0042",
    status: "in_review",
    created_by: MARA,
    owner_id: MARA,
    current_version_id: "v2",
    approved_version_id: null,
    expires_at: null,
    ...over,
  } as Asset;
}

function step(over: Partial<RoundStep>): RoundStep {
  return {
    id: "s",
    org_id: "o",
    review_id: "r2",
    asset_id: ASSET,
    position: 1,
    role: "reviewer_medical",
    required: true,
    step_order: 1,
    due_days: 5,
    status: "active",
    activated_at: "2026-03-02T10:00:00Z",
    due_at: "2099-03-09T10:00:00Z",
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

const legalSigned = step({
  id: "s-legal",
  position: 2,
  role: "reviewer_legal",
  status: "approved",
  decided_by: LOU,
  decided_at: "2026-03-03T14:05:07Z",
  comment: "No legal concerns.",
  signature_id: "sig-legal",
  signature: {
    id: "sig-legal",
    signer_name: "Lou Legal",
    signed_at: "2026-03-03T14:05:07.123456Z",
    meaning: "approval",
    decision: "approved",
    rendition_sha256: "b".repeat(64),
    version_id: "v2",
  },
});

function round2(medical: Partial<RoundStep> = {}): Round {
  return {
    id: "r2",
    round: 2,
    status: "open",
    version_id: "v2",
    submitted_by: MARA,
    submitted_at: "2026-03-02T10:00:00Z",
    template_name: "Standard MLR review",
    closed_at: null,
    steps: [
      step({ id: "s-med", overdue_at: "2026-03-10T00:00:00Z", due_at: "2026-03-09T10:00:00Z", ...medical }),
      legalSigned,
      step({ id: "s-reg", position: 3, role: "reviewer_regulatory" }),
    ],
  } as Round;
}

const round1 = {
  id: "r1",
  round: 1,
  status: "changes_requested",
  version_id: "v1",
  submitted_by: MARA,
  submitted_at: "2026-02-20T10:00:00Z",
  closed_at: "2026-02-25T10:00:00Z",
  steps: [step({ id: "s1-med", review_id: "r1", status: "changes_requested", comment: "Two points.", signature_id: "sig-1", signature: { id: "sig-1", signer_name: "Dr. Mei Medical", signed_at: "2026-02-24T10:00:00Z", meaning: "review", decision: "changes_requested", rendition_sha256: "a".repeat(64), version_id: "v1" } })],
} as Round;

const changes = [
  { id: "c1", review_id: "r1", role: "reviewer_medical", raised_by: MEI, text: "Cite the ZEN-1 study.", status: "done", done_by: MARA, done_note: "Cited.", confirmed_review_id: null },
  { id: "c2", review_id: "r1", role: "reviewer_medical", raised_by: MEI, text: "Move the ISI up.", status: "done", done_by: MARA, done_note: "", confirmed_review_id: null },
] as ChangeRequest[];

function renderCard(opts: { asset?: Asset; rounds?: Round[]; changes?: ChangeRequest[]; viewer: Viewer }) {
  const client = createTestQueryClient();
  // The card's rows as the page's queries left them (fresh: no refetch).
  client.setQueryDefaults(reviewKeys.all, { staleTime: Infinity });
  client.setQueryData(reviewKeys.rounds(ASSET), opts.rounds ?? [round2(), round1]);
  client.setQueryData(reviewKeys.changes(ASSET), opts.changes ?? changes);
  const onOpen = vi.fn<(d: ReviewDialogState) => void>();
  render(
    <QueryClientProvider client={client}>
      <ReviewCard asset={opts.asset ?? asset()} versions={versions} people={people} viewer={opts.viewer} onOpen={onOpen} />
    </QueryClientProvider>,
  );
  return { onOpen, client };
}

/** A step of the current round (round 2 unless said). */
const stepCard = (role: string, round = 2) => within(screen.getByRole("list", { name: `Steps of round ${round}` })).getByTestId(`step-reviewer_${role}`);

describe("ReviewCard", () => {
  beforeEach(() => {
    rpc.mockReset();
  });

  it("shows the author the round's steps, decisions and signatures, and offers no decision", () => {
    renderCard({ viewer: { userId: MARA, role: "marketer", readOnly: false } });
    expect(screen.getByTestId("round-status")).toHaveTextContent("Round 2 · In review");
    expect(screen.getByTestId("author-note")).toHaveTextContent("You wrote this version, so you never decide its review");
    expect(screen.queryByRole("button", { name: "Sign decision" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Claim" })).not.toBeInTheDocument();
    // The manifestation: printed name, UTC time, meaning; and what it binds.
    const signature = within(stepCard("legal")).getByTestId("signature");
    expect(within(signature).getByTestId("signer-name")).toHaveTextContent("Lou Legal");
    expect(within(signature).getByTestId("signed-at")).toHaveTextContent("2026-03-03 14:05:07 UTC");
    expect(within(signature).getByTestId("meaning")).toHaveTextContent("Approval");
    expect(signature).toHaveTextContent("v2, SHA-256 bbbbbbbbbbbb…");
    expect(within(stepCard("legal")).getByText("No legal concerns.")).toBeInTheDocument();
    // An overdue step is marked; the others are not.
    expect(within(stepCard("medical")).getByText("Overdue")).toBeInTheDocument();
    expect(within(stepCard("regulatory")).queryByText("Overdue")).not.toBeInTheDocument();
    // The checklist: both changes done, none confirmed yet; the author confirms nothing.
    const list = screen.getByTestId("checklist");
    expect(list).toHaveTextContent("0 of 2 confirmed");
    expect(within(list).queryByRole("button", { name: "Confirm" })).not.toBeInTheDocument();
    expect(within(list).queryByRole("button", { name: "Mark done" })).not.toBeInTheDocument();
    // Round 1 is in the history.
    expect(screen.getByTestId("round-1")).toHaveTextContent("Changes requested");
    // The author withdraws only before any decision: legal has decided.
    expect(screen.queryByRole("button", { name: "Withdraw round" })).not.toBeInTheDocument();
  });

  it("offers a medical reviewer claim, sign and confirm on medical's step only, and says approval waits for the checklist", async () => {
    const { onOpen } = renderCard({ viewer: { userId: MEI, role: "reviewer_medical", readOnly: false } });
    expect(within(stepCard("medical")).getByRole("button", { name: "Claim" })).toBeInTheDocument();
    expect(within(stepCard("medical")).getByText(/Approval waits for 2 change requests/)).toBeInTheDocument();
    expect(within(stepCard("regulatory")).queryByRole("button")).not.toBeInTheDocument();
    expect(within(screen.getByTestId("checklist")).getAllByRole("button", { name: "Confirm" })).toHaveLength(2);
    await userEvent.click(within(stepCard("medical")).getByRole("button", { name: "Sign decision" }));
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ kind: "sign", blocking: 2 }));
  });

  it("claims a step through claim_step and shows a refusal in the server's words", async () => {
    rpc.mockResolvedValueOnce({ data: null, error: { message: "Lou Legal has already claimed this step.", code: "PT409" }, status: 409 });
    const { toast } = await import("sonner");
    renderCard({ viewer: { userId: MEI, role: "reviewer_medical", readOnly: false } });
    await userEvent.click(within(stepCard("medical")).getByRole("button", { name: "Claim" }));
    await waitFor(() => {
      expect(rpc).toHaveBeenCalledWith("claim_step", { step_id: "s-med" });
    });
    await waitFor(() => {
      expect(toast.error).toHaveBeenCalledWith("The step could not be claimed", { description: "Lou Legal has already claimed this step." });
    });
  });

  it("tells another reviewer of the role who claimed the step", () => {
    renderCard({ rounds: [round2({ claimed_by: LOU }), round1], viewer: { userId: "u-max", role: "reviewer_medical", readOnly: false } });
    expect(within(stepCard("medical")).queryByRole("button", { name: "Sign decision" })).not.toBeInTheDocument();
    expect(within(stepCard("medical")).getByText("Lou Legal has claimed this step; only they decide it.")).toBeInTheDocument();
  });

  it("verifies a signature and shows the server's answer", async () => {
    rpc.mockResolvedValueOnce({
      data: { valid: true, reason: "The signature is intact, bound to its step, and the signed version's content matches it.", seal_intact: true, bound_to_step: true, rendition_matches: true },
      error: null,
      status: 200,
    });
    renderCard({ viewer: { userId: MARA, role: "marketer", readOnly: false } });
    await userEvent.click(within(stepCard("legal")).getByRole("button", { name: "Verify" }));
    expect(await within(stepCard("legal")).findByTestId("verification")).toHaveTextContent("Signature valid");
    expect(rpc).toHaveBeenCalledWith("verify_signature", { signature_id: "sig-legal" });
  });

  it("shows a broken signature as not valid, with the reason", async () => {
    rpc.mockResolvedValueOnce({
      data: { valid: false, reason: "The version's content no longer matches the SHA-256 recorded when it was signed.", seal_intact: true, bound_to_step: true, rendition_matches: false },
      error: null,
      status: 200,
    });
    renderCard({ viewer: { userId: MARA, role: "marketer", readOnly: false } });
    await userEvent.click(within(stepCard("legal")).getByRole("button", { name: "Verify" }));
    const result = await within(stepCard("legal")).findByTestId("verification");
    expect(result).toHaveTextContent("Signature not valid");
    expect(result).toHaveTextContent("no longer matches the SHA-256");
    expect(result).toHaveTextContent("Failed: The signed version's content is unchanged");
  });

  it("offers an admin the assignment of active steps", () => {
    renderCard({ viewer: { userId: ADA, role: "admin", readOnly: false } });
    expect(within(stepCard("medical")).getByRole("button", { name: "Assign" })).toBeInTheDocument();
    expect(within(stepCard("legal")).queryByRole("button", { name: "Assign" })).not.toBeInTheDocument();
  });

  it("offers nothing but Verify and the exports in the read-only demo, yet shows everything", () => {
    renderCard({ viewer: { userId: ADA, role: "admin", readOnly: true } });
    const buttons = new Set(screen.getAllByRole("button").map((b) => b.textContent.trim()));
    expect([...buttons]).toEqual(["Verify", "Review record (PDF)", "JSON"]);
    expect(within(stepCard("legal")).getByTestId("signer-name")).toHaveTextContent("Lou Legal");
    expect(screen.getByTestId("checklist")).toBeInTheDocument();
  });

  it("lets the author withdraw a round nobody has decided yet", async () => {
    const fresh = { ...round2(), steps: round2().steps.filter((s) => s.signature === null) };
    const { onOpen } = renderCard({ rounds: [fresh], changes: [], viewer: { userId: MARA, role: "marketer", readOnly: false } });
    await userEvent.click(screen.getByRole("button", { name: "Withdraw round" }));
    expect(onOpen).toHaveBeenCalledWith({ kind: "withdraw-round", round: fresh });
  });

  it("lists the gate's unmet conditions to the author before she tries, and her checklist to mark done", async () => {
    rpc.mockResolvedValue({
      data: {
        ready: false,
        unmet: [
          { code: "change_requests", message: "Mark every change request of the last round done before resubmitting; 1 is open." },
          { code: "version", message: "Changes were requested on this version: add a new version with the changes before resubmitting." },
        ],
      },
      error: null,
      status: 200,
    });
    const closed = { ...round1 };
    renderCard({
      asset: asset({ status: "changes_requested", current_version_id: "v1" }),
      rounds: [closed],
      changes: [{ ...changes[0], status: "open", review_id: "r1" } as ChangeRequest],
      viewer: { userId: MARA, role: "marketer", readOnly: false },
    });
    const unmet = await screen.findByTestId("gate-unmet");
    expect(rpc).toHaveBeenCalledWith("review_gate", { asset_id: ASSET });
    expect(within(unmet).getAllByRole("listitem")).toHaveLength(2);
    expect(unmet).toHaveTextContent("add a new version");
    expect(within(screen.getByTestId("checklist")).getByRole("button", { name: "Mark done" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Resubmit for review" })).toBeInTheDocument();
  });

  it("shows an approved asset's expiry; an admin may change it or withdraw the asset, a marketer may not", () => {
    const approved = { ...round2(), status: "approved", closed_at: "2026-03-05T10:00:00Z", steps: [legalSigned] } as Round;
    const a = asset({ status: "approved", approved_version_id: "v2", expires_at: "2099-03-05" });
    renderCard({ asset: a, rounds: [approved], changes: [], viewer: { userId: ADA, role: "admin", readOnly: false } });
    expect(screen.getByText(/v2 is approved for use/)).toBeInTheDocument();
    expect(screen.getByText(/2099/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Change expiry" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Withdraw asset" })).toBeInTheDocument();
  });

  it("offers a marketer no administrator's action on an approved asset", () => {
    const approved = { ...round2(), status: "approved", steps: [legalSigned] } as Round;
    renderCard({ asset: asset({ status: "approved", approved_version_id: "v2", expires_at: "2099-03-05" }), rounds: [approved], changes: [], viewer: { userId: MARA, role: "marketer", readOnly: false } });
    expect(screen.queryByRole("button", { name: "Change expiry" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Withdraw asset" })).not.toBeInTheDocument();
  });

  it("offers each round's review record to every member but a viewer", () => {
    for (const role of ["owner", "admin", "marketer", "reviewer_medical", "reviewer_legal", "reviewer_regulatory"]) {
      renderCard({ viewer: { userId: "u-someone", role, readOnly: false } });
      for (const round of [2, 1]) {
        const group = screen.getByRole("group", { name: `Review record of round ${round}`, hidden: true });
        expect(within(group).getByRole("button", { name: "Review record (PDF)", hidden: true })).toBeInTheDocument();
        expect(within(group).getByRole("button", { name: "Review record (JSON)", hidden: true })).toBeInTheDocument();
      }
      cleanup();
    }
    renderCard({ viewer: { userId: "u-vera", role: "viewer", readOnly: false } });
    expect(screen.queryByTestId("exports-round-2")).not.toBeInTheDocument();
    expect(screen.queryByTestId("exports-round-1")).not.toBeInTheDocument();
    cleanup();
    renderCard({ viewer: { userId: "u-vera", role: "viewer", readOnly: true } });
    expect(screen.queryByRole("button", { name: /Review record/ })).not.toBeInTheDocument();
  });

  it("offers an approved asset's Form 2253 data to a reviewer, not to a viewer, and to nobody before approval", () => {
    const approved = { ...round2(), status: "approved", closed_at: "2026-03-05T10:00:00Z", steps: [legalSigned] } as Round;
    const a = asset({ status: "approved", approved_version_id: "v2", expires_at: "2099-03-05" });
    renderCard({ asset: a, rounds: [approved], changes: [], viewer: { userId: LOU, role: "reviewer_legal", readOnly: false } });
    const form = screen.getByRole("group", { name: "Form 2253 data" });
    expect(within(form).getByRole("button", { name: "Form 2253 (PDF)" })).toBeInTheDocument();
    expect(within(form).getByRole("button", { name: "Form 2253 (JSON)" })).toBeInTheDocument();
    cleanup();
    renderCard({ asset: a, rounds: [approved], changes: [], viewer: { userId: "u-vera", role: "viewer", readOnly: false } });
    expect(screen.queryByTestId("exports-form-2253")).not.toBeInTheDocument();
    cleanup();
    renderCard({ viewer: { userId: ADA, role: "admin", readOnly: false } });
    expect(screen.queryByTestId("exports-form-2253")).not.toBeInTheDocument();
  });

  it("downloads a record with the member's token and saves it under the server's name", async () => {
    const fetchMock = vi.fn(() =>
      Promise.resolve(new Response("%PDF-1.7", { status: 200, headers: { "Content-Disposition": 'attachment; filename="review-record-FB-US-0042-round-2.pdf"' } })),
    );
    vi.stubGlobal("fetch", fetchMock);
    // jsdom has no object URLs: the download's link gets one from here.
    const createObjectURL = vi.fn(() => "blob:record");
    Object.defineProperty(URL, "createObjectURL", { value: createObjectURL, configurable: true });
    Object.defineProperty(URL, "revokeObjectURL", { value: vi.fn(), configurable: true });
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
    const { toast } = await import("sonner");
    const { client } = renderCard({ viewer: { userId: MARA, role: "marketer", readOnly: false } });
    const invalidate = vi.spyOn(client, "invalidateQueries");
    await userEvent.click(within(screen.getByTestId("exports-round-2")).getByRole("button", { name: "Review record (PDF)" }));
    await waitFor(() => {
      expect(toast.success).toHaveBeenCalledWith("Review record downloaded", { description: "review-record-FB-US-0042-round-2.pdf" });
    });
    expect(fetchMock).toHaveBeenCalledWith("/api/reviews/r2/record.pdf", expect.objectContaining({ headers: { Authorization: "Bearer token-of-the-member" } }));
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    expect(click).toHaveBeenCalled();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ["audit"] });
    click.mockRestore();
    vi.unstubAllGlobals();
  });

  it("shows a refused download in the server's words", async () => {
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(new Response(JSON.stringify({ code: "forbidden", message: "Viewers cannot export review records or Form 2253 data." }), { status: 403 }))));
    const { toast } = await import("sonner");
    renderCard({ viewer: { userId: MARA, role: "marketer", readOnly: false } });
    await userEvent.click(within(screen.getByTestId("exports-round-2")).getByRole("button", { name: "Review record (JSON)" }));
    await waitFor(() => {
      expect(toast.error).toHaveBeenCalledWith("The review record could not be downloaded", { description: "Viewers cannot export review records or Form 2253 data." });
    });
    vi.unstubAllGlobals();
  });
});
