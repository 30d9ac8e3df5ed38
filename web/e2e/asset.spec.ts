import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { accessToken, createFileAsset, insertAs, rpcAs, uploadAssetFile } from "./support/content-api";
import { expect, expectAccessible, signInFast, test, type Member } from "./support/fixtures";
import { makePng } from "./support/png";
import { samplePdf } from "./support/sample-pdf";

// Asset detail (/assets/{id}): the PDF viewer, new versions (upload and
// edit), compare, and who may see and do what.

const SHOTS = "/tmp/shots-asset";
mkdirSync(SHOTS, { recursive: true });

const V1 = samplePdf(
  [
    ["Zentria (zentramab) detail aid", "Zentria relieves moderate pain within two weeks for most adults."],
    ["Dosing", "Take one tablet daily with food."],
    ["Important Safety Information", "Do not use Zentria if you are allergic to zentramab."],
  ],
  { title: "Zentria detail aid" },
);
const V2 = samplePdf(
  [
    ["Zentria (zentramab) detail aid", "Zentria relieves moderate pain within one week for many adults."],
    ["Dosing", "Take one tablet daily with food."],
    ["Important Safety Information", "Do not use Zentria if you are allergic to zentramab."],
  ],
  { title: "Zentria detail aid" },
);

/** Counts pixels of a page canvas that are not near-white. */
async function inkedPixels(page: Page, pageNumber: number): Promise<number> {
  return page.locator(`[data-page-number="${pageNumber}"] canvas`).evaluate((c: HTMLCanvasElement) => {
    const ctx = c.getContext("2d");
    if (!ctx) return 0;
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if ((d[i] ?? 255) < 200 || (d[i + 1] ?? 255) < 200 || (d[i + 2] ?? 255) < 200) n++;
    return n;
  });
}

async function pageRendered(page: Page, n: number): Promise<void> {
  await expect(page.locator(`[data-page-number="${n}"][data-rendered="true"] canvas`)).toBeVisible({ timeout: 15_000 });
}

let orgId: string;
let admin: Member;
let marketer: Member;
let asset: { id: string; job_code: string };

test.beforeEach(async ({ arrange, server }) => {
  ({ admin, orgId } = await arrange.workspace("Acme Biologics"));
  marketer = await arrange.member({ role: "marketer", orgId, fullName: "Mara Marketer" });
  const token = await accessToken(server, marketer);
  asset = await createFileAsset(server, token, { title: "Zentria launch detail aid", bytes: V1, fileName: "zentria-detail-aid.pdf" });
});

test("a marketer sees the PDF's pages, adds versions by upload and by editing, and compares them", async ({ page, server }) => {
  // Long (three versions, four axe scans); a shared machine under load needs more than two minutes.
  test.setTimeout(240_000);
  await signInFast(page, server, marketer);
  await page.goto(`/assets/${asset.id}`);

  await expect(page.getByRole("heading", { level: 1, name: "Zentria launch detail aid" })).toBeVisible();
  await expect(page.getByTestId("asset-status")).toHaveText("Draft");
  await expect(page.getByLabel("Version", { exact: true })).toHaveValue("1");
  await pageRendered(page, 1);
  expect(await inkedPixels(page, 1)).toBeGreaterThan(500);
  await expect(page.getByTestId("page-indicator")).toHaveText("Page 1 of 3");

  // Go to a page.
  await page.getByLabel("Go to page").fill("3");
  await page.getByRole("button", { name: "Go", exact: true }).click();
  await pageRendered(page, 3);
  await expect(page.getByTestId("page-indicator")).toHaveText("Page 3 of 3");

  // Zoom.
  await page.getByRole("button", { name: "Zoom in" }).click();
  await expect(page.getByRole("button", { name: "Fit width" })).toHaveAttribute("aria-pressed", "false");
  await page.getByRole("button", { name: "Fit width" }).click();

  // Details.
  await expect(page.getByText(asset.job_code).first()).toBeVisible();
  await expect(page.getByText("zentria-detail-aid.pdf")).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Go to page").fill("1");
  await page.getByRole("button", { name: "Go", exact: true }).click();
  await pageRendered(page, 1);
  await page.screenshot({ path: `${SHOTS}/detail-pdf-1440.png` });

  // A new version by upload.
  await page.getByRole("button", { name: "New version" }).click();
  await page.getByRole("menuitem", { name: "Upload a file" }).click();
  const dialog = page.getByRole("dialog", { name: "New version" });
  await dialog.locator('input[type="file"]').setInputFiles({ name: "zentria-detail-aid-v2.pdf", mimeType: "application/pdf", buffer: V2 });
  await expect(dialog.getByText("zentria-detail-aid-v2.pdf")).toBeVisible();
  await dialog.getByRole("button", { name: "Add version" }).click();
  await expect(dialog.getByText("Say what changed in this version.")).toBeVisible();
  await dialog.getByLabel("Change note").fill("Faster onset, per the 2026 label");
  await dialog.getByRole("button", { name: "Add version" }).click();
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await expect(page.getByLabel("Version", { exact: true })).toHaveValue("2");
  await expect(page.getByLabel("Version", { exact: true }).locator("option:checked")).toHaveText("v2 · current");
  await pageRendered(page, 1);

  // A new version by editing the text, with an approved ISI module inserted.
  await insertAs(server, await accessToken(server, admin), "modules", {
    kind: "isi",
    title: "Zentria ISI (short)",
    body: "Zentria may cause dizziness. Do not drive until you know how it affects you.",
    status: "approved",
  });
  await page.getByRole("button", { name: "New version" }).click();
  await page.getByRole("menuitem", { name: "Edit the text" }).click();
  const editor = page.getByRole("textbox", { name: "Version text" });
  await expect(editor).toContainText("within one week");
  await editor.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" Ask your doctor whether Zentria is right for you.");
  await dialog.getByRole("button", { name: "Insert module" }).click();
  await page.getByRole("menuitem", { name: /Zentria ISI \(short\)/ }).click();
  await dialog.getByLabel("Change note").fill("Rewritten in Fairbalance with a call to action");
  await dialog.getByRole("button", { name: "Add version" }).click();
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await expect(page.getByTestId("authored-content")).toContainText("Ask your doctor whether Zentria is right for you.");
  await expect(page.getByLabel("Version", { exact: true })).toHaveValue("3");
  await expect(page.getByTestId("authored-content").locator('[data-module-kind="isi"]')).toContainText("Zentria may cause dizziness.");
  await page.getByRole("tab", { name: "Modules" }).click();
  await expect(page.getByRole("list", { name: "Modules used" })).toContainText("Zentria ISI (short)");
  await page.screenshot({ path: `${SHOTS}/detail-authored-modules-1440.png` });

  // The history, and compare from it.
  await page.getByRole("tab", { name: /Versions/ }).click();
  await expect(page.getByRole("list", { name: "Versions" }).getByRole("listitem")).toHaveCount(3);
  await page.getByRole("checkbox", { name: "Select v1 to compare" }).click();
  await page.getByRole("checkbox", { name: "Select v2 to compare" }).click();
  await page.getByRole("button", { name: "Compare" }).click();
  await expect(page).toHaveURL(/compare=1%2C2|compare=1,2/);
  const compare = page.getByTestId("compare-view");
  await expect(compare.locator("ins", { hasText: "one week" })).toBeVisible();
  await expect(compare.locator("del", { hasText: "two weeks" })).toBeVisible();
  await expect(page.getByTestId("diff-summary")).toContainText("+3 words");
  await expect(page.getByTestId("diff-summary")).toContainText("1 of 3 pages changed");
  await page.getByLabel("Changes only").click();
  await expect(compare.getByRole("heading", { name: /Page 2/ })).toHaveCount(0);
  await expect(compare.getByText("2 unchanged pages are hidden.")).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/compare-1440.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/compare-390.png`, fullPage: true });

  // The authored version, narrow and dark.
  await page.goto(`/assets/${asset.id}`);
  await expect(page.getByTestId("authored-content")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/detail-authored-390.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `${SHOTS}/detail-authored-1440-dark.png` });
  await page.goto(`/assets/${asset.id}?compare=2,3`);
  await expect(page.getByTestId("compare-view").locator("ins").first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/compare-1440-dark.png` });
  await expectAccessible(page);
});

test("the PDF viewer at 390 px wide", async ({ page, server }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInFast(page, server, marketer);
  await page.goto(`/assets/${asset.id}`);
  await pageRendered(page, 1);
  expect(await inkedPixels(page, 1)).toBeGreaterThan(200);
  await page.screenshot({ path: `${SHOTS}/detail-pdf-390.png`, fullPage: true });
  await expectAccessible(page);
});

test("a viewer reads the asset but is offered no actions", async ({ arrange, page, server }) => {
  const viewer = await arrange.member({ role: "viewer", orgId, fullName: "Vic Viewer" });
  await signInFast(page, server, viewer);
  await page.goto(`/assets/${asset.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Zentria launch detail aid" })).toBeVisible();
  await pageRendered(page, 1);
  await expect(page.getByRole("button", { name: "New version" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Edit details" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Archive" })).toHaveCount(0);
});

test("a writer edits the details and archives the asset", async ({ page, server }) => {
  await signInFast(page, server, marketer);
  await page.goto(`/assets/${asset.id}`);
  await page.getByRole("button", { name: "Edit details" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit details" });
  await dialog.getByLabel("Title").fill("Zentria detail aid (US)");
  await dialog.getByLabel("Channel").fill("Congress booth");
  await dialog.getByLabel("Expiry date").fill("2030-01-31");
  await dialog.getByRole("button", { name: "Save details" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { level: 1, name: "Zentria detail aid (US)" })).toBeVisible();
  await expect(page.getByText("Congress booth")).toBeVisible();

  await page.getByRole("button", { name: "Archive" }).click();
  const confirm = page.getByRole("dialog");
  await confirm.getByRole("button", { name: "Archive asset" }).click();
  await expect(page.getByTestId("asset-status")).toHaveText("Archived");
  await expect(page.getByRole("button", { name: "New version" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Edit details" })).toHaveCount(0);
});

test("another organisation sees 'Asset not found' and cannot reach the file", async ({ arrange, page, server }) => {
  const other = await arrange.workspace("Other Pharma");
  await signInFast(page, server, other.admin);
  await page.goto(`/assets/${asset.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Asset not found" })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/not-found-1440.png` });

  // The file itself: signing and downloading are refused as "not found".
  const owner = await accessToken(server, marketer);
  const version = (await (
    await fetch(`${server.url}/rest/v1/asset_versions?select=file_bucket,file_path&asset_id=eq.${asset.id}`, {
      headers: { apikey: server.anonKey, Authorization: `Bearer ${owner}` },
    })
  ).json()) as { file_bucket: string; file_path: string }[];
  const file = version[0];
  expect(file?.file_path).toBeTruthy();
  const theirs = await accessToken(server, other.admin);
  const headers = { apikey: server.anonKey, Authorization: `Bearer ${theirs}`, "Content-Type": "application/json" };
  const sign = await fetch(`${server.url}/storage/v1/object/sign/${file?.file_bucket}/${file?.file_path}`, {
    method: "POST",
    headers,
    body: JSON.stringify({ expiresIn: 60 }),
  });
  expect([400, 404]).toContain(sign.status);
  const download = await fetch(`${server.url}/storage/v1/object/authenticated/${file?.file_bucket}/${file?.file_path}`, { headers });
  expect([400, 404]).toContain(download.status);
  expect(await download.text()).not.toContain("%PDF");
  // And the rows: nothing.
  const rows = await fetch(`${server.url}/rest/v1/assets?id=eq.${asset.id}`, { headers });
  expect(await rows.json()).toEqual([]);
});

test("images: zoom, and two versions side by side and overlaid", async ({ page, server }) => {
  const token = await accessToken(server, marketer);
  const red = makePng(320, 200, (x) => (x < 160 ? [200, 30, 30] : [240, 240, 240]));
  const blue = makePng(320, 200, (x) => (x < 160 ? [30, 60, 200] : [240, 240, 240]));
  const banner = await createFileAsset(server, token, { title: "Zentria web banner", bytes: red, fileName: "banner.png", contentType: "image/png", type: "banner" });
  const path = await uploadAssetFile(server, token, blue, "banner-blue.png", "image/png");
  await rpcAs(server, token, "add_asset_version", { asset_id: banner.id, file_path: path, file_name: "banner-blue.png", change_note: "Brand blue" });

  await signInFast(page, server, marketer);
  await page.goto(`/assets/${banner.id}`);
  const img = page.getByRole("img", { name: "Zentria web banner, v2" });
  await expect(img).toBeVisible();
  expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(320);
  await page.getByRole("button", { name: "Zoom in" }).click();
  await expect(page.getByRole("button", { name: "Fit", exact: true })).toHaveAttribute("aria-pressed", "false");

  await page.goto(`/assets/${banner.id}?compare=1,2`);
  await expect(page.getByRole("img", { name: "Version 1" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Version 2" })).toBeVisible();
  await page.getByRole("tab", { name: "Overlay" }).click();
  const slider = page.getByLabel("Reveal v2");
  await slider.fill("80");
  await expect(slider).toHaveValue("80");
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/compare-images-overlay-1440.png` });
});

test("in review, New version is disabled and says why", async ({ page, server }) => {
  // Submitted for review through the API: the product's ISI is on page 3 of the PDF.
  const product = await insertAs<{ id: string }>(server, await accessToken(server, admin), "products", {
    brand_name: "Zentria",
    isi_text: "Do not use Zentria if you are allergic to zentramab.",
  });
  const token = await accessToken(server, marketer);
  const res = await fetch(`${server.url}/rest/v1/assets?id=eq.${asset.id}`, {
    method: "PATCH",
    headers: { apikey: server.anonKey, Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ product_id: product.id }),
  });
  expect(res.ok, await res.text()).toBe(true);
  await rpcAs(server, token, "submit_for_review", { asset_id: asset.id });
  await signInFast(page, server, marketer);
  await page.goto(`/assets/${asset.id}`);
  await expect(page.getByTestId("asset-status")).toHaveText("In review");
  const button = page.getByRole("button", { name: "New version" });
  await expect(button).toBeDisabled();
  await button.locator("..").focus();
  await expect(page.getByRole("tooltip")).toHaveText("This asset is in review: its version cannot change while the round is open.");
});
