import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Round, RoundStep } from "@/entities/reviews";
import type { VersionSummary } from "@/entities/versions";
import { renderWithQuery } from "@/test/utils";
import { SignDialog } from "./sign-dialog";

// The sign dialog against the server's answers to decide_step: what it
// sends, and each refusal where it belongs.

const rpc = vi.fn();
vi.mock("@/lib/supabase", () => ({ getSupabase: () => Promise.resolve({ rpc }) }));
vi.mock("sonner", () => ({ toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }));

const step = { id: "s-med", role: "reviewer_medical", status: "active" } as RoundStep;
const round = { id: "r1", round: 1, status: "open", version_id: "v1", steps: [step] } as unknown as Round;
const versions = [{ id: "v1", number: 1, sha256: "c".repeat(64) }] as VersionSummary[];

function renderDialog(opts: { hasAuthenticator?: boolean; blocking?: number } = {}) {
  const onClose = vi.fn();
  renderWithQuery(
    <SignDialog
      assetId="a1"
      step={step}
      round={round}
      versions={versions}
      signerName="Dr. Mei Medical"
      hasAuthenticator={opts.hasAuthenticator ?? false}
      blocking={opts.blocking ?? 0}
      onClose={onClose}
    />,
  );
  return { onClose, dialog: screen.getByRole("dialog", { name: "Sign the medical review" }) };
}

/** A refusal as postgrest-js hands it back: the server's body as the error. */
const refusal = (status: number, error: Record<string, unknown>) => ({ data: null, error, status });

const password = (dialog: HTMLElement) => within(dialog).getByLabelText("Password", { selector: "input" });

describe("SignDialog", () => {
  beforeEach(() => {
    rpc.mockReset();
  });

  it("says who signs, with which meaning, bound to which version", () => {
    const { dialog } = renderDialog();
    expect(dialog).toHaveTextContent("Signing as Dr. Mei Medical, meaning Approval, bound to version 1 (SHA-256 cccccccccccc…)");
    expect(within(dialog).queryByLabelText("Authenticator code")).not.toBeInTheDocument();
  });

  it("signs a request for changes with its change requests and the password", async () => {
    rpc.mockResolvedValue({
      data: { review: { status: "open" }, step: { id: "s-med" }, signature: { id: "sig" }, change_requests: [{ id: "c1" }, { id: "c2" }] },
      error: null,
      status: 200,
    });
    const { dialog, onClose } = renderDialog();
    const u = userEvent.setup();
    await u.click(within(dialog).getByRole("radio", { name: /^Request changes/ }));
    expect(dialog).toHaveTextContent("meaning Review");
    await u.type(within(dialog).getByLabelText("Comment", { exact: true }), "Two points.");
    await u.type(within(dialog).getByRole("textbox", { name: "Change request 1" }), "Cite ZEN-1.");
    await u.click(within(dialog).getByRole("button", { name: "Add another change request" }));
    await u.type(within(dialog).getByRole("textbox", { name: "Change request 2" }), "Move the ISI up.");
    await u.type(password(dialog), "Correct-Horse-42");
    await u.click(within(dialog).getByRole("button", { name: "Sign and request changes" }));
    await waitFor(() => {
      expect(onClose).toHaveBeenCalled();
    });
    expect(rpc).toHaveBeenCalledWith("decide_step", {
      step_id: "s-med",
      decision: "changes_requested",
      comment: "Two points.",
      password: "Correct-Horse-42",
      change_requests: ["Cite ZEN-1.", "Move the ISI up."],
    });
  });

  it("refuses to send a request for changes without a change request", async () => {
    const { dialog } = renderDialog();
    const u = userEvent.setup();
    await u.click(within(dialog).getByRole("radio", { name: /^Request changes/ }));
    await u.type(within(dialog).getByLabelText("Comment", { exact: true }), "Two points.");
    await u.type(password(dialog), "pw");
    await u.click(within(dialog).getByRole("button", { name: "Sign and request changes" }));
    expect(await within(dialog).findByText("Requesting changes needs at least one change request.")).toBeInTheDocument();
    expect(rpc).not.toHaveBeenCalled();
  });

  it("shows a wrong password beside the password (28P01) and empties it", async () => {
    rpc.mockResolvedValue(
      refusal(403, { code: "28P01", message: "The password is wrong; the step was not signed.", fields: { password: "The password is wrong; the step was not signed." } }),
    );
    const { dialog, onClose } = renderDialog();
    const u = userEvent.setup();
    await u.type(within(dialog).getByLabelText("Comment", { exact: true }), "Fine.");
    await u.type(password(dialog), "Wrong-1");
    await u.click(within(dialog).getByRole("button", { name: "Sign and approve" }));
    expect(await within(dialog).findByText("The password is wrong; the step was not signed.")).toBeInTheDocument();
    expect(password(dialog)).toHaveValue("");
    expect(password(dialog)).toHaveAttribute("aria-invalid", "true");
    expect(onClose).not.toHaveBeenCalled();
  });

  it("shows a locked signing (PT429) for the form, in the server's words", async () => {
    rpc.mockResolvedValue(
      refusal(429, { code: "PT429", message: "Signing is locked after 5 failed attempts; try again after 14:35 UTC.", details: "locked_until: 2026-03-03T14:35:00Z" }),
    );
    const { dialog } = renderDialog();
    const u = userEvent.setup();
    await u.type(within(dialog).getByLabelText("Comment", { exact: true }), "Fine.");
    await u.type(password(dialog), "pw");
    await u.click(within(dialog).getByRole("button", { name: "Sign and approve" }));
    expect(await within(dialog).findByText("Signing is locked after 5 failed attempts; try again after 14:35 UTC.")).toBeInTheDocument();
  });

  it("shows a move the workflow no longer allows (409) for the form", async () => {
    rpc.mockResolvedValue(refusal(409, { code: "PT409", message: "This step is already decided (approved)." }));
    const { dialog } = renderDialog();
    const u = userEvent.setup();
    await u.type(within(dialog).getByLabelText("Comment", { exact: true }), "Fine.");
    await u.type(password(dialog), "pw");
    await u.click(within(dialog).getByRole("button", { name: "Sign and approve" }));
    expect(await within(dialog).findByText("This step is already decided (approved).")).toBeInTheDocument();
  });

  it("asks for the authenticator code when the server wants it, then sends it", async () => {
    rpc
      .mockResolvedValueOnce(refusal(400, { code: "22023", message: "Enter the code of your authenticator app to sign.", fields: { totp_code: "Enter the code of your authenticator app to sign." } }))
      .mockResolvedValueOnce({ data: { review: { status: "open" }, step: {}, signature: {}, change_requests: [] }, error: null, status: 200 });
    const { dialog, onClose } = renderDialog();
    const u = userEvent.setup();
    await u.type(within(dialog).getByLabelText("Comment", { exact: true }), "Fine.");
    await u.type(password(dialog), "pw");
    await u.click(within(dialog).getByRole("button", { name: "Sign and approve" }));
    const code = await within(dialog).findByLabelText("Authenticator code");
    expect(within(dialog).getByText("Enter the code of your authenticator app to sign.")).toBeInTheDocument();
    await u.type(code, "12a3456");
    await u.click(within(dialog).getByRole("button", { name: "Sign and approve" }));
    await waitFor(() => {
      expect(onClose).toHaveBeenCalled();
    });
    expect(rpc).toHaveBeenLastCalledWith("decide_step", { step_id: "s-med", decision: "approved", comment: "Fine.", password: "pw", totp_code: "123456" });
  });

  it("asks a signer with an authenticator for the code up front", () => {
    const { dialog } = renderDialog({ hasAuthenticator: true });
    expect(within(dialog).getByLabelText("Authenticator code")).toBeInTheDocument();
  });

  it("does not offer approval while the role's change requests are unconfirmed, and says why", () => {
    const { dialog } = renderDialog({ blocking: 2 });
    expect(within(dialog).getByText("Approval waits for the checklist")).toBeInTheDocument();
    expect(within(dialog).getByRole("radio", { name: /^Approve(?! with)/ })).toBeDisabled();
    expect(within(dialog).getByRole("radio", { name: /^Approve with changes/ })).toBeDisabled();
    expect(within(dialog).getByRole("radio", { name: /^Request changes/ })).toBeChecked();
  });
});

describe("SignDialog on a version with comments", () => {
  const VERSION = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
  const annotation = (id: string, thread: string, target: Record<string, unknown>, state = "open") => ({
    id,
    thread_id: thread,
    version_id: VERSION,
    asset_id: "a1",
    category: "claim_needs_reference",
    body: "Cite it.",
    state,
    anchor_status: "anchored",
    target,
    reference_id: null,
    reference_page: null,
    reference_quote: "",
    created_by: "u-med",
    author_name: "Dr. Mei Medical",
    created_at: "2026-03-01T10:00:00Z",
    resolved_by: null,
    resolved_at: null,
    carried_from: null,
    replies: [],
  });

  beforeEach(() => {
    rpc.mockReset();
    rpc.mockImplementation((fn: string) => {
      if (fn === "version_annotations") {
        return Promise.resolve({
          data: [
            annotation("an-1", "th-1", { type: "text", exact: "relieves moderate pain within two weeks", start: 8, end: 47 }),
            annotation("an-2", "th-2", { type: "text", exact: "already settled", start: 60, end: 75 }, "resolved"),
            annotation("an-3", "th-3", { type: "region", page: 2, x: 0.1, y: 0.1, width: 0.5, height: 0.2 }),
          ],
          error: null,
          status: 200,
        });
      }
      return Promise.resolve({ data: { review: { status: "open" }, step: {}, signature: {}, change_requests: [{ id: "c1" }, { id: "c2" }] }, error: null, status: 200 });
    });
  });

  it("lets each change request point at an open comment, by number and quote, and sends the comment's id with it", async () => {
    const onClose = vi.fn();
    const v = [{ id: VERSION, number: 2, sha256: "d".repeat(64), kind: "file", mimetype: "application/pdf" }] as VersionSummary[];
    renderWithQuery(
      <SignDialog
        assetId="a1"
        step={step}
        round={{ ...round, version_id: VERSION }}
        versions={v}
        signerName="Dr. Mei Medical"
        hasAuthenticator={false}
        blocking={0}
        onClose={onClose}
      />,
    );
    const dialog = screen.getByRole("dialog", { name: "Sign the medical review" });
    const u = userEvent.setup();
    await u.click(within(dialog).getByRole("radio", { name: /^Request changes/ }));
    await u.type(within(dialog).getByLabelText("Comment", { exact: true }), "Two points.");
    await u.type(within(dialog).getByRole("textbox", { name: "Change request 1" }), "Cite ZEN-1.");
    const pointsAt = await within(dialog).findByLabelText("Points at (change request 1)");
    // Open comments only, numbered as on the page (the resolved #2 is not offered).
    expect(within(pointsAt).getAllByRole("option").map((o) => o.textContent)).toEqual([
      "No comment in particular",
      "#1 “relieves moderate pain within two weeks”",
      "#3 Area on page 2",
    ]);
    await u.selectOptions(pointsAt, "an-1");
    await u.click(within(dialog).getByRole("button", { name: "Add another change request" }));
    await u.type(within(dialog).getByRole("textbox", { name: "Change request 2" }), "Move the ISI up.");
    await u.type(password(dialog), "pw");
    await u.click(within(dialog).getByRole("button", { name: "Sign and request changes" }));
    await waitFor(() => {
      expect(onClose).toHaveBeenCalled();
    });
    expect(rpc).toHaveBeenLastCalledWith("decide_step", {
      step_id: "s-med",
      decision: "changes_requested",
      comment: "Two points.",
      password: "pw",
      change_requests: [{ text: "Cite ZEN-1.", annotation_id: "an-1" }, "Move the ISI up."],
    });
  });
});
