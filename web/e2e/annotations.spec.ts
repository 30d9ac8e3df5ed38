import { mkdirSync, readFileSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { accessToken, createFileAsset, insertAs, rpcAs, uploadAssetFile } from "./support/content-api";
import { expect as baseExpect, expectAccessible, type Member, signInFast, test } from "./support/fixtures";
import { selectWords } from "./support/pdf-selection";
import { makePng } from "./support/png";
import { samplePdf } from "./support/sample-pdf";
import type { Server } from "./support/server";
import { expectNoSidewaysScroll } from "./support/layout";

// Annotations on an asset's page (issue 16), in the browser against the
// real server: a medical reviewer selects a sentence of a PDF and comments
// on it as a claim that needs a reference, picking the supporting passage
// in the reference's PDF beside the version; comments on a sentence of
// another page and on an area drawn on a third; replies with a mention;
// requests changes with a change request pointing at the first comment.
// The marketer uploads version 2 with the sentence moved to another page
// and the other deleted: the first comment is shown "moved" at its new
// place (where the checklist's "Show in document" leads), the second
// "orphaned" with its old quote, the area still anchored; the claim's
// reference opens beside the asset at the passage. A phone shows the page
// with its threads without sideways scrolling, and axe finds nothing
// serious. Round 1's review record downloads with the threads and the
// change request that points at one.

const SHOTS = "/tmp/annotateui-shots";
mkdirSync(SHOTS, { recursive: true });

// The shared test machine is often busy: allow for slow screens.
const expect = baseExpect.configure({ timeout: 20_000 });

const PHONE = { width: 390, height: 844 };
const ISI = "Important Safety Information: Do not use Zentria if you are allergic to zentramab.";
const CLAIM = "relieves moderate pain within two weeks";
const DELETED = "Avoid alcohol while taking Zentria.";
const PASSAGE = "PASI 75 was reached by 71% of patients";

function detailAid(version: 1 | 2): Buffer {
  const pages =
    version === 1
      ? [
          ["Zentria (zentramab) detail aid", "Zentria relieves moderate pain within two weeks for most adults.", "Most patients felt better by day three."],
          ["Dosing", "Take one tablet daily with food.", DELETED],
          ["Important Safety Information:", "Do not use Zentria if you are allergic to zentramab."],
        ]
      : [
          ["Zentria (zentramab) detail aid", "Most patients felt better by day three."],
          ["Dosing", "Take one tablet daily with food.", "Zentria relieves moderate pain within two weeks for most adults."],
          ["Important Safety Information:", "Do not use Zentria if you are allergic to zentramab."],
        ];
  return samplePdf(pages, { title: "Zentria detail aid" });
}

function studyPdf(): Buffer {
  return samplePdf(
    [
      ["ZEN-1: a randomised trial", "Methods and population."],
      ["Results", `${PASSAGE} at week 2 in the zentramab arm.`],
    ],
    { title: "ZEN-1" },
  );
}

interface World {
  marketer: Member;
  medical: Member;
  legal: Member;
  regulatory: Member;
  viewer: Member;
  assetId: string;
  referenceId: string;
}

/** A reference with its PDF attached, as `member`; returns its id. */
async function referenceWithPdf(server: Server, token: string): Promise<string> {
  const ref = await insertAs<{ id: string }>(server, token, "references", { title: "ZEN-1 trial", citation: "Doe J, et al. Lancet. 2026;402:10-20.", kind: "clinical_study" });
  const pdf = studyPdf();
  const prepared = await rpcAs<{ path: string; signed_url: string }>(server, token, "prepare_upload", {
    bucket: "reference-files",
    file_name: "zen-1.pdf",
    content_type: "application/pdf",
    size: pdf.length,
  });
  const put = await fetch(`${server.url}${prepared.signed_url}`, {
    method: "PUT",
    headers: { apikey: server.anonKey, Authorization: `Bearer ${token}`, "x-upsert": "false", "content-type": "application/pdf" },
    body: new Uint8Array(pdf),
  });
  expect(put.ok).toBe(true);
  await rpcAs(server, token, "attach_reference_file", { reference_id: ref.id, file_path: prepared.path, file_name: "zen-1.pdf" });
  return ref.id;
}

/** The organisation, a product with its ISI, the detail aid in review, a reference with its PDF. */
async function arrangeWorld(arrange: import("./support/fixtures").Arrange, server: Server): Promise<World> {
  const { orgId, admin } = await arrange.workspace("Acme Biologics");
  const marketer = await arrange.member({ role: "marketer", orgId, fullName: "Mara Marketer" });
  const medical = await arrange.member({ role: "reviewer_medical", orgId, fullName: "Dr. Mei Medical" });
  const legal = await arrange.member({ role: "reviewer_legal", orgId, fullName: "Lou Legal" });
  const regulatory = await arrange.member({ role: "reviewer_regulatory", orgId, fullName: "Rae Regulatory" });
  const viewer = await arrange.member({ role: "viewer", orgId, fullName: "Vic Viewer" });
  const product = await insertAs<{ id: string }>(server, await accessToken(server, admin), "products", {
    brand_name: "Zentria",
    established_name: "zentramab",
    isi_text: ISI,
  });
  const token = await accessToken(server, marketer);
  const path = await uploadAssetFile(server, token, detailAid(1), "zentria-detail-aid.pdf", "application/pdf");
  const asset = await rpcAs<{ id: string }>(server, token, "create_asset", {
    title: "Zentria launch detail aid",
    type: "detail_aid",
    product_id: product.id,
    audience: "hcp",
    channel: "Field force",
    market: "US",
    file_path: path,
    file_name: "zentria-detail-aid.pdf",
    change_note: "First draft",
  });
  await rpcAs(server, token, "submit_for_review", { asset_id: asset.id });
  const referenceId = await referenceWithPdf(server, token);
  return { marketer, medical, legal, regulatory, viewer, assetId: asset.id, referenceId };
}

/** `member` claims their role's step of the asset's open round and approves it, signing with their password. */
async function approveStep(server: Server, assetId: string, member: Member): Promise<void> {
  const token = await accessToken(server, member);
  const res = await fetch(`${server.url}/rest/v1/review_steps?select=id&asset_id=eq.${assetId}&role=eq.${member.role}&status=eq.active`, {
    headers: { apikey: server.anonKey, Authorization: `Bearer ${token}` },
  });
  const [step] = (await res.json()) as { id: string }[];
  if (!step) throw new Error(`no active ${member.role} step`);
  await rpcAs(server, token, "claim_step", { step_id: step.id });
  await rpcAs(server, token, "decide_step", { step_id: step.id, decision: "approved", comment: "No concerns.", password: member.password });
}

/** Opens the asset's page and waits for page 1 of its PDF and the comments panel. */
async function openAsset(page: Page, assetId: string, query = ""): Promise<void> {
  await page.goto(`/assets/${assetId}${query}`);
  await expect(page.getByRole("heading", { level: 1, name: "Zentria launch detail aid" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("threads-panel")).toBeVisible({ timeout: 30_000 });
}

/** Drags a box over page `n` from (x1, y1) to (x2, y2), in fractions of the page, scrolled so that the box is in view. */
async function dragBox(page: Page, n: number, [x1, y1, x2, y2]: [number, number, number, number]): Promise<void> {
  const el = page.locator(`[data-page-number="${n}"]`);
  await page.getByTestId("pdf-scroller").first().scrollIntoViewIfNeeded();
  await el.evaluate((e: HTMLElement, y) => {
    const scroller = e.closest<HTMLElement>('[data-testid="pdf-scroller"]');
    if (scroller) scroller.scrollTop = e.offsetTop + y * e.offsetHeight - 24;
  }, y1);
  const box = await el.boundingBox();
  if (!box) throw new Error(`page ${n} has no box`);
  await page.mouse.move(box.x + x1 * box.width, box.y + y1 * box.height);
  await page.mouse.down();
  await page.mouse.move(box.x + ((x1 + x2) / 2) * box.width, box.y + ((y1 + y2) / 2) * box.height, { steps: 4 });
  await page.mouse.move(box.x + x2 * box.width, box.y + y2 * box.height, { steps: 4 });
  await page.mouse.up();
}

/** The thread card whose quote (or area label) contains `text`. */
const thread = (page: Page, text: string | RegExp): Locator => page.getByTestId("thread").filter({ has: page.getByTestId("thread-quote").filter({ hasText: text }) });

test("annotate a PDF's text and an area, reply with a mention, point a change request at a comment, and see it moved on version 2", async ({ browser, server, arrange }) => {
  test.setTimeout(480_000);
  const world = await arrangeWorld(arrange, server);
  const medToken = await accessToken(server, world.medical);
  const [step] = await (
    await fetch(`${server.url}/rest/v1/review_steps?select=id,role&asset_id=eq.${world.assetId}&role=eq.reviewer_medical`, {
      headers: { apikey: server.anonKey, Authorization: `Bearer ${medToken}` },
    })
  ).json() as { id: string }[];
  if (!step) throw new Error("no medical step");
  await rpcAs(server, medToken, "claim_step", { step_id: step.id });

  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } });
  const med = await context.newPage();
  await signInFast(med, server, world.medical);
  await openAsset(med, world.assetId);
  await expect(med.getByTestId("threads-panel")).toContainText("No comments on this version yet.");

  // 1. A claim on page 1 that needs its reference: the passage picked in the reference's PDF beside the version.
  await selectWords(med, 1, CLAIM);
  await med.getByRole("button", { name: "Annotate" }).click();
  let dialog = med.getByRole("dialog", { name: "Comment on this text" });
  await expect(dialog.getByTestId("annotate-quote")).toContainText(CLAIM);
  // A medical reviewer's comment is a claim needing its reference unless they say otherwise.
  await expect(dialog.getByLabel("Category")).toHaveValue("claim_needs_reference");
  await dialog.getByRole("combobox", { name: "Comment" }).fill("Cite ZEN-1 for the onset within two weeks.");
  await dialog.getByLabel("Reference", { exact: true }).selectOption({ label: "ZEN-1 trial" });
  await med.screenshot({ path: `${SHOTS}/annotate-dialog-1440.png` });
  await dialog.getByRole("button", { name: "Select the passage in the reference" }).click();
  await expect(dialog).toBeHidden();
  const pane = med.getByTestId("reference-pane");
  await expect(pane).toBeVisible();
  await expect(pane).toContainText("Select the supporting words in the reference");
  await pane.getByLabel("Go to page").fill("2");
  await pane.getByRole("button", { name: "Go", exact: true }).click();
  await selectWords(pane, 2, PASSAGE);
  await med.screenshot({ path: `${SHOTS}/pick-passage-1440.png` });
  await pane.getByRole("button", { name: "Use this passage" }).click();
  dialog = med.getByRole("dialog", { name: "Comment on this text" });
  await expect(dialog.getByLabel("Page")).toHaveValue("2");
  await expect(dialog.getByLabel("Quoted passage")).toHaveValue(PASSAGE);
  await expect(dialog.getByRole("combobox", { name: "Comment" })).toHaveValue("Cite ZEN-1 for the onset within two weeks.");
  await dialog.getByRole("button", { name: "Add comment" }).click();
  await expect(dialog).toBeHidden();
  const claim = thread(med, CLAIM);
  await expect(claim).toBeVisible();
  await expect(claim.getByTestId("thread-category")).toHaveText("Claim needs reference");
  await expect(claim.getByTestId("anchor-status")).toHaveText("Anchored");
  await expect(claim.getByTestId("thread-reference")).toContainText("ZEN-1 trial, page 2");
  await med.getByRole("button", { name: "Close the reference" }).click();
  // The quote is marked on the page with its number.
  await expect(med.locator('[data-page-number="1"]').getByRole("button", { name: "Comment 1: Claim needs reference" })).toBeVisible();

  // 2. A sentence on page 2 that version 2 deletes.
  await selectWords(med, 2, DELETED);
  await med.getByRole("button", { name: "Annotate" }).click();
  dialog = med.getByRole("dialog", { name: "Comment on this text" });
  await dialog.getByLabel("Category").selectOption("fair_balance");
  await dialog.getByRole("combobox", { name: "Comment" }).fill("Say why alcohol matters, or leave it to the ISI.");
  await dialog.getByRole("button", { name: "Add comment" }).click();
  await expect(dialog).toBeHidden();
  await expect(thread(med, DELETED)).toBeVisible();

  // 3. An area drawn on page 3.
  await med.getByRole("button", { name: "Comment on an area" }).click();
  await dragBox(med, 3, [0.1, 0.08, 0.9, 0.2]);
  dialog = med.getByRole("dialog", { name: "Comment on an area of page 3" });
  await dialog.getByLabel("Category").selectOption("regulatory");
  await dialog.getByRole("combobox", { name: "Comment" }).fill("The ISI needs a box of its own here.");
  await dialog.getByRole("button", { name: "Add comment" }).click();
  await expect(dialog).toBeHidden();
  const area = thread(med, "Area on page 3");
  await expect(area).toBeVisible();
  await expect(med.locator('[data-page-number="3"]').getByTestId("region-box")).toHaveCount(1);
  // Three threads, in reading order: page 1, page 2, page 3.
  await expect(med.getByTestId("thread").getByTestId("thread-quote")).toHaveText([new RegExp(CLAIM), new RegExp(DELETED), /Area on page 3/]);

  // 4. A reply with a mention, picked from the members.
  await claim.getByRole("button", { name: "Reply" }).click();
  const reply = claim.getByRole("combobox", { name: "Reply to comment 1" });
  await reply.pressSequentially("@Mar");
  await expect(med.getByRole("option", { name: /Mara Marketer/ })).toBeVisible();
  await reply.press("Enter");
  await reply.pressSequentially("please add the ZEN-1 citation.");
  await expect(reply).toHaveValue("@Mara Marketer please add the ZEN-1 citation.");
  await claim.getByRole("button", { name: "Send reply" }).click();
  await expect(claim.getByTestId("reply")).toContainText("@Mara Marketer please add the ZEN-1 citation.");
  const notices = (await (
    await fetch(`${server.url}/rest/v1/notifications?select=kind,title&kind=eq.mentioned`, {
      headers: { apikey: server.anonKey, Authorization: `Bearer ${await accessToken(server, world.marketer)}` },
    })
  ).json()) as { kind: string; title: string }[];
  expect(notices.map((n) => n.title)).toContain("Dr. Mei Medical mentioned you on Zentria launch detail aid");

  // Selecting a thread in the panel selects it on the page, and the other way round.
  await area.getByRole("button", { name: /Show comment 3 in the document/ }).click();
  await expect(area).toHaveAttribute("aria-current", "true");
  await med.locator('[data-page-number="1"]').getByRole("button", { name: "Comment 1: Claim needs reference" }).click();
  await expect(claim).toHaveAttribute("aria-current", "true");
  await expectAccessible(med);
  await med.screenshot({ path: `${SHOTS}/threads-1440.png` });

  // 5. Request changes, one pointing at the claim's comment.
  await med.getByTestId("step-reviewer_medical").getByRole("button", { name: "Sign decision" }).click();
  const sign = med.getByRole("dialog", { name: "Sign the medical review" });
  await sign.getByRole("radio", { name: /^Request changes/ }).check();
  await sign.getByLabel("Comment", { exact: true }).fill("The onset claim needs its reference.");
  await sign.getByRole("textbox", { name: "Change request 1" }).fill("Cite ZEN-1 for the onset claim.");
  const pointsAt = sign.getByLabel("Points at (change request 1)");
  await expect(pointsAt.locator("option")).toHaveText(["No comment in particular", new RegExp(`^#1 “${CLAIM}`), new RegExp(`^#2 “${DELETED}`), "#3 Area on page 3"]);
  await pointsAt.selectOption({ index: 1 });
  await med.screenshot({ path: `${SHOTS}/sign-points-at-1440.png` });
  await sign.getByLabel("Password", { exact: true }).fill(world.medical.password);
  await sign.getByRole("button", { name: "Sign and request changes" }).click();
  await expect(sign).toBeHidden();
  // Legal and regulatory approve: the round closes asking for changes.
  await approveStep(server, world.assetId, world.legal);
  await approveStep(server, world.assetId, world.regulatory);

  // 6. Version 2: the claim's sentence moved to page 2, the alcohol sentence gone.
  const mToken = await accessToken(server, world.marketer);
  const v2 = await uploadAssetFile(server, mToken, detailAid(2), "zentria-detail-aid-v2.pdf", "application/pdf");
  await rpcAs(server, mToken, "add_asset_version", { asset_id: world.assetId, file_path: v2, file_name: "zentria-detail-aid-v2.pdf", change_note: "Onset claim moved to dosing" });

  const mContext = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } });
  const mk = await mContext.newPage();
  await signInFast(mk, server, world.marketer);
  await openAsset(mk, world.assetId);
  await expect(mk.getByLabel("Version", { exact: true })).toHaveValue("2");
  const moved = thread(mk, CLAIM);
  await expect(moved.getByTestId("anchor-status")).toHaveText("Moved");
  const orphan = thread(mk, DELETED);
  await expect(orphan.getByTestId("anchor-status")).toHaveText("Orphaned");
  await expect(orphan.getByTestId("orphan-note")).toHaveText("Not found in this version");
  await expect(orphan.getByTestId("thread-quote")).toHaveCSS("text-decoration-line", "line-through");
  await expect(thread(mk, "Area on page 3").getByTestId("anchor-status")).toHaveText("Anchored");
  // The reply followed the thread.
  await expect(moved.getByTestId("reply")).toContainText("please add the ZEN-1 citation.");

  // The checklist leads to the comment at its new place: page 2.
  const change = mk.getByTestId("checklist").getByTestId("change-request").filter({ hasText: "Cite ZEN-1 for the onset claim." });
  await change.getByRole("button", { name: "Show in document" }).click();
  await expect(moved).toHaveAttribute("aria-current", "true");
  await expect(mk.getByTestId("page-indicator")).toHaveText("Page 2 of 3");
  await expect(mk.locator('[data-page-number="2"]').getByRole("button", { name: /^Comment 1: Claim needs reference/ })).toBeVisible();
  await expect(mk.locator('[data-page-number="2"]').getByRole("button", { name: /^Comment 1: Claim needs reference/ })).toHaveAttribute("aria-pressed", "true");
  await mk.screenshot({ path: `${SHOTS}/moved-orphaned-1440.png` });

  // 7. The claim's reference beside the asset, at the passage.
  await moved.getByRole("button", { name: "Open reference" }).click();
  const beside = mk.getByTestId("reference-pane");
  await expect(beside.getByTestId("passage-status")).toHaveText("Passage highlighted on page 2", { timeout: 30_000 });
  const [docBox, refBox] = await Promise.all([mk.getByTestId("pdf-scroller").first().boundingBox(), beside.boundingBox()]);
  expect(docBox && refBox && refBox.x > docBox.x + docBox.width - 1, "the reference is beside the version").toBe(true);
  await mk.screenshot({ path: `${SHOTS}/reference-beside-1440.png` });
  await mk.getByRole("button", { name: "Close the reference" }).click();

  // 8. Round 1's record carries the three threads as they were on version 1 and the change request pointing at one.
  const exports = mk.getByTestId("review-card").getByRole("group", { name: "Review record of round 1" });
  const [file] = await Promise.all([mk.waitForEvent("download"), exports.getByRole("button", { name: "Review record (JSON)" }).click()]);
  const record = JSON.parse(readFileSync(await file.path(), "utf8")) as {
    version: { number: number };
    annotations: { thread_id: string; anchor_status: string; target: { type: string; exact?: string }; replies: { body: string }[] }[];
    change_requests: { text: string; thread_id: string | null }[];
  };
  expect(record.version.number).toBe(1);
  expect(record.annotations.map((a) => a.target.exact ?? a.target.type)).toEqual([CLAIM, DELETED, "region"]);
  const [claimThread] = record.annotations;
  expect(claimThread?.replies.map((r) => r.body)).toEqual(["@Mara Marketer please add the ZEN-1 citation."]);
  expect(record.change_requests).toEqual([expect.objectContaining({ text: "Cite ZEN-1 for the onset claim.", thread_id: claimThread?.thread_id })]);

  await context.close();
  await mContext.close();
});

test("a phone shows the asset with its threads without sideways scrolling; a viewer reads them with no write controls", async ({ browser, server, arrange }) => {
  test.setTimeout(240_000);
  const world = await arrangeWorld(arrange, server);
  const medToken = await accessToken(server, world.medical);
  const versionId = (
    (await (
      await fetch(`${server.url}/rest/v1/assets?select=current_version_id&id=eq.${world.assetId}`, {
        headers: { apikey: server.anonKey, Authorization: `Bearer ${medToken}` },
      })
    ).json()) as { current_version_id: string }[]
  )[0]?.current_version_id;
  const first = await rpcAs<{ id: string }>(server, medToken, "create_annotation", {
    version_id: versionId,
    category: "claim_needs_reference",
    body: "Cite ZEN-1 for this, @Mara Marketer.",
    target: { type: "text", exact: CLAIM, prefix: "Zentria ", suffix: " for most adults." },
    reference_id: world.referenceId,
    reference_page: 2,
    reference_quote: PASSAGE,
  });
  await rpcAs(server, medToken, "reply_annotation", { annotation_id: first.id, body: "A long reply that wraps on a phone screen without pushing the page sideways: supercalifragilisticexpialidocious-words-included." });
  await rpcAs(server, medToken, "create_annotation", {
    version_id: versionId,
    category: "regulatory",
    body: "The ISI needs a box of its own here.",
    target: { type: "region", page: 3, x: 0.1, y: 0.08, width: 0.8, height: 0.12 },
  });

  const phone = await browser.newContext({ baseURL: server.url, viewport: PHONE, isMobile: true, hasTouch: true });
  const mp = await phone.newPage();
  await signInFast(mp, server, world.marketer);
  await openAsset(mp, world.assetId);
  await expect(mp.getByTestId("thread")).toHaveCount(2);
  await expectNoSidewaysScroll(mp);
  await expectAccessible(mp);
  await mp.screenshot({ path: `${SHOTS}/asset-threads-390.png`, fullPage: true });
  await mp.getByTestId("comments-card").scrollIntoViewIfNeeded();
  await mp.screenshot({ path: `${SHOTS}/comments-card-390.png` });
  // Choosing a thread brings the document into view at its place.
  await thread(mp, "Area on page 3").getByRole("button", { name: /Show comment 2 in the document/ }).click();
  await expect(mp.locator('[data-page-number="3"]').getByTestId("region-box")).toBeInViewport();
  await expectNoSidewaysScroll(mp);
  await mp.screenshot({ path: `${SHOTS}/asset-focus-390.png` });
  // The reference opens in a sheet on a phone.
  await thread(mp, CLAIM).getByRole("button", { name: "Open reference" }).click();
  await expect(mp.getByRole("dialog").getByTestId("passage-status")).toHaveText("Passage highlighted on page 2", { timeout: 30_000 });
  await expectNoSidewaysScroll(mp);
  await mp.screenshot({ path: `${SHOTS}/reference-sheet-390.png` });
  await phone.close();

  // A viewer reads the threads but is offered no writes.
  const vc = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } });
  const vp = await vc.newPage();
  await signInFast(vp, server, world.viewer);
  await openAsset(vp, world.assetId);
  await expect(vp.getByTestId("thread")).toHaveCount(2);
  await expect(vp.getByRole("button", { name: "Reply" })).toHaveCount(0);
  await expect(vp.getByRole("button", { name: "Resolve" })).toHaveCount(0);
  await expect(vp.getByRole("button", { name: "Comment on an area" })).toHaveCount(0);
  await selectWords(vp, 1, "Most patients felt better");
  await vp.waitForTimeout(300);
  await expect(vp.getByRole("button", { name: "Annotate" })).toHaveCount(0);
  await vc.close();
});

test("composed text is annotated by selecting its words, an image by drawing on it", async ({ page, server, arrange }) => {
  test.setTimeout(180_000);
  const { orgId } = await arrange.workspace("Acme Biologics");
  const legal = await arrange.member({ role: "reviewer_legal", orgId, fullName: "Lou Legal" });
  const marketer = await arrange.member({ role: "marketer", orgId, fullName: "Mara Marketer" });
  const token = await accessToken(server, marketer);
  const email = await rpcAs<{ id: string }>(server, token, "create_asset", {
    title: "Zentria launch email",
    type: "email",
    audience: "hcp",
    channel: "Email",
    market: "US",
    content_html: "<h1>Zentria</h1><p>Zentria is <strong>the best</strong> pain relief for adults.</p><p>See the full Prescribing Information.</p>",
    content_json: { type: "doc", content: [] },
  });
  const banner = await createFileAsset(server, token, {
    title: "Zentria banner",
    bytes: makePng(400, 200, (x, y) => (x > 100 && x < 300 && y > 50 && y < 150 ? [20, 120, 110] : [250, 250, 250])),
    fileName: "banner.png",
    contentType: "image/png",
    type: "banner",
  });
  await signInFast(page, server, legal);

  // Composed text: select words, annotate; the quote is highlighted and numbered.
  await page.goto(`/assets/${email.id}`);
  const article = page.getByTestId("authored-content");
  await expect(article).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("button", { name: "Comment on an area" })).toHaveCount(0);
  await article.evaluate((el) => {
    const strong = el.querySelector("strong");
    const text = strong?.firstChild;
    if (!text) throw new Error("no strong text");
    const range = document.createRange();
    range.setStart(text, 0);
    range.setEnd(text, text.textContent?.length ?? 0);
    window.getSelection()?.removeAllRanges();
    window.getSelection()?.addRange(range);
  });
  await page.getByRole("button", { name: "Annotate" }).click();
  const dialog = page.getByRole("dialog", { name: "Comment on this text" });
  await expect(dialog.getByLabel("Category")).toHaveValue("legal");
  await dialog.getByRole("combobox", { name: "Comment" }).fill("An unqualified superlative: say what it is compared with.");
  await dialog.getByRole("button", { name: "Add comment" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("thread").getByTestId("thread-quote")).toHaveText("“the best”");
  await expect(page.getByRole("button", { name: "Comment 1: Legal" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/authored-1440.png` });

  // An image: draw a box on it.
  await page.goto(`/assets/${banner.id}`);
  const image = page.getByRole("img", { name: /Zentria banner/ });
  await expect(image).toBeVisible({ timeout: 60_000 });
  await page.getByRole("button", { name: "Comment on an area" }).click();
  const box = await image.boundingBox();
  if (!box) throw new Error("no image box");
  await page.mouse.move(box.x + box.width * 0.25, box.y + box.height * 0.25);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5, { steps: 4 });
  await page.mouse.move(box.x + box.width * 0.75, box.y + box.height * 0.75, { steps: 4 });
  await page.mouse.up();
  const area = page.getByRole("dialog", { name: "Comment on this area of the image" });
  await area.getByRole("combobox", { name: "Comment" }).fill("The claim in the box needs the ISI beside it.");
  await area.getByRole("button", { name: "Add comment" }).click();
  await expect(area).toBeHidden();
  await expect(page.getByTestId("thread").getByTestId("thread-quote")).toHaveText("Area of the image");
  await expect(page.getByTestId("region-box")).toHaveCount(1);
  const drawn = await page.getByTestId("region-box").boundingBox();
  expect(drawn && Math.abs(drawn.width - box.width / 2) < 4 && Math.abs(drawn.x - (box.x + box.width / 4)) < 4, "the box is where it was drawn").toBe(true);
  await page.screenshot({ path: `${SHOTS}/image-1440.png` });
});
