import { mkdirSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { accessToken, insertAs, rpcAs } from "./support/content-api";
import { expect, expectAccessible, type Member, signInFast, test } from "./support/fixtures";
import { selectWords } from "./support/pdf-selection";
import { samplePdf } from "./support/sample-pdf";
import type { Server } from "./support/server";

// A reference's PDF opens in the same viewer as an asset's: from the
// References list at page 1, and from a claim's passage at the cited page
// with the quoted words highlighted in the page's text layer (case and
// white space aside), or a message when they are not on that page. Its
// address (/content/references/{id}?page=N&quote=…) can be shared with any
// member of the organisation, and with no one else.

const SHOTS = "/tmp/shots-reference-viewer";
mkdirSync(SHOTS, { recursive: true });

const TITLE = "ZEPHYR-1 trial";
/** The words the claim quotes: across two lines of page 2, in another case. */
const QUOTE = "71% OF PATIENTS at week 16";

function zephyrPdf(): Buffer {
  return samplePdf(
    [
      ["ZEPHYR-1: a randomised trial", "Methods and population."],
      ["Results", "PASI 75 was reached by 71% of patients", "at week 16 in the zephyrimab arm."],
      ["Safety", "No new safety signals were seen."],
    ],
    { title: "ZEPHYR-1" },
  );
}

/** How long a cold viewer may take to open the PDF and read a page's text (pdf.js and its worker load first; the machine may be busy). */
const OPENED = { timeout: 30_000 };

/** Case and white space aside, as the viewer compares. */
const folded = (s: string) => s.toLowerCase().replace(/\s+/g, "");

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/** The highlighted words of the passage on page `n` of the viewer in `scope`, in order. */
async function highlighted(scope: Locator, n: number): Promise<string[]> {
  return scope.locator(`[data-page-number="${n}"] mark[data-passage-highlight]`).allTextContents();
}

/** A reference with its PDF attached, arranged through the API as `member`; returns its id. */
async function referenceWithPdf(server: Server, member: Member): Promise<string> {
  const token = await accessToken(server, member);
  const ref = await insertAs<{ id: string }>(server, token, "references", { title: TITLE, citation: "Doe J, et al. Lancet. 2025;401:100-110.", kind: "clinical_study" });
  const pdf = zephyrPdf();
  const prepared = await rpcAs<{ path: string; signed_url: string }>(server, token, "prepare_upload", {
    bucket: "reference-files",
    file_name: "zephyr-1.pdf",
    content_type: "application/pdf",
    size: pdf.length,
  });
  const put = await fetch(`${server.url}${prepared.signed_url}`, {
    method: "PUT",
    headers: { apikey: server.anonKey, Authorization: `Bearer ${token}`, "x-upsert": "false", "content-type": "application/pdf" },
    body: new Uint8Array(pdf),
  });
  expect(put.ok).toBe(true);
  await rpcAs(server, token, "attach_reference_file", { reference_id: ref.id, file_path: prepared.path, file_name: "zephyr-1.pdf" });
  return ref.id;
}

let marketer: Member;
let orgId: string;

test.beforeEach(async ({ arrange }) => {
  ({ orgId } = await arrange.workspace("Northwind Therapeutics"));
  marketer = await arrange.member({ role: "marketer", orgId, fullName: "Mara Marketer" });
});

test("a reference's PDF opens at page 1 from the list, and at a claim passage's page with the quote highlighted", async ({ page, server }) => {
  test.setTimeout(150_000);
  await signInFast(page, server, marketer);

  // The reference and its PDF, uploaded in its dialog.
  await page.goto("/content?tab=references");
  await page.getByRole("button", { name: "New reference" }).first().click();
  const refDialog = page.getByRole("dialog", { name: "New reference" });
  await refDialog.getByLabel("Title").fill(TITLE);
  await refDialog.getByLabel("Citation").fill("Doe J, et al. Lancet. 2025;401:100-110.");
  await refDialog.getByLabel("PDF").setInputFiles({ name: "zephyr-1.pdf", mimeType: "application/pdf", buffer: zephyrPdf() });
  await refDialog.getByRole("button", { name: "Add reference" }).click();
  await expect(refDialog).toBeHidden();
  const list = page.getByRole("list", { name: "References" });
  await expect(list).toContainText("PDF · 3 pages");

  await shot(page, "references-1440");

  // Opened from the list: the viewer at page 1.
  const view = list.getByRole("link", { name: `View PDF of ${TITLE}` });
  await expect(view).toBeVisible();
  await view.click();
  await expect(page).toHaveURL(/\/content\/references\/[0-9a-f-]{36}$/);
  await expect(page).toHaveTitle(`${TITLE} · Fairbalance`);
  await expect(page.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
  await expect(page.getByTestId("page-indicator")).toHaveText("Page 1 of 3", OPENED);
  await expect(page.getByRole("img", { name: "Page 1 of 3" })).toBeInViewport(OPENED);
  await expect(page.getByTestId("passage-status")).toHaveCount(0);
  await expectAccessible(page);
  await shot(page, "reference-page-1440");

  // A claim quoting page 2.
  await page.getByRole("main").getByRole("link", { name: "References", exact: true }).click();
  await page.getByRole("tab", { name: /Claims/ }).click();
  await page.getByRole("button", { name: "New claim" }).first().click();
  const dialog = page.getByRole("dialog", { name: /claim/ });
  await dialog.getByLabel("Claim", { exact: true }).fill("71% of patients reached PASI 75 at week 16.");
  await dialog.getByRole("button", { name: "Create claim" }).click();
  await expect(dialog).toHaveAccessibleName("Edit claim");
  const form = dialog.getByRole("form", { name: "Link reference passage" });
  await form.getByLabel("Reference").selectOption({ label: `${TITLE} (3 p.)` });
  await form.getByLabel("Page").fill("2");
  await form.getByLabel("Quoted passage").fill(QUOTE);
  await form.getByRole("button", { name: "Link passage" }).click();
  const linked = dialog.getByRole("list", { name: "Linked passages" });
  await expect(linked).toContainText(`${TITLE}, p. 2: “${QUOTE}”`);

  // Opened from the passage: page 2, the quote highlighted and in view, over the claim.
  await linked.getByRole("button", { name: "View passage on page 2 in the PDF" }).click();
  const sheet = page.getByRole("dialog", { name: TITLE });
  await expect(sheet.getByTestId("passage-status")).toHaveText("Passage highlighted on page 2", OPENED);
  await expect(sheet.getByTestId("page-indicator")).toHaveText("Page 2 of 3");
  await expect(sheet.locator('[data-page-number="2"]')).toBeInViewport();
  const marks = sheet.locator('[data-page-number="2"] mark[data-passage-highlight]');
  await expect(marks.first()).toBeInViewport();
  expect(folded((await highlighted(sheet, 2)).join(" "))).toBe(folded(QUOTE));
  await expect(sheet.locator("mark[data-passage-highlight]")).toHaveCount(await marks.count());
  await expectAccessible(page);
  await shot(page, "passage-sheet-1440");

  // Closing it goes back to the claim.
  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();
  await expect(dialog).toHaveAccessibleName("Edit claim");

  // Its own page, at an address that can be shared.
  await linked.getByRole("button", { name: "View passage on page 2 in the PDF" }).click();
  await sheet.getByRole("link", { name: "Open full page" }).click();
  await expect(page).toHaveURL(/\/content\/references\/[0-9a-f-]{36}\?page=2&quote=71%25\+OF\+PATIENTS\+at\+week\+16$/);
  await expect(page.getByTestId("passage-status")).toHaveText("Passage highlighted on page 2", OPENED);
  await expect(page.getByTestId("page-indicator")).toHaveText("Page 2 of 3");
  expect(folded((await highlighted(page.getByRole("main"), 2)).join(" "))).toBe(folded(QUOTE));

  // The highlight follows the zoom.
  const zoom = page.getByRole("toolbar", { name: "Viewer controls" });
  const level = async () => Number((await zoom.getByLabel("Zoom level").textContent())?.replace(/\D/g, ""));
  const mark = page.locator("mark[data-passage-highlight]").first();
  const [before, width] = [await level(), (await mark.boundingBox())?.width ?? 0];
  await zoom.getByRole("button", { name: "Zoom in" }).click();
  await expect.poll(level).toBeGreaterThan(before);
  const ratio = (await level()) / before;
  await expect.poll(async () => ((await mark.boundingBox())?.width ?? 0) / width).toBeCloseTo(ratio, 1);

  // At 390 px the claim and its passage's panel fit the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/content?tab=claims");
  await page.getByRole("list", { name: "Claims" }).getByRole("button").first().click();
  await expect(dialog).toHaveAccessibleName("Edit claim");
  await linked.scrollIntoViewIfNeeded();
  await shot(page, "claim-dialog-390");
  await linked.getByRole("button", { name: "View passage on page 2 in the PDF" }).click();
  await expect(sheet.getByTestId("passage-status")).toHaveText("Passage highlighted on page 2", OPENED);
  await expect(marks.first()).toBeInViewport();
  const sheetBox = await sheet.boundingBox();
  expect(sheetBox?.x).toBe(0);
  expect(sheetBox?.width).toBe(390);
  await shot(page, "passage-sheet-390");
});

test("a shared passage address opens for every member, says when the quote is not on that page, fits 390 px, and is not found elsewhere", async ({ page, browser, server, arrange }) => {
  test.setTimeout(150_000);
  const id = await referenceWithPdf(server, marketer);

  // A viewer (the least a member can be) reads it, at page 2, highlighted.
  const viewer = await arrange.member({ role: "viewer", orgId, fullName: "Vic Viewer" });
  await signInFast(page, server, viewer);
  await page.goto(`/content/references/${id}?page=2&quote=${encodeURIComponent("PASI 75 was reached")}`);
  await expect(page.getByTestId("passage-status")).toHaveText("Passage highlighted on page 2", OPENED);
  expect(folded((await highlighted(page.getByRole("main"), 2)).join(" "))).toBe(folded("PASI 75 was reached"));

  // Quoted from another page: opened at the cited one, and said so.
  await page.goto(`/content/references/${id}?page=1&quote=${encodeURIComponent(QUOTE)}`);
  await expect(page.getByTestId("passage-status")).toHaveText("The passage was not found on page 1.", OPENED);
  await expect(page.getByTestId("page-indicator")).toHaveText("Page 1 of 3", OPENED);
  await expect(page.getByRole("img", { name: "Page 1 of 3" })).toBeInViewport(OPENED);
  await expect(page.locator("mark[data-passage-highlight]")).toHaveCount(0);
  await expectAccessible(page);
  await shot(page, "passage-missing-1440");

  // At 390 px: nothing scrolls sideways, the passage is still found.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/content/references/${id}?page=2&quote=${encodeURIComponent(QUOTE)}`);
  await expect(page.getByTestId("passage-status")).toHaveText("Passage highlighted on page 2", OPENED);
  await expect(page.locator('[data-page-number="2"] mark[data-passage-highlight]').first()).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  await expectAccessible(page);
  await shot(page, "reference-page-390");

  // The list's link to it, an icon at this width.
  await page.goto("/content?tab=references");
  const view = page.getByRole("list", { name: "References" }).getByRole("link", { name: `View PDF of ${TITLE}` });
  await expect(view).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  await shot(page, "references-390");
  await view.click();
  await expect(page.getByTestId("page-indicator")).toHaveText("Page 1 of 3", OPENED);

  // And the reference's dialog's.
  await page.goBack();
  await page.getByRole("list", { name: "References" }).getByRole("button").first().click();
  const details = page.getByRole("dialog", { name: TITLE });
  await expect(details.getByRole("link", { name: "View PDF" })).toBeVisible();
  await shot(page, "reference-dialog-390");
  await details.getByRole("link", { name: "View PDF" }).click();
  await expect(details).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/content/references/${id}$`));
  await expect(page.getByTestId("page-indicator")).toHaveText("Page 1 of 3", OPENED);

  // Another organisation: no reference at that address, and no file either.
  const other = await arrange.workspace("Southwind Pharma");
  const context = await browser.newContext({ baseURL: server.url });
  const stranger = await context.newPage();
  await signInFast(stranger, server, other.admin);
  await stranger.goto(`/content/references/${id}`);
  await expect(stranger.getByRole("heading", { level: 1, name: "Reference not found" })).toBeVisible();
  await expect(stranger).toHaveTitle("Reference not found · Fairbalance");
  const [row] = (await (
    await fetch(`${server.url}/rest/v1/references?id=eq.${id}&select=file_path`, {
      headers: { apikey: server.anonKey, Authorization: `Bearer ${await accessToken(server, marketer)}` },
    })
  ).json()) as { file_path: string }[];
  if (!row) throw new Error("no reference row");
  const file = (token: string) =>
    fetch(`${server.url}/storage/v1/object/authenticated/reference-files/${row.file_path}`, { headers: { apikey: server.anonKey, Authorization: `Bearer ${token}` } });
  expect((await file(await accessToken(server, viewer))).status).toBe(200);
  expect((await file(await accessToken(server, other.admin))).ok).toBe(false);
  await context.close();
});

test("the claim form picks its passage by selecting the words in the reference's PDF", async ({ page, server }) => {
  test.setTimeout(120_000);
  await referenceWithPdf(server, marketer);
  await signInFast(page, server, marketer);
  await page.goto("/content?tab=claims");
  await page.getByRole("button", { name: "New claim" }).first().click();
  const dialog = page.getByRole("dialog", { name: /claim/ });
  await dialog.getByLabel("Claim", { exact: true }).fill("71% of patients reached PASI 75 at week 16.");
  await dialog.getByRole("button", { name: "Create claim" }).click();
  await expect(dialog).toHaveAccessibleName("Edit claim");
  const form = dialog.getByRole("form", { name: "Link reference passage" });
  // No reference chosen: nothing to pick from.
  await expect(form.getByRole("button", { name: "Pick in the PDF" })).toBeDisabled();
  await form.getByLabel("Reference").selectOption({ label: `${TITLE} (3 p.)` });
  await form.getByLabel("Page").fill("2");
  await form.getByRole("button", { name: "Pick in the PDF" }).click();

  // The reference opens at the form's page; the words selected there fill the form.
  const sheet = page.getByRole("dialog", { name: TITLE });
  await expect(sheet.getByText("Select the supporting words in the reference")).toBeVisible();
  await expect(sheet.getByTestId("page-indicator")).toHaveText("Page 2 of 3", OPENED);
  await selectWords(sheet, 2, "PASI 75 was reached by 71% of patients");
  await expectAccessible(page);
  await shot(page, "pick-passage-1440");
  await sheet.getByRole("button", { name: "Use this passage" }).click();
  await expect(sheet).toBeHidden();
  await expect(form.getByLabel("Page")).toHaveValue("2");
  await expect(form.getByLabel("Quoted passage")).toHaveValue("PASI 75 was reached by 71% of patients");

  // The server finds the picked words on that page and links them.
  await form.getByRole("button", { name: "Link passage" }).click();
  await expect(dialog.getByRole("list", { name: "Linked passages" })).toContainText(`${TITLE}, p. 2: “PASI 75 was reached by 71% of patients”`);
});
