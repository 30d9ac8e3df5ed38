import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { accessToken, insertAs, rpcAs, uploadAssetFile } from "./support/content-api";
import { expect as baseExpect, expectAccessible, signInFast, test } from "./support/fixtures";
import { samplePdf } from "./support/sample-pdf";

// Compliance checks in the browser against the real server (issue 17): a
// marketer's PDF is checked when it is uploaded; its findings are listed
// by severity and marked in the document by "Compliance check"; one is
// dismissed with a reason (shown with who and why); a critical one blocks
// submission and is listed among the gate's unmet conditions; version 2
// without the sentence is submitted. On Guidelines, the try-it box marks
// "the best" as it is typed. Both screens pass axe and fit a phone.

const SHOTS = "/tmp/webui-shots";
mkdirSync(SHOTS, { recursive: true });

// The shared test machine is often busy: allow for slow screens.
const expect = baseExpect.configure({ timeout: 20_000 });

const PHONE = { width: 390, height: 844 };
const ISI = "Important Safety Information: Do not use Zentria if you are allergic to zentramab.";
const BEST = "Zentria (zentramab) is the best choice for your patients with moderate pain.";
const GUARANTEED = "Guaranteed results with no side effects.";

function emailPdf(version: 1 | 2): Buffer {
  const first = version === 1 ? ["Zentria (zentramab) for moderate pain", BEST, GUARANTEED] : ["Zentria (zentramab) for moderate pain", BEST];
  return samplePdf([first, ["Important Safety Information:", "Do not use Zentria if you are allergic to zentramab."]], { title: "Zentria HCP email" });
}

async function pageRendered(page: Page, n: number): Promise<void> {
  await expect(page.locator(`[data-page-number="${n}"][data-rendered="true"] canvas`)).toBeVisible({ timeout: 30_000 });
}

/** Fails when the page scrolls sideways. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  await page.waitForTimeout(300);
  const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, body: document.body.scrollWidth, view: document.documentElement.clientWidth }));
  expect(widths.doc, "the document scrolls sideways").toBeLessThanOrEqual(widths.view);
  expect(widths.body, "the body scrolls sideways").toBeLessThanOrEqual(widths.view);
}

/** How many ranges each finding highlight paints now. */
function highlighted(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const out: Record<string, number> = {};
    for (const name of ["fb-finding-critical", "fb-finding-warning", "fb-finding-info", "fb-finding-selected"]) out[name] = CSS.highlights.get(name)?.size ?? 0;
    return out;
  });
}

test("a marketer's PDF is checked: findings marked, one dismissed with a reason, a critical one blocks submission, version 2 without it is submitted", async ({ page, server, arrange }) => {
  test.setTimeout(360_000);
  const { orgId, admin } = await arrange.workspace("Acme Biologics");
  const marketer = await arrange.member({ role: "marketer", orgId, fullName: "Mara Marketer" });
  const product = await insertAs<{ id: string }>(server, await accessToken(server, admin), "products", { brand_name: "Zentria", established_name: "zentramab", isi_text: ISI });
  const token = await accessToken(server, marketer);
  const path = await uploadAssetFile(server, token, emailPdf(1), "zentria-email.pdf", "application/pdf");
  const asset = await rpcAs<{ id: string }>(server, token, "create_asset", {
    title: "Zentria HCP email",
    type: "email",
    product_id: product.id,
    audience: "hcp",
    channel: "Email",
    market: "US",
    file_path: path,
    file_name: "zentria-email.pdf",
    change_note: "First draft",
  });

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInFast(page, server, marketer);
  await page.goto(`/assets/${asset.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Zentria HCP email" })).toBeVisible({ timeout: 60_000 });
  await pageRendered(page, 1);

  // The findings, grouped by severity, and marked in the document.
  const panel = page.getByTestId("findings-panel");
  await expect(panel.getByRole("heading", { name: "Compliance check" })).toBeVisible();
  await expect(panel.getByTestId("findings-pending")).toHaveCount(0, { timeout: 30_000 });
  const best = panel.getByTestId("finding").filter({ hasText: "the best" }).first();
  const guaranteed = panel.getByTestId("finding").filter({ hasText: /guaranteed|no side effects/i }).first();
  await expect(best).toBeVisible();
  await expect(guaranteed).toBeVisible();
  await expect(panel.getByTestId("findings-critical")).toBeVisible();
  await expect(page.getByTestId("finding-marker").first()).toBeVisible();
  await expect.poll(async () => (await highlighted(page))["fb-finding-critical"] ?? 0).toBeGreaterThan(0);

  // "Show in document" selects the finding's quote.
  await best.getByRole("button", { name: "Show in document" }).click();
  await expect.poll(async () => (await highlighted(page))["fb-finding-selected"] ?? 0).toBeGreaterThan(0);
  await expectAccessible(page);
  await page.getByTestId("findings-card").screenshot({ path: `${SHOTS}/findings-panel-1440.png` });
  await page.screenshot({ path: `${SHOTS}/asset-findings-1440.png` });

  // Dismissed with a reason: the reason is required.
  await best.getByRole("button", { name: "Dismiss" }).click();
  const dismiss = page.getByRole("dialog", { name: "Dismiss this finding" });
  await dismiss.getByRole("button", { name: "Dismiss finding" }).click();
  await expect(dismiss.getByText("Say why the finding does not apply.")).toBeVisible();
  await dismiss.getByLabel("Reason").fill("Substantiated by the head-to-head study cited in the footnote.");
  await dismiss.getByRole("button", { name: "Dismiss finding" }).click();
  await expect(dismiss).toBeHidden();
  const dismissed = panel.getByTestId("findings-dismissed");
  await expect(dismissed).toContainText("Dismissed by Mara Marketer");
  await expect(dismissed).toContainText("Substantiated by the head-to-head study");

  // A critical finding blocks submission, listed among the gate's unmet conditions.
  await expect(page.getByTestId("review-card").getByTestId("gate-unmet")).toContainText(/critical/i);
  await page.getByRole("button", { name: "Submit for review" }).first().click();
  const submit = page.getByRole("dialog", { name: "Submit for review" });
  await expect(submit.getByTestId("gate-unmet")).toContainText(/critical/i);
  await expect(submit.getByRole("button", { name: /Submit round/ })).toBeDisabled();
  await submit.getByRole("button", { name: "Cancel" }).click();

  // Version 2 without the sentence: re-checked, the critical finding is gone, the dismissal carried.
  await page.getByRole("button", { name: "New version" }).click();
  await page.getByRole("menuitem", { name: "Upload a file" }).click();
  const upload = page.getByRole("dialog", { name: "New version" });
  await upload.locator('input[type="file"]').setInputFiles({ name: "zentria-email-v2.pdf", mimeType: "application/pdf", buffer: emailPdf(2) });
  await expect(upload.getByText("zentria-email-v2.pdf")).toBeVisible();
  await upload.getByLabel("Change note").fill("Removed the guarantee");
  await upload.getByRole("button", { name: "Add version" }).click();
  await expect(upload).toBeHidden({ timeout: 30_000 });
  await expect(page.getByLabel("Version", { exact: true })).toHaveValue("2");
  await pageRendered(page, 1);
  await expect(panel.getByTestId("findings-pending")).toHaveCount(0, { timeout: 30_000 });
  await expect(panel.getByTestId("finding").filter({ hasText: /guaranteed|no side effects/i })).toHaveCount(0);
  await expect(panel.getByTestId("findings-critical")).toHaveCount(0);
  await expect(panel.getByTestId("findings-dismissed")).toContainText("Substantiated by the head-to-head study");

  await page.getByRole("button", { name: "Submit for review" }).first().click();
  await expect(submit.getByTestId("gate-ready")).toBeVisible();
  await submit.getByRole("button", { name: "Submit round 1" }).click();
  await expect(submit).toBeHidden();
  await expect(page.getByTestId("asset-status")).toHaveText("In review");

  // A phone: the panel fits, nothing scrolls sideways.
  await page.setViewportSize(PHONE);
  await page.goto(`/assets/${asset.id}?v=1`);
  await expect(panel).toBeVisible({ timeout: 60_000 });
  await expectNoSidewaysScroll(page);
  await panel.scrollIntoViewIfNeeded();
  await page.getByTestId("findings-card").screenshot({ path: `${SHOTS}/findings-panel-390.png` });
});

test("Guidelines: the try-it box marks “the best” as it is typed; the screen passes axe and fits a phone", async ({ page, server, arrange }) => {
  test.setTimeout(180_000);
  const { orgId, admin } = await arrange.workspace("Acme Biologics");
  await rpcAs(server, await accessToken(server, admin), "save_guideline", {
    title: "OPDP: presenting risk information",
    source: "opdp",
    body: "# Fair balance\n\nPresent **risk** with prominence comparable to benefit.\n\n- Keep the ISI on every page\n- [Guidance](https://www.fda.gov/)",
  });
  const marketer = await arrange.member({ role: "marketer", orgId, fullName: "Mara Marketer" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInFast(page, server, marketer);
  await page.goto("/guidelines");
  await expect(page.getByRole("heading", { level: 1, name: "Guidelines" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("builtin-rules").locator('[data-rule="superlative"]')).toBeVisible();
  // A marketer reads the rules; only owners and admins change them.
  await expect(page.getByRole("button", { name: "New rule" })).toHaveCount(0);
  await expect(page.getByRole("switch")).toHaveCount(0);

  const box = page.getByLabel("Sample text");
  await box.pressSequentially("Zentria is the best", { delay: 40 });
  const mark = page.getByTestId("try-it-marks").locator("mark", { hasText: "the best" });
  await expect(mark).toBeVisible();
  await expect(page.getByTestId("try-it-findings")).toContainText("superlative");
  // The mark stays on the words while more is typed.
  await box.pressSequentially(" treatment.", { delay: 40 });
  await expect(mark).toBeVisible();

  // The guideline reads as rendered Markdown.
  await page.getByRole("button", { name: "OPDP: presenting risk information" }).click();
  const reading = page.getByRole("dialog", { name: "OPDP: presenting risk information" });
  await expect(reading.getByRole("heading", { name: "Fair balance" })).toBeVisible();
  await expect(reading.locator("strong", { hasText: "risk" })).toBeVisible();
  await reading.getByRole("button", { name: "Close" }).first().click();

  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/guidelines-1440.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${SHOTS}/guidelines-390.png`, fullPage: true });
});

test("Guidelines for an admin: a rule switched off and on, a new phrase rule tried on sample text before saving", async ({ page, server, arrange }) => {
  test.setTimeout(180_000);
  const { admin } = await arrange.workspace("Acme Biologics");
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInFast(page, server, admin);
  await page.goto("/guidelines");
  await expect(page.getByRole("heading", { level: 1, name: "Guidelines" })).toBeVisible({ timeout: 60_000 });
  const row = page.getByTestId("builtin-rules").locator('[data-rule="readability"]');
  const toggle = row.getByRole("switch");
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(row.getByText("Off", { exact: true })).toBeVisible();
  await toggle.click();
  await expect(row.getByText("Off", { exact: true })).toHaveCount(0);

  await page.getByRole("button", { name: "New rule" }).click();
  const editor = page.getByRole("dialog", { name: "New rule" });
  await editor.getByLabel("Title").fill("No cure claims");
  await editor.getByLabel("Code").fill("no-cure");
  await editor.getByLabel("Phrases").fill("cure\ncures");
  await editor.getByLabel("Severity").selectOption("critical");
  await editor.getByLabel("Message", { exact: true }).fill("Do not promise a cure.");
  await editor.getByRole("button", { name: "Patient" }).click();
  await editor.getByLabel("Try it on sample text").pressSequentially("Zentria cures pain.", { delay: 20 });
  await expect(editor.getByTestId("try-it-marks").locator("mark", { hasText: "cures" })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/rule-editor-1440.png` });
  await editor.getByRole("button", { name: "Save rule" }).click();
  await expect(editor).toBeHidden();
  const saved = page.getByTestId("org-rules").locator('[data-rule="no-cure"]');
  await expect(saved).toContainText("No cure claims");
  await expect(saved).toContainText("Patient");
});
