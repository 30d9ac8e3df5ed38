import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { accessToken, rpcAs } from "./support/content-api";
import { expect, expectAccessible, type Member, signInFast, test } from "./support/fixtures";
import { samplePdf } from "./support/sample-pdf";
import type { Server } from "./support/server";

// The Content & Modules Hub: composing an asset with a module, uploading a
// PDF with progress, search with highlighted snippets, the viewer's
// read-only view (and the server's refusal), Products & ISI for admins, and
// linking a claim to a reference passage.

const SHOTS = "/tmp/shots-hub";
mkdirSync(SHOTS, { recursive: true });

const UUID = /\/assets\/[0-9a-f-]{36}$/;

/** A REST call as the token's member; returns the JSON, failing on an error. */
async function restAs<T>(server: Server, token: string, path: string, init: RequestInit): Promise<T> {
  const res = await fetch(`${server.url}/rest/v1/${path}`, {
    ...init,
    headers: {
      apikey: server.anonKey,
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
      Prefer: "return=representation",
      ...(init.headers as Record<string, string> | undefined),
    },
  });
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function approvedModule(server: Server, token: string, title: string, body: string): Promise<{ id: string }> {
  const [row] = await restAs<{ id: string }[]>(server, token, "modules", {
    method: "POST",
    body: JSON.stringify({ kind: "isi", title, body, status: "approved" }),
  });
  if (!row) throw new Error("no module row");
  return row;
}

async function shot(page: Page, name: string, fullPage = true) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
}

let admin: Member;
let marketer: Member;
let orgId: string;

test.beforeEach(async ({ arrange }) => {
  ({ admin, orgId } = await arrange.workspace("Northwind Therapeutics"));
  marketer = await arrange.member({ role: "marketer", orgId, fullName: "Mara Marketer" });
});

test("a marketer composes an asset with an inserted module and lands on its page; search finds it", async ({ page, server }) => {
  test.setTimeout(120_000);
  const token = await accessToken(server, marketer);
  const mod = await approvedModule(server, await accessToken(server, admin), "Core ISI", "Do not use in patients with severe hepatic impairment.");

  await signInFast(page, server, marketer);
  await page.goto("/content");
  await expect(page.getByRole("heading", { level: 1, name: "Content & Modules Hub" })).toBeVisible();
  await expect(page.getByText("No assets yet")).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("button", { name: "New asset" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New asset" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Title").fill("Spring HCP email");
  await dialog.getByLabel("Type").selectOption("email");
  await dialog.getByLabel("Channel").fill("Rep-triggered email");
  const editor = dialog.getByRole("textbox", { name: "Asset content" });
  await editor.click();
  await editor.pressSequentially("Zephyrine lowers nightly symptoms for most adults. ");
  await expectAccessible(page);
  await shot(page, "create-compose-1440", false);

  await dialog.getByRole("button", { name: "Insert module" }).click();
  await page.getByRole("menuitem", { name: /Core ISI/ }).click();
  await expect(editor.locator(`span[data-module-id="${mod.id}"]`)).toBeVisible();
  await expect(editor.locator("span[data-module-id]")).toContainText("severe hepatic impairment");
  await shot(page, "create-compose-module-1440", false);

  await dialog.getByRole("button", { name: "Create asset" }).click();
  await expect(page).toHaveURL(UUID);
  const assetId = page.url().split("/").pop() ?? "";

  // The stored version keeps the module marked as such.
  const versions = await restAs<{ content_html: string }[]>(server, token, `asset_versions?asset_id=eq.${assetId}&select=content_html`, {
    method: "GET",
  });
  expect(versions[0]?.content_html).toContain(`data-module-id="${mod.id}"`);

  // Search by a word of the body: ranked result with the word highlighted.
  await page.goto("/content");
  await expect(page.getByRole("link", { name: "Spring HCP email" })).toBeVisible();
  await page.getByRole("searchbox", { name: "Search assets" }).fill("zephyrine");
  await expect(page).toHaveURL(/q=zephyrine/);
  const result = page.getByRole("list", { name: "Search results" }).getByRole("listitem").first();
  await expect(result).toContainText("Spring HCP email");
  await expect(result.locator("mark")).toHaveText(/zephyrine/i);
  await shot(page, "hub-search-1440");
  await result.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/assets/${assetId}$`));
});

test("a marketer uploads a PDF asset with a progress bar", async ({ page, server }) => {
  test.setTimeout(120_000);
  await signInFast(page, server, marketer);
  await page.goto("/content?new=1");
  const dialog = page.getByRole("dialog", { name: "New asset" });
  await dialog.getByRole("tab", { name: "Upload" }).click();
  await dialog.getByLabel("Title").fill("Detail aid — efficacy");
  await dialog.getByLabel("Type").selectOption("detail_aid");

  // A file of the wrong type is refused before anything is sent.
  await dialog.getByLabel("File").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await expect(dialog.getByRole("alert")).toContainText("is not a file type Fairbalance accepts here");

  const pages = Array.from({ length: 40 }, (_, p) =>
    Array.from({ length: 36 }, (_, l) => `Page ${p + 1} line ${l + 1}: efficacy data with confidence intervals and safety outcomes.`),
  );
  const pdf = samplePdf(pages, { title: "Detail aid" });
  await dialog.getByLabel("File").setInputFiles({ name: "detail-aid.pdf", mimeType: "application/pdf", buffer: pdf });
  await expect(dialog.getByText("detail-aid.pdf")).toBeVisible();
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  await shot(page, "create-upload-1440", false);

  // Slow the upload so the progress bar is seen (the file is ~130 KB: about 4 s at 32 KB/s; faster,
  // a CI run saw the upload finish between the container's check and the bar's).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 32 * 1024 });
  await dialog.getByRole("button", { name: "Create asset" }).click();
  const progress = dialog.getByTestId("upload-progress");
  await expect(progress).toBeVisible();
  await expect(progress.getByRole("progressbar")).toBeVisible();
  await expect(progress).toContainText(/\d+%/);
  await shot(page, "create-upload-progress-1440", false);
  await expect(page).toHaveURL(UUID, { timeout: 60_000 });
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
});

test("a viewer sees no New asset button and the server refuses create_asset", async ({ page, server, arrange }) => {
  const viewer = await arrange.member({ role: "viewer", orgId, fullName: "Vic Viewer" });
  await signInFast(page, server, viewer);
  await page.goto("/content-hub");
  await expect(page.getByRole("heading", { level: 1, name: "Content & Modules Hub" })).toBeVisible();
  await expect(page.getByText("Assets appear here once your marketers create them.")).toBeVisible();
  await expect(page.getByRole("button", { name: "New asset" })).toHaveCount(0);
  // Even with the URL that opens the dialog.
  await page.goto("/content?new=1");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  const refusal = await page.evaluate(async (anonKey) => {
    const session = JSON.parse(window.localStorage.getItem("fairbalance.auth") ?? "{}") as { access_token?: string };
    const res = await fetch("/rest/v1/rpc/create_asset", {
      method: "POST",
      headers: { apikey: anonKey, Authorization: `Bearer ${session.access_token ?? ""}`, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "Sneaky", type: "email", audience: "hcp", channel: "x", market: "US", content_html: "<p>x</p>" }),
    });
    return { status: res.status, body: (await res.json()) as { message?: string } };
  }, server.anonKey);
  expect(refusal.status).toBeGreaterThanOrEqual(400);
  expect(refusal.status).toBeLessThan(500);
  expect(refusal.body.message).toBeTruthy();
});

test("an admin adds, edits and deactivates a product with its ISI; others do not see the section", async ({ page, server, browser }) => {
  await signInFast(page, server, admin);
  await page.goto("/settings");
  const card = page.getByRole("heading", { name: "Products & ISI" });
  await expect(card).toBeVisible();
  await page.getByRole("button", { name: "Add product" }).click();
  const dialog = page.getByRole("dialog", { name: "Add product" });
  await dialog.getByLabel("Brand name").fill("Zephyra");
  await dialog.getByLabel("Established name").fill("zephyrimab");
  await dialog.getByLabel("Approved indications").fill("Moderate to severe plaque psoriasis in adults.");
  await dialog.getByLabel("Important Safety Information (ISI)").fill("Serious infections may occur. Do not start during an active infection.");
  await dialog.getByLabel("Launch date").fill("2026-03-01");
  await dialog.getByLabel("Add market").fill("us");
  await dialog.getByLabel("Add market").press("Enter");
  await dialog.getByLabel("Add market").fill("EU");
  await dialog.getByLabel("Add market").press("Enter");
  await expect(dialog.getByRole("button", { name: "Remove US" })).toBeVisible();
  await expectAccessible(page);
  await shot(page, "settings-product-dialog-1440", false);
  await dialog.getByRole("button", { name: "Add product" }).click();
  await expect(dialog).toBeHidden();
  const list = page.getByRole("list", { name: "Products & ISI" });
  await expect(list).toContainText("Zephyra");
  await expect(list).toContainText("(zephyrimab)");
  await expect(list).toContainText("EU");

  await page.getByRole("button", { name: "Edit Zephyra" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Zephyra" });
  await edit.getByLabel("Brand name").fill("Zephyra XR");
  await edit.getByRole("button", { name: "Save product" }).click();
  await expect(list).toContainText("Zephyra XR");

  await page.getByRole("button", { name: "Deactivate Zephyra XR" }).click();
  await expect(list).toContainText("Inactive");
  await shot(page, "settings-products-1440");

  // The new product is offered in the Hub's filters.
  await page.goto("/content");
  await expect(page.getByRole("combobox", { name: "Product" }).locator("option", { hasText: "Zephyra XR" })).toHaveCount(1);

  // A marketer's Settings have no products section.
  const context = await browser.newContext({ baseURL: server.url });
  const other = await context.newPage();
  await signInFast(other, server, marketer);
  await other.goto("/settings");
  await expect(other.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await expect(other.getByText("How Fairbalance keeps you informed, and how content is reviewed here.")).toBeVisible();
  await expect(other.getByRole("heading", { name: "Products & ISI" })).toHaveCount(0);
  await context.close();
});

test("a marketer links a claim to a reference passage; a passage not on the page is refused", async ({ page, server }) => {
  test.setTimeout(120_000);
  const token = await accessToken(server, marketer);
  // The reference with its PDF, arranged through the API.
  const [ref] = await restAs<{ id: string }[]>(server, token, "references", {
    method: "POST",
    body: JSON.stringify({ title: "ZEPHYR-1 trial", citation: "Doe J, et al. Lancet. 2025;401:100-110.", kind: "clinical_study" }),
  });
  if (!ref) throw new Error("no reference");
  const pdf = samplePdf(
    [
      ["ZEPHYR-1: a randomised trial", "Methods and population."],
      ["Results", "PASI 75 was reached by 71% of patients at week 16."],
    ],
    { title: "ZEPHYR-1" },
  );
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

  await signInFast(page, server, marketer);
  await page.goto("/content?tab=references");
  await expect(page.getByRole("list", { name: "References" })).toContainText("PDF · 2 pages");

  await page.getByRole("tab", { name: /Claims/ }).click();
  await expect(page).toHaveURL(/tab=claims/);
  await page.getByRole("button", { name: "New claim" }).first().click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toHaveAccessibleName("New claim");
  await dialog.getByLabel("Claim", { exact: true }).fill("71% of patients reached PASI 75 at week 16.");
  await dialog.getByRole("button", { name: "Create claim" }).click();
  await expect(dialog).toHaveAccessibleName("Edit claim");
  await expect(dialog.getByText("No passages linked yet.")).toBeVisible();

  const form = dialog.getByRole("form", { name: "Link reference passage" });
  await form.getByLabel("Reference").selectOption({ label: "ZEPHYR-1 trial (2 p.)" });
  await form.getByLabel("Page").fill("1");
  await form.getByLabel("Quoted passage").fill("PASI 75 was reached by 71% of patients");
  await form.getByRole("button", { name: "Link passage" }).click();
  await expect(form.getByRole("alert")).toContainText("The quoted passage was not found on page 1 of the reference.");

  await form.getByLabel("Page").fill("2");
  await form.getByRole("button", { name: "Link passage" }).click();
  const linked = dialog.getByRole("list", { name: "Linked passages" });
  await expect(linked).toContainText("ZEPHYR-1 trial, p. 2: “PASI 75 was reached by 71% of patients”");
  await expectAccessible(page);
  await shot(page, "claim-dialog-1440", false);

  await linked.getByRole("button", { name: "Unlink passage on page 2" }).click();
  await expect(dialog.getByText("No passages linked yet.")).toBeVisible();
});

test("a marketer adds a reference and uploads its PDF from the References tab", async ({ page, server }) => {
  await signInFast(page, server, marketer);
  await page.goto("/content?tab=references");
  await expect(page.getByText("No references yet")).toBeVisible();
  await page.getByRole("button", { name: "New reference" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New reference" });
  await dialog.getByLabel("Title").fill("Zephyra prescribing information");
  await dialog.getByLabel("Citation").fill("Zephyra (zephyrimab) PI. Northwind Therapeutics; 2026.");
  await dialog.getByLabel("Kind").selectOption("prescribing_information");
  const pdf = samplePdf([["Indications and usage"], ["Dosage"], ["Warnings and precautions"]], { title: "PI" });
  await dialog.getByLabel("PDF").setInputFiles({ name: "zephyra-pi.pdf", mimeType: "application/pdf", buffer: pdf });
  await expect(dialog.getByText(/zephyra-pi\.pdf · \d/)).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Add reference" }).click();
  await expect(dialog).toBeHidden();
  const list = page.getByRole("list", { name: "References" });
  await expect(list).toContainText("Zephyra prescribing information");
  await expect(list).toContainText("Prescribing information");
  await expect(list).toContainText("PDF · 3 pages");
  await shot(page, "hub-references-1440");

  // Search over references finds it by a word of its citation.
  await page.getByRole("searchbox", { name: "Search references" }).fill("zephyrimab");
  await expect(page.getByRole("list", { name: "Search results" })).toContainText("Zephyra prescribing information");
});

test("screenshots of the hub at 1440 and 390 px, light and dark", async ({ page, server }) => {
  test.setTimeout(120_000);
  const token = await accessToken(server, marketer);
  // Approved content is an administrator's (or a reviewer's) decision.
  const adminToken = await accessToken(server, admin);
  await approvedModule(server, adminToken, "Boxed warning", "WARNING: serious infections and malignancy.");
  const [claim] = await restAs<{ id: string }[]>(server, adminToken, "claims", {
    method: "POST",
    body: JSON.stringify({ text: "Clear skin at week 16 for most patients.", status: "approved", expires_at: "2026-12-01" }),
  });
  expect(claim).toBeTruthy();
  const types = ["email", "detail_aid", "banner", "web_page", "social_post"];
  for (let i = 0; i < 7; i++) {
    await rpcAs(server, token, "create_asset", {
      title: ["Spring HCP email", "Efficacy detail aid", "Congress banner", "Patient website — home", "Awareness post", "Follow-up email", "Leave-behind"][i],
      type: types[i % types.length],
      audience: i % 2 ? "patient" : "hcp",
      channel: "Email",
      market: i % 3 ? "US" : "EU",
      expires_at: i === 1 ? "2026-12-10" : i === 2 ? "2026-01-15" : null,
      content_html: `<p>Asset ${i} body text about efficacy.</p>`,
      content_json: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: `Asset ${i} body text about efficacy.` }] }] },
    });
  }
  await signInFast(page, server, marketer);
  await page.goto("/content");
  await expect(page.getByRole("table", { name: "Assets" })).toBeVisible();
  await expectAccessible(page);
  await shot(page, "hub-assets-1440");

  // Filters and sort live in the URL; the list is read again with them.
  await page.getByRole("combobox", { name: "Market" }).selectOption("EU");
  await expect(page).toHaveURL(/market=EU/);
  await expect(page.getByRole("table", { name: "Assets" }).getByRole("row")).toHaveCount(4); // header + 3 EU assets
  await page.getByRole("combobox", { name: "Sort by" }).selectOption("title");
  await expect(page).toHaveURL(/sort=title/);
  await expect(page.getByRole("table", { name: "Assets" }).getByRole("row").nth(1)).toContainText("Leave-behind");
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Market" })).toHaveValue("EU");
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).not.toHaveURL(/market=/);
  await page.goto("/content?tab=modules");
  await expect(page.getByText("Boxed warning")).toBeVisible();
  await shot(page, "hub-modules-1440");
  await page.goto("/content?tab=claims");
  await expect(page.getByText("Clear skin at week 16")).toBeVisible();
  await shot(page, "hub-claims-1440");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/content");
  await expect(page.getByRole("list", { name: "Assets" })).toBeVisible();
  await expectAccessible(page);
  await shot(page, "hub-assets-390");
  await page.getByRole("button", { name: "Filters" }).click();
  await expect(page.getByRole("combobox", { name: "Status" })).toBeVisible();
  await shot(page, "hub-filters-390", false);
  await page.goto("/content?tab=modules");
  await expect(page.getByText("Boxed warning")).toBeVisible();
  await shot(page, "hub-modules-390");
  await page.goto("/content?new=1");
  await expect(page.getByRole("dialog", { name: "New asset" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Asset content" })).toBeVisible();
  await shot(page, "create-compose-390", false);
  await page.getByRole("textbox", { name: "Asset content" }).scrollIntoViewIfNeeded();
  await shot(page, "create-compose-390-editor", false);

  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/content");
  await expect(page.getByRole("table", { name: "Assets" })).toBeVisible();
  await shot(page, "hub-assets-1440-dark");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "hub-assets-390-dark");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/content?new=1");
  await expect(page.getByRole("textbox", { name: "Asset content" })).toBeVisible();
  await shot(page, "create-compose-1440-dark", false);
  await page.goto("/content?tab=references");
  await expect(page.getByText("No references yet")).toBeVisible();
  await shot(page, "hub-references-empty-1440-dark");
});

test("the demo workspace's content in the preview, at 1440 and 390 px", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto("/?preview=1");
  await expect(page.getByText("Preview Mode — authentication disabled; data is demo")).toBeVisible();
  await page.goto("/content");
  await expect(page.getByRole("heading", { level: 1, name: "Content & Modules Hub" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Assets" }).getByRole("row").nth(1)).toBeVisible({ timeout: 20_000 });
  await expectAccessible(page);
  await shot(page, "demo-hub-assets-1440");
  for (const [tab, label] of [
    ["modules", "Modules"],
    ["claims", "Claims"],
    ["references", "References"],
  ] as const) {
    await page.goto(`/content?tab=${tab}`);
    await expect(page.getByRole("list", { name: label })).toBeVisible();
    await shot(page, `demo-hub-${tab}-1440`);
  }
  await page.getByRole("list", { name: "References" }).getByRole("button").first().click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await shot(page, "demo-reference-dialog-1440", false);
  await page.keyboard.press("Escape");
  await page.goto("/content?tab=claims");
  await page.getByRole("list", { name: "Claims" }).getByRole("button").first().click();
  await expect(page.getByRole("list", { name: "Linked passages" })).toBeVisible();
  await shot(page, "demo-claim-dialog-1440", false);
  await page.keyboard.press("Escape");
  await page.goto("/content?q=dose");
  await expect(page.getByRole("list", { name: "Search results" })).toBeVisible();
  await shot(page, "demo-search-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/content");
  await expect(page.getByRole("list", { name: "Assets" })).toBeVisible();
  await shot(page, "demo-hub-assets-390");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/content");
  await expect(page.getByRole("table", { name: "Assets" })).toBeVisible();
  await shot(page, "demo-hub-assets-1440-dark");
  await context.close();
});

test("a claim's status is a reviewer's decision: the marketer sees it read-only and is refused; a reviewer approves", async ({ page, browser, server, arrange }) => {
  test.setTimeout(90_000);
  const reviewer = await arrange.member({ role: "reviewer_regulatory", orgId, fullName: "Rhea Reviewer" });
  const token = await accessToken(server, marketer);
  const [claim] = await restAs<{ id: string }[]>(server, token, "claims", {
    method: "POST",
    body: JSON.stringify({ text: "Clear skin at week 16 for most patients." }),
  });
  if (!claim) throw new Error("no claim row");

  // A direct PATCH to approved is refused in PostgREST's shape.
  const res = await fetch(`${server.url}/rest/v1/claims?id=eq.${claim.id}`, {
    method: "PATCH",
    headers: { apikey: server.anonKey, Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ status: "approved" }),
  });
  expect(res.status).toBe(403);
  const refusal = (await res.json()) as { code: string; message: string };
  expect(refusal.code).toBe("42501");
  expect(refusal.message).toBe("Only a reviewer or an administrator may set a claim to approved.");

  // The marketer edits the draft's text but sees its status read-only.
  await signInFast(page, server, marketer);
  await page.goto("/content?tab=claims");
  await page.getByRole("list", { name: "Claims" }).getByRole("button").first().click();
  const dialog = page.getByRole("dialog", { name: "Edit claim" });
  await expect(dialog.getByLabel("Status")).toBeDisabled();
  await expect(dialog.getByLabel("Status")).toHaveValue("draft");
  await expect(dialog.getByText("Set by a reviewer or an administrator.")).toBeVisible();
  await dialog.getByLabel("Claim", { exact: true }).fill("Clear skin at week 16 for most adults.");
  await dialog.getByRole("button", { name: "Save claim" }).click();
  await expect(dialog).toBeHidden();

  // The reviewer approves it, changing nothing else.
  const context = await browser.newContext({ baseURL: server.url });
  const reviewerPage = await context.newPage();
  await signInFast(reviewerPage, server, reviewer);
  await reviewerPage.goto("/content?tab=claims");
  await reviewerPage.getByRole("list", { name: "Claims" }).getByRole("button").first().click();
  const review = reviewerPage.getByRole("dialog", { name: "Claim" });
  await expect(review.getByLabel("Claim", { exact: true })).toHaveAttribute("readonly", "");
  await review.getByLabel("Status").selectOption("approved");
  await review.getByRole("button", { name: "Save claim" }).click();
  await expect(review).toBeHidden();
  await context.close();

  const [row] = await restAs<{ status: string; text: string }[]>(server, token, `claims?id=eq.${claim.id}&select=status,text`, { method: "GET" });
  expect(row).toEqual({ status: "approved", text: "Clear skin at week 16 for most adults." });
});

test("an approved claim's passages: the marketer reads them and is refused a change; an administrator unlinks one", async ({ page, browser, server }) => {
  test.setTimeout(90_000);
  const adminToken = await accessToken(server, admin);
  const [ref] = await restAs<{ id: string }[]>(server, adminToken, "references", {
    method: "POST",
    body: JSON.stringify({ title: "ZEPHYR-1 trial", citation: "Lancet 2026" }),
  });
  const [claim] = await restAs<{ id: string }[]>(server, adminToken, "claims", {
    method: "POST",
    body: JSON.stringify({ text: "71% of patients reached PASI 75 at week 16.", status: "approved" }),
  });
  if (!ref || !claim) throw new Error("no reference or claim row");
  await restAs(server, adminToken, "claim_references", {
    method: "POST",
    body: JSON.stringify({ claim_id: claim.id, reference_id: ref.id, page: 2, passage: "PASI 75 was reached by 71% of patients" }),
  });

  // The server refuses the marketer, in PostgREST's shape.
  const res = await fetch(`${server.url}/rest/v1/claim_references?claim_id=eq.${claim.id}`, {
    method: "DELETE",
    headers: { apikey: server.anonKey, Authorization: `Bearer ${await accessToken(server, marketer)}` },
  });
  expect(res.status).toBe(403);
  expect(((await res.json()) as { message: string }).message).toBe("The claim is approved; only an administrator may change its supporting passages.");

  // The dialog shows the passage to read, and says why it offers no change.
  await signInFast(page, server, marketer);
  await page.goto("/content?tab=claims");
  await page.getByRole("list", { name: "Claims" }).getByRole("button").first().click();
  const dialog = page.getByRole("dialog", { name: "Claim" });
  await expect(dialog.getByRole("list", { name: "Linked passages" })).toContainText("ZEPHYR-1 trial, p. 2: “PASI 75 was reached by 71% of patients”");
  await expect(dialog.getByText("The claim is approved; only an administrator may change its passages.")).toBeVisible();
  await expect(dialog.getByRole("button", { name: /Unlink/ })).toHaveCount(0);
  await expect(dialog.getByRole("form", { name: "Link reference passage" })).toHaveCount(0);
  await expectAccessible(page);

  // An administrator changes the passages of any claim.
  const context = await browser.newContext({ baseURL: server.url });
  const adminPage = await context.newPage();
  await signInFast(adminPage, server, admin);
  await adminPage.goto("/content?tab=claims");
  await adminPage.getByRole("list", { name: "Claims" }).getByRole("button").first().click();
  const edit = adminPage.getByRole("dialog", { name: "Edit claim" });
  await expect(edit.getByRole("form", { name: "Link reference passage" })).toBeVisible();
  await edit.getByRole("button", { name: "Unlink passage on page 2" }).click();
  await expect(edit.getByText("No passages linked yet.")).toBeVisible();
  await context.close();
});

test("an asset's owner is chosen among the members who can write content", async ({ page, server, arrange }) => {
  await arrange.member({ role: "reviewer_medical", orgId, fullName: "Rita Reviewer" });
  await arrange.member({ role: "viewer", orgId, fullName: "Vic Viewer" });
  await arrange.member({ role: "marketer", orgId, fullName: "Max Marketer" });
  const asset = await rpcAs<{ id: string }>(server, await accessToken(server, marketer), "create_asset", {
    title: "Spring HCP email",
    type: "email",
    audience: "hcp",
    channel: "Email",
    market: "US",
    content_html: "<p>Spring efficacy message.</p>",
  });

  await signInFast(page, server, marketer);
  await page.goto(`/assets/${asset.id}`);
  await page.getByRole("button", { name: "Edit details" }).click();
  const owner = page.getByRole("dialog", { name: "Edit details" }).getByLabel("Owner");
  await expect(owner.locator("option")).toHaveText(["Alex Admin", "Mara Marketer", "Max Marketer"]);
  await expect(owner).toHaveValue(marketer.id);
});
