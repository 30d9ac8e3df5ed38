import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { accessToken, insertAs, rpcAs, uploadAssetFile } from "./support/content-api";
import { expect as baseExpect, expectAccessible, type Member, signInFast, test } from "./support/fixtures";
import { samplePdf } from "./support/sample-pdf";
import type { Server } from "./support/server";
import { expectNoSidewaysScroll } from "./support/layout";

// The MLR review workflow on an asset's page (issue 15), driven through the
// UI by four people in four browsers: a marketer submits (after the
// ready-for-review gate told her what was missing); the medical, legal and
// regulatory reviewers claim their steps; medical asks for two changes
// while legal and regulatory approve, so the round closes asking for
// changes; the marketer uploads version 2, marks both changes done and
// resubmits; medical confirms them and approves; all three sign, and the
// asset is approved with an expiry date and the signatures' manifestation.
// A wrong password refuses to sign; the author is never offered a decision.
// Organisation, members, product and asset are arranged through the API.

const SHOTS = "/tmp/reviewasset-shots";
mkdirSync(SHOTS, { recursive: true });

// The shared test machine is often busy: allow for slow screens.
const expect = baseExpect.configure({ timeout: 20_000 });

const PHONE = { width: 390, height: 844 };
const ISI = "Important Safety Information: Do not use Zentria if you are allergic to zentramab.";

function detailAid(onset: string): Buffer {
  return samplePdf(
    [
      ["Zentria (zentramab) detail aid", `Zentria relieves moderate pain within ${onset} for most adults.`],
      ["Important Safety Information:", "Do not use Zentria if you are allergic to zentramab."],
    ],
    { title: "Zentria detail aid" },
  );
}

interface Cast {
  admin: Member;
  marketer: Member;
  medical: Member;
  legal: Member;
  regulatory: Member;
}

/** The organisation's people, a product with its ISI, and a draft detail aid (no product chosen yet). */
async function arrangeWorld(arrange: import("./support/fixtures").Arrange, server: Server): Promise<Cast & { productId: string; assetId: string }> {
  const { orgId, admin } = await arrange.workspace("Acme Biologics");
  const marketer = await arrange.member({ role: "marketer", orgId, fullName: "Mara Marketer" });
  const medical = await arrange.member({ role: "reviewer_medical", orgId, fullName: "Dr. Mei Medical" });
  const legal = await arrange.member({ role: "reviewer_legal", orgId, fullName: "Lou Legal" });
  const regulatory = await arrange.member({ role: "reviewer_regulatory", orgId, fullName: "Rae Regulatory" });
  const product = await insertAs<{ id: string }>(server, await accessToken(server, admin), "products", {
    brand_name: "Zentria",
    established_name: "zentramab",
    isi_text: ISI,
  });
  const token = await accessToken(server, marketer);
  const path = await uploadAssetFile(server, token, detailAid("two weeks"), "zentria-detail-aid.pdf", "application/pdf");
  const asset = await rpcAs<{ id: string }>(server, token, "create_asset", {
    title: "Zentria launch detail aid",
    type: "detail_aid",
    audience: "hcp",
    channel: "Field force",
    market: "US",
    file_path: path,
    file_name: "zentria-detail-aid.pdf",
    change_note: "First draft",
  });
  return { admin, marketer, medical, legal, regulatory, productId: product.id, assetId: asset.id };
}

async function signedInPage(browser: Browser, server: Server, member: Member): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signInFast(page, server, member);
  return { context, page };
}

/** Opens (or reopens, to see the others' work) the asset's page and waits for its review card. */
async function openAsset(page: Page, assetId: string): Promise<void> {
  await page.goto(`/assets/${assetId}`);
  // A cold start on a busy machine can take a while.
  await expect(page.getByRole("heading", { level: 1, name: "Zentria launch detail aid" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("heading", { level: 2, name: "Review" })).toBeVisible({ timeout: 30_000 });
}

const step = (page: Page, role: "medical" | "legal" | "regulatory"): Locator => page.getByTestId(`step-reviewer_${role}`).first();

/** Signs the step of `role` with `decision`, a comment, change requests, and the member's password. */
async function sign(page: Page, role: "medical" | "legal" | "regulatory", decision: RegExp, comment: string, password: string, changes: string[] = []): Promise<Locator> {
  await step(page, role).getByRole("button", { name: "Sign decision" }).click();
  const dialog = page.getByRole("dialog", { name: `Sign the ${role} review` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("radio", { name: decision }).check();
  await dialog.getByLabel("Comment", { exact: true }).fill(comment);
  for (const [i, text] of changes.entries()) {
    if (i > 0) await dialog.getByRole("button", { name: "Add another change request" }).click();
    await dialog.getByRole("textbox", { name: `Change request ${i + 1}` }).fill(text);
  }
  await dialog.getByLabel("Password", { exact: true }).fill(password);
  await dialog.getByRole("button", { name: /^Sign and / }).click();
  return dialog;
}

test("one full round: submit, claim, changes requested, version 2, done, resubmit, confirm, approve with signatures", async ({ browser, server, arrange }) => {
  test.setTimeout(600_000);
  const started = Date.now();
  const world = await arrangeWorld(arrange, server);
  const [m, med, leg, reg] = await Promise.all([
    signedInPage(browser, server, world.marketer),
    signedInPage(browser, server, world.medical),
    signedInPage(browser, server, world.legal),
    signedInPage(browser, server, world.regulatory),
  ]);
  const marketer = m.page;

  // The gate lists what is missing before the marketer tries: the product, hence its ISI.
  await openAsset(marketer, world.assetId);
  await expect(marketer.getByTestId("asset-status")).toHaveText("Draft");
  const unmet = marketer.getByTestId("review-card").getByTestId("gate-unmet");
  await expect(unmet).toContainText("Choose the product the asset promotes.");
  await expect(unmet).toContainText("Important Safety Information");
  await marketer.getByRole("button", { name: "Edit details" }).click();
  const details = marketer.getByRole("dialog", { name: "Edit details" });
  await details.getByLabel("Product").selectOption({ label: "Zentria" });
  await details.getByRole("button", { name: "Save details" }).click();
  await expect(details).toBeHidden();
  await expect(marketer.getByTestId("review-card").getByTestId("gate-ready")).toBeVisible();

  // Submitted: three parallel steps, active.
  await marketer.getByRole("button", { name: "Submit for review" }).first().click();
  const submit = marketer.getByRole("dialog", { name: "Submit for review" });
  await expect(submit.getByTestId("gate-ready")).toBeVisible();
  await submit.getByRole("button", { name: "Submit round 1" }).click();
  await expect(submit).toBeHidden();
  await expect(marketer.getByTestId("asset-status")).toHaveText("In review");
  await expect(marketer.getByTestId("round-status")).toHaveText("Round 1 · In review");
  for (const role of ["medical", "legal", "regulatory"] as const) {
    await expect(step(marketer, role).getByTestId("step-status")).toHaveText("In review");
  }
  // The author is never offered a decision.
  await expect(marketer.getByTestId("author-note")).toBeVisible();
  await expect(marketer.getByRole("button", { name: "Sign decision" })).toHaveCount(0);
  await expect(marketer.getByRole("button", { name: "Claim" })).toHaveCount(0);

  // Each reviewer claims their own step; nobody is offered another role's.
  // The three open the asset at the same time, as reviewers do.
  await Promise.all([med.page, leg.page, reg.page].map((who) => openAsset(who, world.assetId)));
  for (const [who, role, name] of [
    [med.page, "medical", "Dr. Mei Medical"],
    [leg.page, "legal", "Lou Legal"],
    [reg.page, "regulatory", "Rae Regulatory"],
  ] as const) {
    await expect(who.getByRole("button", { name: "Sign decision" })).toHaveCount(1);
    await step(who, role).getByRole("button", { name: "Claim" }).click();
    await expect(step(who, role)).toContainText(name);
    await expect(step(who, role).getByRole("button", { name: "Claim" })).toHaveCount(0);
  }

  // The page of a reviewer in review: accessible, and no sideways scrolling on a phone.
  await expectAccessible(med.page);
  await med.page.screenshot({ path: `${SHOTS}/in-review-1440.png`, fullPage: true });

  // Medical asks for two changes.
  await step(med.page, "medical").getByRole("button", { name: "Sign decision" }).click();
  await med.page.getByRole("dialog", { name: "Sign the medical review" }).getByRole("radio", { name: /^Request changes/ }).check();
  await med.page.screenshot({ path: `${SHOTS}/sign-dialog-1440.png` });
  await med.page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  let dialog = await sign(med.page, "medical", /^Request changes/, "Two points before this can go to the field.", world.medical.password, [
    "Cite the ZEN-1 study for the onset claim.",
    "Move the ISI onto the first page.",
  ]);
  await expect(dialog).toBeHidden();
  await expect(step(med.page, "medical").getByTestId("step-status")).toHaveText("Changes requested");
  await expect(step(med.page, "medical").getByTestId("signer-name")).toHaveText("Dr. Mei Medical");
  await expect(step(med.page, "medical").getByTestId("meaning")).toContainText("Review");

  // A wrong password refuses to sign: said beside the password, nothing signed.
  await step(leg.page, "legal").getByRole("button", { name: "Sign decision" }).click();
  dialog = leg.page.getByRole("dialog", { name: "Sign the legal review" });
  await dialog.getByRole("radio", { name: /^Approve(?! with)/ }).check();
  await dialog.getByLabel("Comment", { exact: true }).fill("No legal concerns.");
  await dialog.getByLabel("Password", { exact: true }).fill("Not-My-Password-1");
  await dialog.getByRole("button", { name: "Sign and approve" }).click();
  await expect(dialog.getByText("The password is wrong; the step was not signed.")).toBeVisible();
  await expect(dialog.getByLabel("Password", { exact: true })).toHaveValue("");
  await dialog.getByLabel("Password", { exact: true }).fill(world.legal.password);
  await dialog.getByRole("button", { name: "Sign and approve" }).click();
  await expect(dialog).toBeHidden();
  await expect(step(leg.page, "legal").getByTestId("step-status")).toHaveText("Approved");

  dialog = await sign(reg.page, "regulatory", /^Approve(?! with)/, "Labelling consistent.", world.regulatory.password);
  await expect(dialog).toBeHidden();
  await expect(reg.page.getByTestId("asset-status")).toHaveText("Changes requested");

  // The marketer sees the round closed and the checklist; the gate says what is left.
  await openAsset(marketer, world.assetId);
  await expect(marketer.getByTestId("asset-status")).toHaveText("Changes requested");
  const checklist = marketer.getByTestId("checklist");
  await expect(checklist.getByTestId("change-request")).toHaveCount(2);
  await expect(marketer.getByTestId("gate-unmet")).toContainText("Mark every change request of the last round done");
  await expect(marketer.getByTestId("gate-unmet")).toContainText("add a new version");
  await marketer.screenshot({ path: `${SHOTS}/checklist-1440.png`, fullPage: true });

  // Version 2, both changes done with a note.
  await marketer.getByRole("button", { name: "New version" }).click();
  await marketer.getByRole("menuitem", { name: "Upload a file" }).click();
  const upload = marketer.getByRole("dialog", { name: "New version" });
  await upload.locator('input[type="file"]').setInputFiles({ name: "zentria-detail-aid-v2.pdf", mimeType: "application/pdf", buffer: detailAid("one week") });
  await upload.getByLabel("Change note").fill("ZEN-1 cited; ISI on page 1");
  await upload.getByRole("button", { name: "Add version" }).click();
  await expect(upload).toBeHidden({ timeout: 30_000 });
  for (const note of ["Cited under the claim.", "The ISI now opens page 1."]) {
    await checklist.getByRole("button", { name: "Mark done" }).first().click();
    const done = marketer.getByRole("dialog", { name: "Mark the change done" });
    await done.getByLabel("Note (optional)").fill(note);
    await done.getByRole("button", { name: "Mark done" }).click();
    await expect(done).toBeHidden();
  }
  await expect(checklist).toContainText("2 of 2 done");
  await expect(marketer.getByTestId("review-card").getByTestId("gate-ready")).toBeVisible();
  await marketer.getByRole("button", { name: "Resubmit" }).first().click();
  const resubmit = marketer.getByRole("dialog", { name: "Resubmit for review" });
  await resubmit.getByRole("button", { name: "Submit round 2" }).click();
  await expect(resubmit).toBeHidden();
  await expect(marketer.getByTestId("round-status")).toHaveText("Round 2 · In review");

  // The reviewers open round 2. Medical cannot approve before confirming
  // its requests; confirms both on version 2, then approves.
  await Promise.all([med.page, leg.page, reg.page].map((who) => openAsset(who, world.assetId)));
  await expect(step(med.page, "medical")).toContainText("Approval waits for 2 change requests");
  await step(med.page, "medical").getByRole("button", { name: "Sign decision" }).click();
  dialog = med.page.getByRole("dialog", { name: "Sign the medical review" });
  await expect(dialog.getByText("Approval waits for the checklist")).toBeVisible();
  await expect(dialog.getByRole("radio", { name: /^Approve(?! with)/ })).toBeDisabled();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  const medChecklist = med.page.getByTestId("checklist");
  for (let i = 0; i < 2; i++) {
    await medChecklist.getByRole("button", { name: "Confirm" }).first().click();
    await expect(medChecklist).toContainText(`${i + 1} of 2 confirmed`);
  }
  dialog = await sign(med.page, "medical", /^Approve(?! with)/, "Both changes made; approved.", world.medical.password);
  await expect(dialog).toBeHidden();

  for (const [who, role, member] of [
    [leg.page, "legal", world.legal],
    [reg.page, "regulatory", world.regulatory],
  ] as const) {
    await expect(step(who, role).getByTestId("step-status")).toHaveText("In review");
    dialog = await sign(who, role, /^Approve(?! with)/, "Approved.", member.password);
    await expect(dialog).toBeHidden();
  }

  // Approved, with an expiry a year out and every signature's manifestation on the asset's page.
  await openAsset(marketer, world.assetId);
  await expect(marketer.getByTestId("asset-status")).toHaveText("Approved");
  const card = marketer.getByTestId("review-card");
  await expect(card).toContainText("v2 is approved for use");
  const expiry = new Date();
  expiry.setUTCFullYear(expiry.getUTCFullYear() + 1);
  await expect(card).toContainText(String(expiry.getUTCFullYear()));
  const signatures = card.getByRole("list", { name: "Steps of round 2" }).getByTestId("signature");
  await expect(signatures).toHaveCount(3);
  await expect(signatures.getByTestId("signer-name")).toHaveText(["Dr. Mei Medical", "Lou Legal", "Rae Regulatory"]);
  for (const s of await signatures.getByTestId("signed-at").all()) await expect(s).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
  await expect(signatures.getByTestId("meaning").first()).toContainText("Approval");
  await step(marketer, "medical").getByRole("button", { name: "Verify" }).click();
  await expect(step(marketer, "medical").getByTestId("verification")).toContainText("Signature valid");
  // Round 1 stays in the history with its decisions.
  await marketer.getByTestId("round-1").locator("summary").click();
  await expect(marketer.getByTestId("round-1")).toContainText("Two points before this can go to the field.");
  const seconds = (Date.now() - started) / 1000;
  // Reported, never asserted (speed is not an end-to-end test's business).
  test.info().annotations.push({ type: "full round", description: `${seconds.toFixed(1)} s` });
  console.log(`full round through the UI: ${seconds.toFixed(1)} s`);
  await marketer.screenshot({ path: `${SHOTS}/approved-1440.png`, fullPage: true });

  await Promise.all([m.context.close(), med.context.close(), leg.context.close(), reg.context.close()]);
});

test("on a phone: the asset in review, the sign dialog and the checklist fit without sideways scrolling", async ({ browser, server, arrange }) => {
  test.setTimeout(120_000);
  const world = await arrangeWorld(arrange, server);
  const token = await accessToken(server, world.marketer);
  // The product makes the asset ready; the marketer submits through the API here.
  const adminToken = await accessToken(server, world.admin);
  const res = await fetch(`${server.url}/rest/v1/assets?id=eq.${world.assetId}`, {
    method: "PATCH",
    headers: { apikey: server.anonKey, Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ product_id: world.productId }),
  });
  expect(res.ok).toBe(true);
  const round = await rpcAs<{ steps: { id: string; role: string }[] }>(server, token, "submit_for_review", { asset_id: world.assetId });
  const medicalToken = await accessToken(server, world.medical);
  const medicalStep = round.steps.find((s) => s.role === "reviewer_medical");
  if (!medicalStep) throw new Error("no medical step");
  await rpcAs(server, medicalToken, "claim_step", { step_id: medicalStep.id });

  const context = await browser.newContext({ baseURL: server.url, viewport: PHONE });
  const page = await context.newPage();
  await signInFast(page, server, world.medical);
  await openAsset(page, world.assetId);
  await expect(step(page, "medical").getByRole("button", { name: "Sign decision" })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/in-review-390.png`, fullPage: true });

  await step(page, "medical").getByRole("button", { name: "Sign decision" }).click();
  const dialog = page.getByRole("dialog", { name: "Sign the medical review" });
  await dialog.getByRole("radio", { name: /^Request changes/ }).check();
  await dialog.getByRole("button", { name: "Add another change request" }).click();
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/sign-dialog-390.png` });
  await dialog.getByLabel("Comment", { exact: true }).fill("Two things.");
  await dialog.getByRole("textbox", { name: "Change request 1" }).fill("Cite the ZEN-1 study for the onset claim.");
  await dialog.getByRole("textbox", { name: "Change request 2" }).fill("Move the ISI onto the first page.");
  await dialog.getByLabel("Password", { exact: true }).fill(world.medical.password);
  await dialog.getByRole("button", { name: "Sign and request changes" }).click();
  await expect(dialog).toBeHidden();

  // The decision shows its manifestation on the phone too.
  await expect(step(page, "medical").getByTestId("signer-name")).toHaveText("Dr. Mei Medical");
  await expectNoSidewaysScroll(page);
  await context.close();
});

test("an admin changes an approved asset's expiry and withdraws it with a reason", async ({ page, server, arrange }) => {
  test.setTimeout(120_000);
  const world = await arrangeWorld(arrange, server);
  const adminToken = await accessToken(server, world.admin);
  const res = await fetch(`${server.url}/rest/v1/assets?id=eq.${world.assetId}`, {
    method: "PATCH",
    headers: { apikey: server.anonKey, Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ product_id: world.productId }),
  });
  expect(res.ok).toBe(true);
  const round = await rpcAs<{ steps: { id: string; role: string }[] }>(server, await accessToken(server, world.marketer), "submit_for_review", {
    asset_id: world.assetId,
  });
  for (const [member, role] of [
    [world.medical, "reviewer_medical"],
    [world.legal, "reviewer_legal"],
    [world.regulatory, "reviewer_regulatory"],
  ] as const) {
    const s = round.steps.find((x) => x.role === role);
    if (!s) throw new Error(`no ${role} step`);
    await rpcAs(server, await accessToken(server, member), "decide_step", { step_id: s.id, decision: "approved", comment: "Approved.", password: member.password });
  }

  await signInFast(page, server, world.admin);
  await openAsset(page, world.assetId);
  await expect(page.getByTestId("asset-status")).toHaveText("Approved");
  await page.screenshot({ path: `${SHOTS}/approved-admin-1440.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${SHOTS}/approved-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });

  const year = new Date().getUTCFullYear() + 2;
  await page.getByRole("button", { name: "Change expiry" }).click();
  const expiry = page.getByRole("dialog", { name: "Change the expiry date" });
  await expiry.getByLabel("Expiry date").fill(`${year}-03-31`);
  await expiry.getByRole("button", { name: "Save expiry" }).click();
  await expect(expiry).toBeHidden();
  await expect(page.getByTestId("review-card")).toContainText(String(year));

  await page.getByRole("button", { name: "Withdraw asset" }).click();
  const withdraw = page.getByRole("dialog", { name: /^Withdraw “/ });
  await withdraw.getByRole("button", { name: "Withdraw asset" }).click();
  await expect(withdraw.getByText("The reason is required.")).toBeVisible();
  await withdraw.getByLabel("Reason").fill("The 2026 label update changes the dosing section.");
  await withdraw.getByRole("button", { name: "Withdraw asset" }).click();
  await expect(withdraw).toBeHidden();
  await expect(page.getByTestId("asset-status")).toHaveText("Withdrawn");
  await expect(page.getByTestId("review-card")).toContainText("must not be used");
});
