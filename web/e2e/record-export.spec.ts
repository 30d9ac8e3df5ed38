import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { accessToken, insertAs, rpcAs, uploadAssetFile } from "./support/content-api";
import { expect as baseExpect, expectAccessible, type Member, signInFast, test } from "./support/fixtures";
import { samplePdf } from "./support/sample-pdf";
import type { Server } from "./support/server";

// The exports of issue 16 on an asset's review card: an approved detail
// aid's round offers its review record (PDF, JSON) and the asset its Form
// 2253 data (PDF, JSON) to a marketer, at 1440 and 390 px; each downloads
// under the server's file name with the content the server made; a viewer
// is offered none. The round, its annotations and signatures are arranged
// through the API.

const SHOTS = "/tmp/record-shots";
mkdirSync(SHOTS, { recursive: true });

const expect = baseExpect.configure({ timeout: 20_000 });
const ISI = "Important Safety Information: Do not use Zentria if you are allergic to zentramab.";

interface World {
  marketer: Member;
  viewer: Member;
  assetId: string;
  jobCode: string;
  reviewId: string;
}

/** An approved detail aid of Zentria, annotated, decided and signed by three reviewers. */
async function arrangeApproved(arrange: import("./support/fixtures").Arrange, server: Server): Promise<World> {
  const { orgId, admin } = await arrange.workspace("Acme Biologics");
  const marketer = await arrange.member({ role: "marketer", orgId, fullName: "Mara Marketer" });
  const medical = await arrange.member({ role: "reviewer_medical", orgId, fullName: "Dr. Mei Medical" });
  const legal = await arrange.member({ role: "reviewer_legal", orgId, fullName: "Lou Legal" });
  const regulatory = await arrange.member({ role: "reviewer_regulatory", orgId, fullName: "Rae Regulatory" });
  const viewer = await arrange.member({ role: "viewer", orgId, fullName: "Vera Viewer" });
  const product = await insertAs<{ id: string }>(server, await accessToken(server, admin), "products", {
    brand_name: "Zentria",
    established_name: "zentramab",
    isi_text: ISI,
  });
  const token = await accessToken(server, marketer);
  const pdf = samplePdf(
    [
      ["Zentria (zentramab) detail aid", "Zentria relieves moderate pain within two weeks for most adults."],
      ["Important Safety Information:", "Do not use Zentria if you are allergic to zentramab."],
    ],
    { title: "Zentria detail aid" },
  );
  const path = await uploadAssetFile(server, token, pdf, "zentria-detail-aid.pdf", "application/pdf");
  const asset = await rpcAs<{ id: string; job_code: string; current_version_id: string }>(server, token, "create_asset", {
    title: "Zentria launch detail aid",
    type: "detail_aid",
    audience: "hcp",
    channel: "Field force",
    market: "US",
    product_id: product.id,
    file_path: path,
    file_name: "zentria-detail-aid.pdf",
  });
  const [medT, legT, regT] = await Promise.all([accessToken(server, medical), accessToken(server, legal), accessToken(server, regulatory)]);
  const claim = await rpcAs<{ id: string }>(server, medT, "create_annotation", {
    version_id: asset.current_version_id,
    category: "claim_needs_reference",
    body: "Which study shows relief within two weeks?",
    target: { type: "text", exact: "relieves moderate pain within two weeks" },
  });
  await rpcAs(server, token, "reply_annotation", { annotation_id: claim.id, body: "The ZEN-2 study, page 4." });
  await rpcAs(server, legT, "create_annotation", {
    version_id: asset.current_version_id,
    category: "legal",
    body: "The logo needs the registered trademark symbol.",
    target: { type: "region", page: 1, x: 0.1, y: 0.05, width: 0.4, height: 0.08 },
  });
  const round = await rpcAs<{ id: string; steps: { id: string; role: string }[] }>(server, token, "submit_for_review", { asset_id: asset.id });
  const tokens: Record<string, string> = { reviewer_medical: medT, reviewer_legal: legT, reviewer_regulatory: regT };
  for (const s of round.steps) {
    const decision = s.role === "reviewer_legal" ? "approved_with_changes" : "approved";
    await rpcAs(server, tokens[s.role] ?? "", "decide_step", { step_id: s.id, decision, comment: `Reviewed by ${s.role}.`, password: marketer.password });
  }
  return { marketer, viewer, assetId: asset.id, jobCode: asset.job_code, reviewId: round.id };
}

async function openAsset(browser: Browser, server: Server, member: Member, assetId: string, width: number): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width, height: width < 500 ? 844 : 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await signInFast(page, server, member);
  await page.goto(`/assets/${assetId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Zentria launch detail aid" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("heading", { level: 2, name: "Review" })).toBeVisible({ timeout: 30_000 });
  return page;
}

/** Clicks `button` and returns the file the browser saved, with its name. */
async function download(page: Page, button: ReturnType<Page["getByRole"]>): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent("download"), button.click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), bytes: readFileSync(path) };
}

test("an approved round's review record and the asset's Form 2253 data download from the review card", async ({ browser, server, arrange }) => {
  test.setTimeout(240_000);
  const world = await arrangeApproved(arrange, server);

  const page = await openAsset(browser, server, world.marketer, world.assetId, 1440);
  const card = page.getByTestId("review-card");
  const round = card.getByRole("group", { name: "Review record of round 1" });
  const form = card.getByRole("group", { name: "Form 2253 data" });
  await expect(round.getByRole("button", { name: "Review record (PDF)" })).toBeVisible();
  await expect(form.getByRole("button", { name: "Form 2253 (PDF)" })).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/asset-1440.png`, fullPage: true });
  await card.screenshot({ path: `${SHOTS}/review-card-1440.png` });
  await expectAccessible(page);

  const pdf = await download(page, round.getByRole("button", { name: "Review record (PDF)" }));
  expect(pdf.name).toBe(`review-record-${world.jobCode}-round-1.pdf`);
  expect(pdf.bytes.subarray(0, 5).toString()).toBe("%PDF-");
  writeFileSync(`${SHOTS}/${pdf.name}`, pdf.bytes);
  await expect(page.getByText("Review record downloaded")).toBeVisible();

  const json = await download(page, round.getByRole("button", { name: "Review record (JSON)" }));
  expect(json.name).toBe(`review-record-${world.jobCode}-round-1.json`);
  const record = JSON.parse(json.bytes.toString()) as {
    format: string;
    round: { id: string; status: string };
    steps: { signature: { signer_name: string; seal: string; sig: string } | null }[];
    annotations: { body: string; replies: unknown[] }[];
  };
  expect(record.format).toBe("fairbalance.review_record.v1");
  expect(record.round).toMatchObject({ id: world.reviewId, status: "approved" });
  expect(record.steps.map((s) => s.signature?.signer_name).sort()).toEqual(["Dr. Mei Medical", "Lou Legal", "Rae Regulatory"]);
  expect(record.annotations).toHaveLength(2);

  const form2253 = await download(page, form.getByRole("button", { name: "Form 2253 (PDF)" }));
  expect(form2253.name).toBe(`form-2253-${world.jobCode}.pdf`);
  expect(form2253.bytes.subarray(0, 5).toString()).toBe("%PDF-");
  writeFileSync(`${SHOTS}/${form2253.name}`, form2253.bytes);
  const formJson = await download(page, form.getByRole("button", { name: "Form 2253 (JSON)" }));
  expect(JSON.parse(formJson.bytes.toString())).toMatchObject({ applicant: "Acme Biologics", product: { proprietary_name: "Zentria", established_name: "zentramab" } });
  await page.context().close();

  // On a phone the buttons wrap under the approval and the round, and nothing scrolls sideways.
  const phone = await openAsset(browser, server, world.marketer, world.assetId, 390);
  const phoneCard = phone.getByTestId("review-card");
  await phoneCard.getByRole("group", { name: "Form 2253 data" }).scrollIntoViewIfNeeded();
  await expect(phoneCard.getByRole("group", { name: "Review record of round 1" }).getByRole("button", { name: "Review record (PDF)" })).toBeVisible();
  await phone.waitForTimeout(300);
  const widths = await phone.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: document.documentElement.clientWidth }));
  expect(widths.doc).toBeLessThanOrEqual(widths.view);
  await phoneCard.screenshot({ path: `${SHOTS}/review-card-390.png` });
  await phone.screenshot({ path: `${SHOTS}/asset-390.png`, fullPage: true });
  await expectAccessible(phone);
  await phone.context().close();

  // A viewer reads the review and is offered no export.
  const viewer = await openAsset(browser, server, world.viewer, world.assetId, 1440);
  await expect(viewer.getByTestId("review-card").getByTestId("signature").first()).toBeVisible();
  await expect(viewer.getByRole("button", { name: /Review record|Form 2253/ })).toHaveCount(0);
  await viewer.context().close();
});
