import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Annotation } from "@/entities/annotations";
import { renderWithQuery } from "@/test/utils";
import { AnnotationPanel } from "./annotation-panel";
import type { Viewer } from "./review-rules";
import type { VersionThreads } from "./use-version-threads";

// The threads panel: each thread's number, category, state and anchoring
// (an orphan's old quote struck through), its replies, and the writes
// offered by role — viewers read only; the author or a reviewer resolves.

const rpc = vi.fn();
vi.mock("@/lib/supabase", () => ({ getSupabase: () => Promise.resolve({ rpc }) }));
vi.mock("sonner", () => ({ toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }));

function annotation(id: string, over: Partial<Annotation>): Annotation {
  return {
    id,
    thread_id: `t-${id}`,
    version_id: "v2",
    asset_id: "a1",
    category: "editorial",
    body: "A comment.",
    state: "open",
    anchor_status: "anchored",
    target: { type: "text", exact: "some words", prefix: "", suffix: "", start: 0, end: 10 },
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
    ...over,
  };
}

const rows = [
  annotation("1", {
    category: "claim_needs_reference",
    anchor_status: "moved",
    target: { type: "text", exact: "relieves moderate pain", start: 80, end: 102 },
    body: "Cite ZEN-1, @Mara Marketer.",
    replies: [{ id: "r1", annotation_id: "1", body: "On it.", created_by: "u-mara", author_name: "Mara Marketer", created_at: "2026-03-01T11:00:00Z" }],
  }),
  annotation("2", { category: "fair_balance", anchor_status: "orphaned", target: { type: "text", exact: "Avoid alcohol while taking Zentria.", start: 40, end: 75 } }),
  annotation("3", { category: "regulatory", target: { type: "region", page: 3, x: 0.1, y: 0.1, width: 0.8, height: 0.1 }, created_by: "u-mara", author_name: "Mara Marketer" }),
  annotation("4", { state: "resolved", resolved_at: "2026-03-02T09:00:00Z", created_by: "u-mara" }),
];

const threads: VersionThreads = {
  annotations: rows,
  numbers: new Map(rows.map((r, i) => [r.thread_id, i + 1])),
  places: new Map(),
  pageTexts: null,
  starts: [],
  isPending: false,
  isError: false,
  refetch: () => undefined,
};

function renderPanel(viewer: Viewer) {
  const onShow = vi.fn();
  renderWithQuery(
    <AnnotationPanel
      assetId="a1"
      versionId="v2"
      versionNumber={2}
      isCurrent
      threads={threads}
      people={[{ id: "u-mara", name: "Mara Marketer" }]}
      viewer={viewer}
      selected={null}
      rendition="pdf"
      onShow={onShow}
      onOpenReference={vi.fn()}
    />,
  );
  return { onShow, panel: screen.getByTestId("threads-panel") };
}

const card = (panel: HTMLElement, n: number) => {
  const found = within(panel).getAllByTestId("thread").find((li) => li.getAttribute("data-thread") === `t-${String(n)}`);
  if (!found) throw new Error(`no thread ${String(n)}`);
  return found;
};

describe("AnnotationPanel", () => {
  beforeEach(() => {
    rpc.mockReset();
  });

  it("lists the open threads with their anchoring: moved, an orphan's old quote struck through, an area", async () => {
    const { panel, onShow } = renderPanel({ userId: "u-med", role: "reviewer_medical", readOnly: false });
    expect(within(panel).getByTestId("threads-count")).toHaveTextContent("3 open · 1 resolved");
    expect(within(panel).getAllByTestId("thread")).toHaveLength(3);
    const moved = card(panel, 1);
    expect(within(moved).getByTestId("anchor-status")).toHaveTextContent("Moved");
    expect(within(moved).getByTestId("thread-category")).toHaveTextContent("Claim needs reference");
    expect(within(moved).getByText("@Mara Marketer")).toBeInTheDocument();
    expect(within(moved).getByTestId("reply")).toHaveTextContent("On it.");
    const orphan = card(panel, 2);
    expect(within(orphan).getByTestId("anchor-status")).toHaveTextContent("Orphaned");
    expect(within(orphan).getByTestId("thread-quote")).toHaveClass("line-through");
    expect(within(orphan).getByTestId("orphan-note")).toHaveTextContent("Not found in this version");
    expect(within(card(panel, 3)).getByTestId("thread-quote")).toHaveTextContent("Area on page 3");
    await userEvent.setup().click(within(moved).getByRole("button", { name: "Show comment 1 in the document" }));
    expect(onShow).toHaveBeenCalledWith("t-1");
  });

  it("shows resolved threads on request, with reopen for their author", async () => {
    const { panel } = renderPanel({ userId: "u-mara", role: "marketer", readOnly: false });
    await userEvent.setup().click(within(panel).getByRole("radio", { name: "Resolved 1" }));
    const resolved = card(panel, 4);
    expect(within(panel).getAllByTestId("thread")).toHaveLength(1);
    expect(within(resolved).getByRole("button", { name: "Reopen" })).toBeInTheDocument();
  });

  it("offers a reviewer replies and resolving on every thread; a marketer resolves only their own", () => {
    let { panel } = renderPanel({ userId: "u-med2", role: "reviewer_legal", readOnly: false });
    expect(within(card(panel, 1)).getByRole("button", { name: "Resolve" })).toBeInTheDocument();
    expect(within(card(panel, 3)).getByRole("button", { name: "Resolve" })).toBeInTheDocument();
    document.body.innerHTML = "";
    ({ panel } = renderPanel({ userId: "u-mara", role: "marketer", readOnly: false }));
    expect(within(card(panel, 1)).getByRole("button", { name: "Reply" })).toBeInTheDocument();
    expect(within(card(panel, 1)).queryByRole("button", { name: "Resolve" })).not.toBeInTheDocument();
    expect(within(card(panel, 3)).getByRole("button", { name: "Resolve" })).toBeInTheDocument();
  });

  it("offers a viewer and the read-only demo nothing to write", () => {
    let { panel } = renderPanel({ userId: "u-vic", role: "viewer", readOnly: false });
    expect(within(panel).queryByRole("button", { name: "Reply" })).not.toBeInTheDocument();
    expect(within(panel).queryByRole("button", { name: "Resolve" })).not.toBeInTheDocument();
    document.body.innerHTML = "";
    ({ panel } = renderPanel({ userId: "u-med", role: "reviewer_medical", readOnly: true }));
    expect(within(panel).queryByRole("button", { name: "Reply" })).not.toBeInTheDocument();
    expect(within(panel).queryByRole("button", { name: "Resolve" })).not.toBeInTheDocument();
  });

  it("sends a reply to the thread, and shows the server's refusal beside it", async () => {
    rpc.mockResolvedValueOnce({ data: null, error: { code: "22023", message: "The reply must be 1 to 5000 characters long.", fields: { body: "The reply is too long." } }, status: 400 });
    rpc.mockResolvedValueOnce({ data: { id: "r2" }, error: null, status: 200 });
    const { panel } = renderPanel({ userId: "u-mara", role: "marketer", readOnly: false });
    const u = userEvent.setup();
    const thread = card(panel, 1);
    await u.click(within(thread).getByRole("button", { name: "Reply" }));
    const box = within(thread).getByRole("combobox", { name: "Reply to comment 1" });
    await u.type(box, "Added the citation.");
    await u.click(within(thread).getByRole("button", { name: "Send reply" }));
    expect(await within(thread).findByText("The reply is too long.")).toBeInTheDocument();
    await u.click(within(thread).getByRole("button", { name: "Send reply" }));
    await waitFor(() => {
      expect(within(thread).queryByRole("combobox", { name: "Reply to comment 1" })).not.toBeInTheDocument();
    });
    expect(rpc).toHaveBeenLastCalledWith("reply_annotation", { annotation_id: "1", body: "Added the citation." });
  });
});
