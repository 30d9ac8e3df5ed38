import { render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { QueueAsset, QueueItem, QueueStep, RoundItem, StepItem } from "@/entities/review-queue";
import { QueueCards, QueueTable, type RowContext } from "./queue-list";

const now = new Date(2026, 10, 25, 15, 0, 0);
const at = (day: number, hour = 11) => new Date(2026, 10, day, hour, 0, 0).toISOString();

const asset: QueueAsset = {
  id: "a1",
  title: "Cardiomax launch email",
  job_code: "FB-US-0001",
  type: "email",
  product_id: "p1",
  status: "in_review",
  owner_id: "maya",
  current_version_number: 3,
};
const review = {
  id: "r1",
  round: 2,
  status: "open" as const,
  version_id: "v3",
  template_name: "Standard",
  submitted_by: "maya",
  submitted_at: at(20),
  due_at: at(24),
  closed_at: null,
};

function step(role: QueueStep["role"], patch: Partial<QueueStep> = {}): QueueStep {
  return {
    id: `s-${role}`,
    review_id: "r1",
    asset_id: "a1",
    role,
    required: true,
    step_order: 1,
    status: "active",
    activated_at: at(20),
    due_at: at(24),
    claimed_by: null,
    claimed_at: null,
    decided_by: null,
    decided_at: null,
    ...patch,
  };
}

const ctx: RowContext = {
  me: "mara",
  names: new Map([
    ["maya", "Maya Marketer"],
    ["lee", "Lee Legal"],
  ]),
  products: new Map([["p1", "Cardiomax"]]),
  now,
};

const overdueStep: StepItem = { ...step("reviewer_medical", { claimed_by: "mara" }), kind: "step", overdue: true, asset, review, version_number: 3 };
const round: RoundItem = {
  ...review,
  id: "r2",
  due_at: at(26),
  kind: "round",
  overdue: false,
  asset: { ...asset, id: "a2", title: "Respira detail aid" },
  version_number: 3,
  steps: [step("reviewer_regulatory"), step("reviewer_legal", { status: "approved", decided_by: "lee" }), step("reviewer_medical", { claimed_by: "mara" })],
};
const closed: RoundItem = {
  ...review,
  id: "r3",
  status: "changes_requested",
  due_at: null,
  closed_at: at(22),
  kind: "round",
  overdue: false,
  asset: { ...asset, id: "a3", title: "Patient brochure" },
  version_number: 1,
  steps: [],
};

function renderIn(ui: React.ReactElement) {
  return render(<MemoryRouter>{ui}</MemoryRouter>);
}

describe("the queue's rows", () => {
  const items: QueueItem[] = [overdueStep, round, closed];

  it("say what each row is, mark the overdue one in words, and link to the asset", () => {
    renderIn(<QueueTable items={items} ctx={ctx} label="My queue" />);
    const table = screen.getByRole("table", { name: "My queue" });
    const [first, second, third] = within(table).getAllByRole("row").slice(1);
    if (!first || !second || !third) throw new Error("three rows expected");
    expect(first).toHaveAttribute("data-overdue", "true");
    expect(first).toHaveTextContent("Overdue by 1 day");
    expect(first).toHaveTextContent("Medical: In review");
    expect(first).toHaveTextContent("Claimed by you");
    expect(first).toHaveTextContent("FB-US-0001 · Email · Cardiomax");
    expect(first).toHaveTextContent("Round 2 · v3");
    expect(first).toHaveTextContent("Maya Marketer");
    expect(within(first).getByRole("link", { name: "Cardiomax launch email" })).toHaveAttribute("href", "/assets/a1");

    expect(second).not.toHaveAttribute("data-overdue");
    expect(second).toHaveTextContent("Due tomorrow");
    // A round lists its steps medical, legal, regulatory, each with who holds or decided it.
    const lines = within(second).getAllByRole("listitem").map((li) => li.textContent);
    expect(lines).toEqual(["Medical: In reviewClaimed by you", "Legal: Approvedby Lee Legal", "Regulatory: In reviewUnclaimed"]);

    // A closed round: its outcome and when it closed, no due date.
    expect(third).toHaveTextContent("Changes requested");
    expect(third).toHaveTextContent("Round 2 · v1");
    expect(third).toHaveTextContent(/Closed/);
    expect(third).not.toHaveTextContent(/Due|Overdue/);
  });

  it("become cards on a phone, each opening its asset", () => {
    renderIn(<QueueCards items={items} ctx={ctx} label="My submissions" />);
    const cards = within(screen.getByRole("list", { name: "My submissions" })).getAllByRole("listitem").filter((li) => li.hasAttribute("data-queue-item"));
    expect(cards).toHaveLength(3);
    const [first, second] = cards;
    if (!first || !second) throw new Error("cards expected");
    expect(first).toHaveTextContent("Submitted by Maya Marketer");
    expect(within(second).getByRole("link", { name: "Respira detail aid" })).toHaveAttribute("href", "/assets/a2");
  });
});
