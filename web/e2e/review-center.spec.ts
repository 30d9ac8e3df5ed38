import { mkdirSync } from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { accessToken, insertAs, rpcAs } from "./support/content-api";
import { Arrange, expect as baseExpect, expectAccessible, type Member, PASSWORD, signInFast, test } from "./support/fixtures";
import type { Server } from "./support/server";
import { expectNoSidewaysScroll } from "./support/layout";

// Issue 15: the Review Center (/review) and the Command Center (/) with real
// rounds. One organisation is arranged through the workflow's own functions
// (submit_for_review, claim_step, decide_step, set_asset_expiry): two
// marketers, two medical reviewers, a legal and a regulatory reviewer, more
// open rounds than one page holds, an approved round expiring within 30
// days and a rejected one. Overdue steps need time to pass, so "overdue
// first" is checked on the demo organisation, whose history the server
// plays back-dated.

const SHOTS = "/tmp/reviewcenter-shots/e2e";
mkdirSync(SHOTS, { recursive: true });

// The shared test machine is often busy: allow for slow screens.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });

const PHONE = { width: 390, height: 844 };
const ISI = "Serious infections may occur. Tell your doctor about any infection.";
/** The marketer's rounds: one more open round than a page (25) holds, after two close. */
const ROUNDS = 28;
const title = (i: number) => `Zelvora launch piece ${String(i).padStart(2, "0")}`;

interface Step {
  id: string;
  role: string;
}

interface World {
  marketer: Member;
  otherMarketer: Member;
  medical: Member;
  otherMedical: Member;
  legal: Member;
  assets: { id: string; title: string }[];
  quenvia: string;
  draftTitle: string;
  expiringOn: string;
}

let world: World;

/** 'YYYY-MM-DD' of the local day `days` from today. */
function dayFromToday(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

function composed(text: string) {
  return {
    content_html: `<p>${text}</p><p>${ISI}</p>`,
    content_json: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }, { type: "paragraph", content: [{ type: "text", text: ISI }] }] },
  };
}

async function seed(server: Server): Promise<World> {
  const arrange = new Arrange(server);
  const orgId = await arrange.org("Zelvora Therapeutics");
  const admin = await arrange.member({ role: "admin", orgId, fullName: "Alex Admin" });
  const marketer = await arrange.member({ role: "marketer", orgId, fullName: "Maya Marketer" });
  const otherMarketer = await arrange.member({ role: "marketer", orgId, fullName: "Max Marketer" });
  const medical = await arrange.member({ role: "reviewer_medical", orgId, fullName: "Mara Medic" });
  const otherMedical = await arrange.member({ role: "reviewer_medical", orgId, fullName: "Milo Medic" });
  const legal = await arrange.member({ role: "reviewer_legal", orgId, fullName: "Lee Legal" });
  const regulatory = await arrange.member({ role: "reviewer_regulatory", orgId, fullName: "Rhea Regulatory" });
  const adminT = await accessToken(server, admin);
  const marketerT = await accessToken(server, marketer);
  const otherMarketerT = await accessToken(server, otherMarketer);
  const medicalT = await accessToken(server, medical);
  const otherMedicalT = await accessToken(server, otherMedical);
  const legalT = await accessToken(server, legal);
  const regulatoryT = await accessToken(server, regulatory);

  const zelvora = await insertAs<{ id: string }>(server, adminT, "products", { brand_name: "Zelvora", isi_text: ISI, markets: ["US"] });
  const quenvia = await insertAs<{ id: string }>(server, adminT, "products", { brand_name: "Quenvia", isi_text: ISI, markets: ["US"] });

  // The marketer's rounds, one after the other (so their due times follow the same order).
  const assets: { id: string; title: string }[] = [];
  const steps: Record<string, Step>[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const asset = await rpcAs<{ id: string }>(server, marketerT, "create_asset", {
      title: title(i),
      type: i % 2 === 0 ? "email" : "web_page",
      audience: "hcp",
      channel: "Email",
      market: "US",
      product_id: i % 10 === 3 ? quenvia.id : zelvora.id,
      change_note: "First draft",
      ...composed(`Zelvora piece ${i} lowers LDL-C.`),
    });
    const review = await rpcAs<{ steps: Step[] }>(server, marketerT, "submit_for_review", { asset_id: asset.id });
    assets.push({ id: asset.id, title: title(i) });
    steps.push(Object.fromEntries(review.steps.map((s) => [s.role, s])));
  }
  const step = (i: number, role: string) => {
    const s = steps[i]?.[role];
    if (!s) throw new Error(`no ${role} step in round ${i}`);
    return s.id;
  };
  const decide = (token: string, i: number, role: string, decision: string) =>
    rpcAs(server, token, "decide_step", { step_id: step(i, role), decision, comment: `${decision} by ${role}`, password: PASSWORD });

  // Round 5 is claimed by Mara, round 6 by Milo; legal approved round 7.
  await rpcAs(server, medicalT, "claim_step", { step_id: step(5, "reviewer_medical") });
  await rpcAs(server, otherMedicalT, "claim_step", { step_id: step(6, "reviewer_medical") });
  await decide(legalT, 7, "reviewer_legal", "approved");
  // Round 8 is approved by all three; its approval is set to end in 10 days.
  await decide(medicalT, 8, "reviewer_medical", "approved");
  await decide(legalT, 8, "reviewer_legal", "approved");
  await decide(regulatoryT, 8, "reviewer_regulatory", "approved_with_changes");
  const expiringOn = dayFromToday(10);
  await rpcAs(server, adminT, "set_asset_expiry", { asset_id: assets[8]?.id, expires_at: expiringOn });
  // Round 9 is rejected by regulatory (which closes it at once).
  await decide(regulatoryT, 9, "reviewer_regulatory", "rejected");

  // The other marketer's one round, and a draft of Maya's never submitted.
  const other = await rpcAs<{ id: string }>(server, otherMarketerT, "create_asset", {
    title: "Quenvia patient leaflet",
    type: "print",
    audience: "patient",
    channel: "Print",
    market: "US",
    product_id: quenvia.id,
    ...composed("Quenvia helps."),
  });
  await rpcAs(server, otherMarketerT, "submit_for_review", { asset_id: other.id });
  const draftTitle = "Zelvora congress banner (draft)";
  await rpcAs(server, marketerT, "create_asset", {
    title: draftTitle,
    type: "banner",
    audience: "hcp",
    channel: "Congress",
    market: "US",
    product_id: zelvora.id,
    ...composed("Zelvora at the congress."),
  });

  return { marketer, otherMarketer, medical, otherMedical, legal, assets, quenvia: quenvia.id, draftTitle, expiringOn };
}

test.beforeAll(async ({ server }) => {
  world = await seed(server);
});

const rows = (page: Page) => page.locator("[data-queue-item]");
const rowOf = (page: Page, text: string) => rows(page).filter({ hasText: text });
const count = (page: Page, tab: string) => page.getByTestId(`queue-count-${tab}`);

/** The titles of the listed rows, in order. */
async function titles(page: Page): Promise<string[]> {
  return rows(page).locator("a").allInnerTexts();
}

async function settled(page: Page): Promise<void> {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

async function pageAs(browser: Browser, baseURL: string | undefined, server: Server, member: Member, viewport = { width: 1440, height: 900 }) {
  const context = await browser.newContext({ baseURL, viewport });
  const page = await context.newPage();
  await signInFast(page, server, member);
  return { context, page };
}

test("a reviewer's queue: their steps and unclaimed ones of their role by due date, counts per tab, keyset pages, a filter kept in the URL", async ({ page, server }) => {
  await signInFast(page, server, world.medical);
  await page.goto("/review");
  await expect(page.getByRole("heading", { level: 1, name: "Review Center" })).toBeVisible();
  // A reviewer lands on their queue: every open round's medical step but Milo's (26), claimed by Mara or no one.
  await expect(page.getByRole("tab", { name: /^My queue/ })).toHaveAttribute("aria-selected", "true");
  await expect(count(page, "mine")).toHaveText("26");
  await expect(count(page, "open")).toHaveText("27");
  await expect(count(page, "submitted")).toHaveText("0");
  await expect(rows(page)).toHaveCount(25);
  await expect(page.getByTestId("queue-shown")).toHaveText("Showing 25 of 26");
  // By due time: the order the rounds were submitted in (Max's leaflet last); the closed ones (8, 9) and Milo's (6) are not here.
  const expected = [...world.assets.map((a) => a.title).filter((_, i) => i !== 6 && i !== 8 && i !== 9), "Quenvia patient leaflet"];
  expect(await titles(page)).toEqual(expected.slice(0, 25));
  await expect(rowOf(page, title(5))).toContainText("Claimed by you");
  await expect(rowOf(page, title(0))).toContainText("Unclaimed");
  await expect(rowOf(page, title(0))).toContainText("Round 1");
  await expect(rowOf(page, title(0))).toContainText(/Due in \d+ days|Due tomorrow/);
  await expect(rowOf(page, title(0))).toContainText("Maya Marketer");
  await expect(rowOf(page, title(3))).toContainText("Quenvia");
  await expectAccessible(page);

  // The next keyset page.
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(rows(page)).toHaveCount(26);
  await expect(page.getByTestId("queue-shown")).toHaveText("Showing 26 of 26 · end of list");
  expect(await titles(page)).toEqual(expected);
  await page.screenshot({ path: `${SHOTS}/reviewer-mine-1440.png`, fullPage: true });

  // A filter narrows the list, is in the URL and survives a reload.
  await page.getByLabel("Status").selectOption("claimed");
  await expect(page).toHaveURL(/status=claimed/);
  await expect(rows(page)).toHaveCount(1);
  await expect(count(page, "mine")).toHaveText("1");
  await page.reload();
  await expect(rows(page)).toHaveCount(1);
  await expect(rowOf(page, title(5))).toBeVisible();
  await expect(page.getByLabel("Status")).toHaveValue("claimed");

  // The row opens the asset.
  await rowOf(page, title(5)).getByRole("link", { name: title(5) }).click();
  await expect(page).toHaveURL(new RegExp(`/assets/${world.assets[5]?.id ?? "x"}$`));
});

test("all open rounds show every step's state and who holds it; filters by product and type narrow them", async ({ page, server }) => {
  await signInFast(page, server, world.medical);
  await page.goto("/review?tab=open");
  await expect(count(page, "open")).toHaveText("27");
  await expect(rows(page)).toHaveCount(25);
  const six = rowOf(page, title(6));
  await expect(six.locator('[data-step-role="reviewer_medical"]')).toContainText("Claimed by Milo Medic");
  const seven = rowOf(page, title(7));
  await expect(seven.locator('[data-step-role="reviewer_legal"]')).toContainText("Legal: Approved");
  await expect(seven.locator('[data-step-role="reviewer_legal"]')).toContainText("by Lee Legal");
  await expect(seven.locator('[data-step-role="reviewer_regulatory"]')).toContainText("Unclaimed");
  await expect(rowOf(page, title(8))).toHaveCount(0);

  await page.getByLabel("Product").selectOption(world.quenvia);
  await expect(page).toHaveURL(new RegExp(`product=${world.quenvia}`));
  // Rounds 3, 13 and 23 of Maya's and Max's leaflet.
  await expect(rows(page)).toHaveCount(4);
  await expect(count(page, "open")).toHaveText("4");
  await page.getByLabel("Type").selectOption("print");
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("Quenvia patient leaflet");
  await expect(rows(page).first()).toContainText("Max Marketer");
  await page.reload();
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByLabel("Type")).toHaveValue("print");
  await page.getByRole("button", { name: "Clear filters" }).first().click();
  await expect(rows(page)).toHaveCount(25);
  await expectAccessible(page);
});

test("a marketer's submissions, open first and closed last; their queue says where to look instead", async ({ page, server, browser, baseURL }) => {
  await signInFast(page, server, world.marketer);
  await page.goto("/review");
  // A marketer lands on what they submitted.
  await expect(page.getByRole("tab", { name: /^My submissions/ })).toHaveAttribute("aria-selected", "true");
  await expect(count(page, "submitted")).toHaveText(String(ROUNDS));
  await expect(count(page, "mine")).toHaveText("0");
  await expect(rows(page)).toHaveCount(25);
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(rows(page)).toHaveCount(ROUNDS);
  // The closed rounds come last, with their outcome and version.
  const last = (await titles(page)).slice(-2).sort();
  expect(last).toEqual([title(8), title(9)]);
  await expect(rowOf(page, title(8))).toContainText("Approved");
  await expect(rowOf(page, title(8))).toContainText("v1");
  await expect(rowOf(page, title(8))).toContainText("Closed");
  await expect(rowOf(page, title(9))).toContainText("Rejected");
  await expect(rowOf(page, title(9)).locator('[data-step-role="reviewer_medical"]')).toContainText("Skipped");

  // The status filter of this tab: the rejected round only.
  await page.getByLabel("Status").selectOption("rejected");
  await expect(rows(page)).toHaveCount(1);
  await expect(page).toHaveURL(/tab=submitted.*status=rejected|status=rejected.*tab=submitted/);

  await page.getByRole("tab", { name: /^My queue/ }).click();
  await expect(page).not.toHaveURL(/status=rejected/);
  await expect(page.getByText("Review steps go to reviewers")).toBeVisible();
  await page.getByRole("link", { name: "See my submissions" }).click();
  await expect(rows(page).first()).toBeVisible();
  await expectAccessible(page);

  // The other marketer sees only their own submission; with none, a reviewer is told where to look.
  const other = await pageAs(browser, baseURL, server, world.otherMarketer);
  await other.page.goto("/review");
  await expect(count(other.page, "submitted")).toHaveText("1");
  await expect(rows(other.page)).toHaveCount(1);
  await expect(rows(other.page).first()).toContainText("Quenvia patient leaflet");
  await other.context.close();
  const legal = await pageAs(browser, baseURL, server, world.legal);
  await legal.page.goto("/review?tab=submitted");
  await expect(legal.page.getByText("Nothing submitted by you")).toBeVisible();
  await legal.context.close();
});

test("the Command Center: a reviewer's open steps, the pipeline by status, assets expiring within 30 days", async ({ page, server }) => {
  await signInFast(page, server, world.medical);
  await page.goto("/");
  const steps = page.getByTestId("my-steps");
  await expect(steps.getByRole("listitem")).toHaveCount(5);
  await expect(steps.getByRole("listitem").first()).toContainText(title(0));
  await expect(steps.getByRole("listitem").first()).toContainText(/Due in \d+ days|Due tomorrow/);
  await expect(page.getByText("and 21 more")).toBeVisible();
  await expect(page.getByRole("link", { name: "Open my queue" })).toHaveAttribute("href", "/review?tab=mine");

  const pipeline = page.getByTestId("pipeline-counts");
  const tile = (status: string) => pipeline.locator(`[data-status="${status}"]`);
  await expect(tile("in_review")).toContainText("27");
  await expect(tile("approved")).toContainText("1");
  await expect(tile("rejected")).toContainText("1");
  await expect(tile("draft")).toContainText("1");
  await expect(tile("changes_requested")).toContainText("0");
  await expect(tile("approved")).toHaveAttribute("href", "/content?status=approved");

  const expiring = page.getByTestId("expiring-assets");
  await expect(expiring.getByRole("listitem")).toHaveCount(1);
  await expect(expiring).toContainText(title(8));
  await expect(expiring).toContainText("expires in 10 days");
  // A reviewer has no drafts card.
  await expect(page.getByRole("heading", { name: "My drafts and submissions" })).toHaveCount(0);
  await settled(page);
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/reviewer-home-1440.png`, fullPage: true });

  await tile("in_review").click();
  await expect(page).toHaveURL(/\/content\?status=in_review/);
  await expect(page.getByRole("combobox", { name: "Status" })).toHaveValue("in_review");
});

test("the Command Center: a marketer's drafts and submissions in review", async ({ page, server }) => {
  await signInFast(page, server, world.marketer);
  await page.goto("/");
  await expect(page.getByTestId("my-drafts")).toContainText(world.draftTitle);
  await expect(page.getByTestId("my-drafts")).toContainText("Draft");
  const submissions = page.getByTestId("my-submissions");
  await expect(submissions.getByRole("listitem")).toHaveCount(5);
  await expect(submissions.getByRole("listitem").first()).toContainText(title(0));
  await expect(submissions.getByRole("listitem").first()).toContainText("0 of 3 steps decided");
  await expect(page.getByText(`and ${ROUNDS - 2 - 5} more`)).toBeVisible();
  // A marketer has no steps to decide.
  await expect(page.getByRole("heading", { name: "My open review steps" })).toHaveCount(0);
  await settled(page);
  await expectAccessible(page);
  await page.getByTestId("my-drafts").getByRole("link", { name: world.draftTitle }).click();
  await expect(page).toHaveURL(/\/assets\//);
});

test("at 390 px the Review Center and the Command Center are cards that never scroll sideways", async ({ browser, baseURL, server }) => {
  // Two members, every tab and the Command Center: long on a busy machine.
  test.setTimeout(300_000);
  for (const member of [world.medical, world.marketer]) {
    const { context, page } = await pageAs(browser, baseURL, server, member, PHONE);
    for (const tab of ["mine", "open", "submitted"]) {
      await page.goto(`/review?tab=${tab}`);
      await expect(page.getByRole("heading", { level: 1, name: "Review Center" })).toBeVisible();
      await settled(page);
      const empty = member === world.medical ? tab === "submitted" : tab === "mine";
      if (!empty) {
        // Rows are cards in a list, not a table.
        await expect(page.getByRole("list", { name: /My queue|All open rounds|My submissions/ })).toBeVisible();
        await expect(page.getByRole("table")).toHaveCount(0);
      }
      await expectNoSidewaysScroll(page);
    }
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/${member.role}-review-390.png`, fullPage: true });
    await page.goto("/");
    await expect(page.getByTestId("pipeline-counts")).toBeVisible();
    await settled(page);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/${member.role}-home-390.png`, fullPage: true });
    // A card opens its asset.
    await page.goto("/review?tab=open");
    await rowOf(page, title(0)).getByRole("link", { name: title(0) }).click();
    await expect(page).toHaveURL(new RegExp(`/assets/${world.assets[0]?.id ?? "x"}$`));
    await context.close();
  }
});

test("overdue steps come first and are marked (the demo organisation's back-dated rounds)", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  await context.addInitScript(() => {
    window.sessionStorage.setItem("fairbalance.demo.impersonation", JSON.stringify({ active: true, role: "reviewer_medical", displayName: "Medical reviewer" }));
  });
  const page = await context.newPage();
  await page.goto("/?preview=1");
  await expect(page.getByText("Preview Mode — authentication disabled; data is demo")).toBeVisible();
  await expect(page.getByTestId("my-steps").getByRole("listitem").first()).toContainText(/Overdue by \d+ days?/);
  await page.goto("/review?tab=mine");
  await expect(rows(page).first()).toBeVisible();
  const all = rows(page);
  const n = await all.count();
  expect(n).toBeGreaterThan(1);
  // Every overdue row before every other, each saying so in words.
  const flags = await all.evaluateAll((els) => els.map((e) => e.getAttribute("data-overdue") === "true"));
  expect(flags[0]).toBe(true);
  expect(flags).toEqual([...flags].sort((a, b) => Number(b) - Number(a)));
  await expect(all.first()).toContainText(/Overdue by \d+ days?/);
  await expect(all.last()).not.toContainText("Overdue");
  await expectAccessible(page);
  await context.close();
});
