import { mkdirSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { accessToken, rpcAs } from "./support/content-api";
import { expect as baseExpect, expectAccessible, signInFast, test } from "./support/fixtures";

// Settings › Review workflow (issue 15): administrators keep the
// organisation's workflow templates and the approval validity; everyone
// else reads them, and the server refuses them any change.

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 150_000 });

const SHOTS = "/tmp/reviewnotify-shots";
mkdirSync(SHOTS, { recursive: true });

/** The page (and any open dialog) fits `width` without scrolling sideways. */
async function expectFits(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => {
    const w = window.innerWidth;
    const wide = [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.right > w + 1;
      })
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 3).join(".")}`);
    return { scroll: document.documentElement.scrollWidth, width: w, wide: wide.slice(0, 5) };
  });
  expect(overflow, what).toEqual({ scroll: overflow.width, width: overflow.width, wide: [] });
}

/** Settings' Review workflow card. */
function reviewCard(page: Page): Locator {
  return page.locator("[data-slot=card]").filter({ has: page.getByRole("heading", { name: "Review workflow" }) });
}

/** The card's row of the template named `name`. */
function templateRow(card: Locator, name: string): Locator {
  return card.getByTestId("workflow-template").filter({ has: card.page().getByText(name, { exact: true }) });
}

test("an admin creates a workflow with a sequential step, edits it, sets the approval validity, and finds both after a reload", async ({
  page,
  server,
  arrange,
}) => {
  const { admin } = await arrange.workspace();
  await signInFast(page, server, admin);
  await page.goto("/settings");
  const card = reviewCard(page);
  await expect(card.getByRole("heading", { name: "Review workflow" })).toBeVisible();

  // Nothing of its own yet: the built-in workflow is the default.
  const builtIn = templateRow(card, "Standard MLR review");
  await expect(builtIn).toContainText("Default");
  await expect(builtIn).toContainText("Built in");
  for (const area of ["Medical", "Legal", "Regulatory"]) await expect(builtIn).toContainText(area);
  await expect(builtIn.getByText("5 business days")).toHaveCount(3);
  await expect(builtIn).toContainText("In parallel");
  await expect(card.getByLabel("Approved content stays valid for")).toHaveValue("12");
  await expectAccessible(page);
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: `${SHOTS}/settings-review-builtin-1440.png` });

  // A new workflow: medical first, then legal (required) and regulatory (optional) in parallel.
  await card.getByRole("button", { name: "New workflow" }).click();
  const dialog = page.getByRole("dialog", { name: "New workflow" });
  await dialog.getByLabel("Name").fill("Promotional fast track");
  await dialog.getByLabel("Description").fill("Short promotional pieces.");
  const step1 = dialog.getByRole("listitem", { name: /^Step 1/ });
  await step1.getByLabel("Business days").fill("3");
  await dialog.getByRole("button", { name: "Add step" }).click();
  const step2 = dialog.getByRole("listitem", { name: /^Step 2/ });
  await step2.getByLabel("Reviewer").selectOption("reviewer_legal");
  await step2.getByLabel("Order").fill("2");
  await step2.getByLabel("Business days").fill("0");
  await dialog.getByRole("button", { name: "Add step" }).click();
  const step3 = dialog.getByRole("listitem", { name: /^Step 3/ });
  await step3.getByLabel("Reviewer").selectOption("reviewer_regulatory");
  await expect(step3.getByLabel("Order")).toHaveValue("2");
  await step3.getByRole("switch", { name: "Required" }).click();
  await expect(step3).toContainText("Optional: the round never waits for it");

  // The form says what the server would: due days are 1 to 60.
  await dialog.getByRole("button", { name: "Create workflow" }).click();
  await expect(step2.getByText("The due days must be 1 to 60 business days.")).toBeVisible();
  await step2.getByLabel("Business days").fill("2");
  await expect(dialog.getByText("How a round runs")).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expectFits(page, "the workflow editor at 390 px");
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/settings-review-editor-390.png` });
  await page.setViewportSize({ width: 1440, height: 900 });
  await dialog.screenshot({ path: `${SHOTS}/settings-review-editor-1440.png` });
  await dialog.getByRole("button", { name: "Create workflow" }).click();
  await expect(page.getByText("Promotional fast track created")).toBeVisible();
  await expect(dialog).toBeHidden();

  const fastTrack = templateRow(card, "Promotional fast track");
  await expect(fastTrack).toContainText("Short promotional pieces.");
  await expect(fastTrack).toContainText("3 business days");
  await expect(fastTrack).toContainText("Optional");
  await expect(fastTrack).not.toContainText("Default");
  // Still the built-in default until one of its own is.
  await expect(templateRow(card, "Standard MLR review")).toContainText("Default");

  // The server checks names: a second workflow of the same name is refused, on its field.
  await card.getByRole("button", { name: "New workflow" }).click();
  const second = page.getByRole("dialog", { name: "New workflow" });
  await second.getByLabel("Name").fill("promotional FAST track");
  await second.getByRole("button", { name: "Create workflow" }).click();
  await expect(second.getByText('A workflow named "promotional FAST track" already exists.')).toBeVisible();
  await expect(second.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await second.getByRole("button", { name: "Cancel" }).click();

  // Edit: a new name, regulatory moved first and made required, and the default.
  await fastTrack.getByRole("button", { name: "Edit Promotional fast track" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Promotional fast track" });
  await expect(edit.getByLabel("Name")).toHaveValue("Promotional fast track");
  await edit.getByLabel("Name").fill("Fast track");
  await edit.getByRole("button", { name: "Move step 3 up" }).click();
  const moved = edit.getByRole("listitem", { name: /^Step 2/ });
  await expect(moved.getByLabel("Reviewer")).toHaveValue("reviewer_regulatory");
  await moved.getByRole("switch", { name: "Required" }).click();
  await edit.getByLabel("Default workflow").check();
  await edit.getByRole("button", { name: "Save workflow" }).click();
  await expect(page.getByText("Fast track saved")).toBeVisible();

  const edited = templateRow(card, "Fast track");
  await expect(edited).toContainText("Default");
  await expect(edited).not.toContainText("Optional");
  await expect(templateRow(card, "Standard MLR review")).toHaveCount(0);

  // Approval validity: checked as the server does, then saved.
  const validity = card.getByLabel("Approved content stays valid for");
  await validity.fill("61");
  await card.getByRole("button", { name: "Save", exact: true }).click();
  await expect(card.getByText("The approval validity must be 1 to 60 months.")).toBeVisible();
  await validity.fill("24");
  await card.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Approvals now stay valid for 24 months")).toBeVisible();

  await page.reload();
  const again = templateRow(card, "Fast track");
  await expect(again).toContainText("Default");
  await expect(again.getByText("Medical", { exact: true })).toBeVisible();
  await expect(again.getByText("Regulatory", { exact: true })).toBeVisible();
  await expect(card.getByLabel("Approved content stays valid for")).toHaveValue("24");
  const token = await accessToken(server, admin);
  const stored = await fetch(`${server.url}/rest/v1/workflow_templates?select=name,is_default,steps`, {
    headers: { apikey: server.anonKey, Authorization: `Bearer ${token}` },
  });
  expect(await stored.json()).toEqual([
    {
      name: "Fast track",
      is_default: true,
      steps: [
        { role: "reviewer_medical", required: true, order: 1, due_days: 3 },
        { role: "reviewer_regulatory", required: true, order: 2, due_days: 5 },
        { role: "reviewer_legal", required: true, order: 2, due_days: 2 },
      ],
    },
  ]);

  // Another workflow, made default, then deleted: the default falls back to the built-in one only when none is left.
  await card.getByRole("button", { name: "New workflow" }).click();
  const extra = page.getByRole("dialog", { name: "New workflow" });
  await extra.getByLabel("Name").fill("Legal only");
  await extra.getByRole("listitem", { name: /^Step 1/ }).getByLabel("Reviewer").selectOption("reviewer_legal");
  await extra.getByRole("button", { name: "Create workflow" }).click();
  await expect(page.getByText("Legal only created")).toBeVisible();
  await templateRow(card, "Legal only").getByRole("button", { name: "Make Legal only the default" }).click();
  await expect(page.getByText("Legal only is now the default workflow")).toBeVisible();
  await expect(templateRow(card, "Legal only")).toContainText("Default");
  await expect(templateRow(card, "Fast track")).not.toContainText("Default");
  await templateRow(card, "Legal only").getByRole("button", { name: "Delete Legal only" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete Legal only?" });
  await expect(confirm).toContainText("until you make another workflow the default, submissions get the built-in Standard MLR review");
  await confirm.getByRole("button", { name: "Delete workflow" }).click();
  await expect(page.getByText("Legal only deleted")).toBeVisible();
  await expect(templateRow(card, "Legal only")).toHaveCount(0);
  await expect(templateRow(card, "Standard MLR review")).toContainText("Built in");

  // The section at both widths.
  await expectAccessible(page);
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: `${SHOTS}/settings-review-1440.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectFits(page, "/settings at 390 px");
  await card.screenshot({ path: `${SHOTS}/settings-review-390.png` });
});

test("a marketer reads the workflow and the validity but is offered no change, and the server refuses one", async ({ page, server, arrange }) => {
  const { orgId, admin } = await arrange.workspace();
  const marketer = await arrange.member({ role: "marketer", orgId, fullName: "Maya Marketer" });
  const adminToken = await accessToken(server, admin);
  await rpcAs(server, adminToken, "save_workflow_template", {
    name: "Two-stage review",
    steps: [
      { role: "reviewer_medical", required: true, order: 1, due_days: 4 },
      { role: "reviewer_legal", required: true, order: 2, due_days: 2 },
    ],
    is_default: true,
  });
  await rpcAs(server, adminToken, "set_review_settings", { approval_validity_months: 18 });

  await signInFast(page, server, marketer);
  await page.goto("/settings");
  const card = reviewCard(page);
  await expect(card.getByText("Your administrators set them.")).toBeVisible();
  const row = templateRow(card, "Two-stage review");
  await expect(row).toContainText("Default");
  await expect(row).toContainText("4 business days");
  await expect(card).toContainText("Approved content stays valid for 18 months");
  await expect(card.getByRole("button")).toHaveCount(0);
  await expect(card.getByRole("textbox")).toHaveCount(0);
  await expect(card.getByRole("spinbutton")).toHaveCount(0);
  await expectAccessible(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectFits(page, "/settings as a marketer at 390 px");
  await page.setViewportSize({ width: 1440, height: 900 });

  // Forced through the API, every change is refused (403) and nothing changes.
  const token = await accessToken(server, marketer);
  for (const [name, args] of [
    ["save_workflow_template", { name: "Mine", steps: [{ role: "reviewer_medical", required: true, order: 1, due_days: 1 }] }],
    ["set_review_settings", { approval_validity_months: 1 }],
  ] as const) {
    const res = await fetch(`${server.url}/rest/v1/rpc/${name}`, {
      method: "POST",
      headers: { apikey: server.anonKey, Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(args),
    });
    expect(res.status, name).toBe(403);
  }
  await page.reload();
  await expect(card).toContainText("Approved content stays valid for 18 months");
  await expect(card.getByTestId("workflow-template")).toHaveCount(1);
});
