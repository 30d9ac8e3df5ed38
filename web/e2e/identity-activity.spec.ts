import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { accessToken, insertAs, rpcAs } from "./support/content-api";
import { expect as baseExpect, expectAccessible, signInFast, test, uniqueEmail } from "./support/fixtures";
import type { Server } from "./support/server";

// Issue 14, items 5, 6 and 9: the pilot checklist ticks products and assets
// and offers each action only to those who can take it; recent activity and
// the Audit Log word every entry in one way, and the CSV export carries the
// before/after values; one person has one set of initials everywhere, a
// greeting never names a title alone, and the Hub's owner filter lists only
// people who can own content.

// Screens load lazily and the shared test machine can be slow: allow for it.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

const SHOTS = "/tmp/shots-identity-activity";
mkdirSync(SHOTS, { recursive: true });

/** Saves the page at 1440 and 390 px wide (and restores 1440). */
async function shots(page: Page, name: string): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/${name}-${String(width)}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** Runs axe once toasts have gone (a toast mid-animation reads as low contrast). */
async function accessible(page: Page): Promise<void> {
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
  await expectAccessible(page);
}

const COMPOSED = { content_html: "<p>Zelvora lowers LDL-C.</p>", content_json: { type: "doc", content: [] } };

/** Creates a composed asset as the token's member; returns its row. */
function createAsset(server: Server, token: string, title: string) {
  return rpcAs<{ id: string; job_code: string }>(server, token, "create_asset", { title, type: "email", audience: "hcp", channel: "Email", market: "US", ...COMPOSED });
}

/** The initials shown in an avatar inside `scope`. */
async function initialsIn(scope: Locator): Promise<string> {
  const fallback = scope.locator('[data-slot="avatar-fallback"]').first();
  await expect(fallback).toBeVisible();
  return (await fallback.innerText()).trim();
}

/** Reads RFC 4180 CSV (quoted fields, doubled quotes, CRLF records). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || (ch === "\r" && text[i + 1] === "\n")) {
      if (ch === "\r") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}

test.describe("item 5: the pilot checklist", () => {
  test("ticks the first product and the first asset from real data and links to where they are made", async ({ page, arrange, server }) => {
    const { orgId, admin } = await arrange.workspace(`Pilot ${randomBytes(3).toString("hex")}`);
    const marketer = await arrange.member({ role: "marketer", orgId, fullName: "Mary Marketer" });
    await signInFast(page, server, admin);
    await page.goto("/pilot-checklist");
    const step = (key: string) => page.locator(`[data-step="${key}"]`);
    await expect(step("first_product")).toHaveAttribute("data-done", "false");
    await expect(step("first_product")).not.toContainText("Coming later");
    await expect(step("first_product")).toContainText("No product yet");
    await expect(step("first_product").getByRole("link", { name: "Add a product in Settings" })).toHaveAttribute("href", "/settings");
    await expect(step("first_asset")).toHaveAttribute("data-done", "false");
    await expect(step("first_asset")).not.toContainText("Coming later");
    await expect(step("first_asset").getByRole("link", { name: "Create an asset in the Content Hub" })).toHaveAttribute("href", "/content-hub");
    await shots(page, "pilot-checklist-admin");

    const product = await insertAs<{ id: string }>(server, await accessToken(server, admin), "products", { brand_name: "Zelvora" });
    await createAsset(server, await accessToken(server, marketer), "Launch e-mail");
    await page.getByRole("button", { name: "Check again" }).click();
    await expect(step("first_product")).toHaveAttribute("data-done", "true");
    await expect(step("first_product")).toContainText("1 product");
    await expect(step("first_asset")).toHaveAttribute("data-done", "true");
    await expect(step("first_asset")).toContainText("1 asset");
    expect(product.id).toBeTruthy();
  });

  test("shows a marketer no invite or security buttons, on the checklist and the Command Center", async ({ page, arrange, server }) => {
    const { orgId } = await arrange.workspace(`Roles ${randomBytes(3).toString("hex")}`);
    const marketer = await arrange.member({ role: "marketer", orgId, fullName: "Mary Marketer" });
    await signInFast(page, server, marketer);
    await page.goto("/pilot-checklist");
    const step = (key: string) => page.locator(`[data-step="${key}"]`);
    await expect(step("members_invited")).toBeVisible();
    for (const key of ["members_invited", "reviewers_joined", "admin_mfa", "security_reviewed", "first_product"]) {
      await expect(step(key).getByRole("link")).toHaveCount(0);
    }
    await expect(step("members_invited").getByTestId("step-done-by")).toHaveText("Done by an administrator");
    for (const name of ["Invite people", "Invite reviewers", "Review security settings", "Set up two-factor authentication", "Organization settings"]) {
      await expect(page.getByRole("link", { name })).toHaveCount(0);
    }
    // What a marketer can do keeps its link.
    await expect(step("first_asset").getByRole("link", { name: "Create an asset in the Content Hub" })).toBeVisible();
    await expect(step("audit_verified").getByRole("link", { name: "Verify in the Audit Log" })).toBeVisible();
    await accessible(page);
    await shots(page, "pilot-checklist-marketer");

    // The Command Center's next step names the step, without a button the marketer cannot use.
    await page.goto("/");
    await expect(page.getByText("Next step")).toBeVisible();
    await expect(page.getByText("Invite at least two colleagues")).toBeVisible();
    await expect(page.getByRole("link", { name: "Invite people" })).toHaveCount(0);
  });
});

test.describe("item 6: the audit trail in words", () => {
  test("recent activity and the Audit Log say who did what to which object, and the CSV carries before and after", async ({ page, arrange, server }) => {
    const orgName = `Words ${randomBytes(3).toString("hex")}`;
    const { orgId, admin } = await arrange.workspace(orgName);
    const marketer = await arrange.member({ role: "marketer", orgId, fullName: "Mary Marketer" });
    const marketerToken = await accessToken(server, marketer);
    const asset = await createAsset(server, marketerToken, "Launch e-mail");
    await rpcAs(server, marketerToken, "add_asset_version", { asset_id: asset.id, ...COMPOSED, change_note: "Shorter" });
    const adminToken = await accessToken(server, admin);
    await insertAs(server, adminToken, "products", { brand_name: "Zelvora" });
    const renamed = `${orgName} Therapeutics`;
    const res = await fetch(`${server.url}/rest/v1/orgs?id=eq.${orgId}`, {
      method: "PATCH",
      headers: { apikey: server.anonKey, Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: renamed }),
    });
    expect(res.ok).toBe(true);

    // The Command Center.
    await signInFast(page, server, admin);
    await page.goto("/");
    const activity = page.getByTestId("recent-activity");
    await expect(activity).toContainText(`Mary Marketer created the asset ${asset.job_code}`);
    await expect(activity).toContainText(`Mary Marketer added version 2 to the asset ${asset.job_code}`);
    await expect(activity).toContainText("Alex Admin created the product Zelvora");
    await expect(activity).toContainText("Alex Admin renamed the organization");
    for (const raw of ["asset created", "asset version created", "product created", "orgs update", "asset_created"]) {
      await expect(activity).not.toContainText(raw);
    }
    await shots(page, "command-center-activity");

    // The Audit Log: the same words, the action's name beside them.
    await page.goto("/audit-log");
    const row = page.locator('tbody tr:has(td[data-action="asset_created"])');
    await expect(row).toContainText(`Created the asset ${asset.job_code}`);
    await expect(row).toContainText("asset_created");
    await expect(page.locator('tbody tr:has(td[data-action="asset_version_created"])')).toContainText(`Added version 2 to the asset ${asset.job_code}`);
    await accessible(page);
    await shots(page, "audit-log");
    await row.click();
    const sheet = page.getByRole("dialog");
    await expect(sheet.getByTestId("entry-sentence")).toHaveText(`Mary Marketer created the asset ${asset.job_code}`);
    await shots(page, "audit-entry");
    await page.keyboard.press("Escape");

    // The CSV export of the rename holds the values before and after it.
    await page.goto("/audit-log?action=orgs.update");
    await expect(page.getByTestId("audit-count")).toContainText("1 entry matches");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
    const records = parseCsv(await readFile(await download.path(), "utf8"));
    const header = records[0] ?? [];
    expect(header).toContain("before");
    expect(header).toContain("after");
    expect(records).toHaveLength(2);
    const record = records[1] ?? [];
    const before = JSON.parse(record[header.indexOf("before")] ?? "null") as { name?: string }[];
    const after = JSON.parse(record[header.indexOf("after")] ?? "null") as { name?: string }[];
    expect(before[0]?.name).toBe(orgName);
    expect(after[0]?.name).toBe(renamed);

    // On a phone, the list words the entries too.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/audit-log");
    const item = page.locator('li[data-action="asset_created"]');
    await expect(item).toContainText(`Created the asset ${asset.job_code}`);
    await expect(item.getByRole("button")).toHaveAccessibleName(new RegExp(`^Entry #\\d+: Mary Marketer created the asset ${asset.job_code}$`));
  });
});

test.describe("item 9: identity details", () => {
  test("one person has the same initials in the top bar, the team, recent activity and the Users list", async ({ page, arrange, server }) => {
    const orgId = await arrange.org(`Initials ${randomBytes(3).toString("hex")}`);
    // No name: every screen falls back to the e-mail, whose domain has a hyphen.
    const email = `pat${randomBytes(4).toString("hex")}@acme-pharma.test`;
    const admin = await arrange.member({ role: "admin", orgId, email, fullName: "" });
    await rpcAs(server, await accessToken(server, admin), "create_invite", { email: uniqueEmail("invitee"), role: "marketer" });
    await signInFast(page, server, admin);
    await page.goto("/");
    const topBar = await initialsIn(page.getByRole("button", { name: /^Account menu for / }));
    expect(topBar).toBe("PA");
    expect(await initialsIn(page.getByTestId("team-members").locator("li", { hasText: email }))).toBe(topBar);
    const entry = page.getByTestId("recent-activity").locator("li").first();
    await expect(entry).toContainText(email);
    expect(await initialsIn(entry)).toBe(topBar);
    await page.goto("/users");
    const listed = page.locator("tr, li").filter({ hasText: email }).first();
    expect(await initialsIn(listed)).toBe(topBar);
  });

  test("greets by name, never by a title, and skips the title in the initials", async ({ page, arrange, server }) => {
    const { orgId } = await arrange.workspace();
    const doctor = await arrange.member({ role: "reviewer_medical", orgId, fullName: "Dr. Mei Medical" });
    await signInFast(page, server, doctor);
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: /^Good (morning|afternoon|evening), Mei$/ })).toBeVisible();
    expect(await initialsIn(page.getByRole("button", { name: /^Account menu for / }))).toBe("MM");
  });

  test("the demo's medical reviewer is greeted by name", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await page.goto("/?preview=1");
    await expect(page.getByText("You are exploring the demo organization")).toBeVisible();
    await page.getByRole("button", { name: /^Demo role: / }).click();
    await page.getByRole("menuitemradio", { name: "Medical reviewer" }).click();
    await expect(page.getByRole("button", { name: /^Demo role: Medical reviewer/ })).toBeVisible();
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveText(/^Good (morning|afternoon|evening), Mei$/);
    await expect(heading).not.toHaveText(/Dr\.?$/);
    await shots(page, "demo-command-center-medical");
    await context.close();
  });

  test("the Hub's owner filter lists only people who can own content", async ({ page, arrange, server }) => {
    const { orgId, admin } = await arrange.workspace(`Owners ${randomBytes(3).toString("hex")}`);
    await arrange.member({ role: "marketer", orgId, fullName: "Mary Marketer" });
    await arrange.member({ role: "reviewer_medical", orgId, fullName: "Rae Reviewer" });
    await arrange.member({ role: "reviewer_legal", orgId, fullName: "Lee Legal" });
    await arrange.member({ role: "viewer", orgId, fullName: "Vic Viewer" });
    await signInFast(page, server, admin);
    await page.goto("/content-hub");
    const owner = page.getByRole("combobox", { name: "Owner" });
    await expect(owner.locator("option", { hasText: "Mary Marketer" })).toHaveCount(1);
    const options = await owner.locator("option").allInnerTexts();
    expect(options).toEqual(expect.arrayContaining(["All owners", "Alex Admin", "Mary Marketer"]));
    for (const name of ["Rae Reviewer", "Lee Legal", "Vic Viewer"]) expect(options).not.toContain(name);
    await shots(page, "hub-assets");
  });
});
