import { mkdirSync } from "node:fs";
import { accessToken, insertAs, rpcAs } from "./support/content-api";
import { expect as baseExpect, expectAccessible, signInFast, test, type Arrange, type Member } from "./support/fixtures";
import type { Server } from "./support/server";
import { expectNoSidewaysScroll } from "./support/layout";

// The notification bell (issue 15): a reviewer learns that a submission
// awaits them, opens it from the bell (which marks it read), and clears
// the rest; the read-only demo shows its notices but marks nothing read.

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });

const SHOTS = "/tmp/reviewnotify-shots";
mkdirSync(SHOTS, { recursive: true });

const ISI = "Serious infections may occur. Tell your doctor about any infection before starting Zephyra.";

/** A composed asset of `product` carrying its ISI (the gate's condition for every type but "other"). */
async function assetWithIsi(server: Server, token: string, productId: string, title: string): Promise<{ id: string }> {
  const text = `Zephyra clears skin for most adults. ${ISI}`;
  return rpcAs(server, token, "create_asset", {
    title,
    type: "email",
    audience: "hcp",
    channel: "Rep-triggered email",
    market: "US",
    product_id: productId,
    change_note: "First draft",
    content_html: `<p>${text}</p>`,
    content_json: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] },
  });
}

interface World {
  reviewer: Member;
  first: { id: string };
  second: { id: string };
}

/**
 * An organisation with a marketer and a medical reviewer; the marketer
 * submits two assets, so the reviewer gets two "awaits your review" notices.
 */
async function arrangeRounds(server: Server, arrange: Arrange): Promise<World> {
  const { orgId, admin } = await arrange.workspace();
  const marketer = await arrange.member({ role: "marketer", orgId, fullName: "Mara Marketer" });
  const reviewer = await arrange.member({ role: "reviewer_medical", orgId, fullName: "Dr. Mei Medical" });
  const product = await insertAs<{ id: string }>(server, await accessToken(server, admin), "products", {
    brand_name: "Zephyra",
    established_name: "zephyrimab",
    indications: "Moderate to severe plaque psoriasis in adults.",
    isi_text: ISI,
    markets: ["US"],
  });
  const token = await accessToken(server, marketer);
  const first = await assetWithIsi(server, token, product.id, "Zephyra launch email for dermatologists");
  const second = await assetWithIsi(server, token, product.id, "Zephyra dosing reminder");
  for (const asset of [first, second]) {
    const review = await rpcAs<{ status: string; steps: { role: string; status: string }[] }>(server, token, "submit_for_review", { asset_id: asset.id });
    expect(review.status).toBe("open");
  }
  return { reviewer, first, second };
}

test("a reviewer opens a submission from the bell, which marks it read; Mark all as read clears the rest", async ({ page, server, arrange }) => {
  const { reviewer, first } = await arrangeRounds(server, arrange);
  await signInFast(page, server, reviewer);
  await page.goto("/");

  const bell = page.getByRole("button", { name: "Notifications, 2 unread" });
  await expect(bell).toBeVisible();
  await expect(page.getByTestId("notification-count")).toHaveText("2");

  await bell.click();
  const panel = page.getByRole("dialog", { name: "Notifications" });
  await expect(panel).toBeVisible();
  const entries = panel.getByTestId("notification");
  await expect(entries).toHaveCount(2);
  // The newest first: the second submission, then the first; both unread.
  const firstEntry = entries.filter({ hasText: "Zephyra launch email for dermatologists" });
  await expect(firstEntry).toContainText("Zephyra launch email for dermatologists awaits your medical review (round 1).");
  await expect(firstEntry).toContainText("Review needed");
  await expect(firstEntry).toContainText(/just now|minute/);
  await expect(firstEntry).toHaveAttribute("data-unread", "true");
  await expect(firstEntry.getByRole("link")).toHaveAttribute("href", `/assets/${first.id}`);
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/bell-open-1440.png` });

  // At 390 px the panel spans the screen and nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(panel).toBeVisible();
  const box = await panel.boundingBox();
  expect(box?.x).toBe(0);
  expect(Math.round(box?.width ?? 0)).toBe(390);
  await expectNoSidewaysScroll(page, "the bell open at 390 px", { elements: true });
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/bell-open-390.png` });
  await page.setViewportSize({ width: 1440, height: 900 });

  // Opening one goes to its asset and marks it read.
  await firstEntry.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/assets/${first.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Zephyra launch email for dermatologists" })).toBeVisible();
  await expect(panel).toBeHidden();
  await expect(page.getByRole("button", { name: "Notifications, 1 unread" })).toBeVisible();

  // The server agrees, also after a reload.
  await page.reload();
  await expect(page.getByRole("button", { name: "Notifications, 1 unread" })).toBeVisible();
  await page.getByRole("button", { name: "Notifications, 1 unread" }).click();
  await expect(entries.filter({ hasText: "Zephyra launch email for dermatologists" })).toHaveAttribute("data-unread", "false");
  await expect(entries.filter({ hasText: "Zephyra dosing reminder" })).toHaveAttribute("data-unread", "true");

  await panel.getByRole("button", { name: "Mark all as read" }).click();
  await expect(page.getByRole("button", { name: "Notifications", exact: true })).toBeVisible();
  await expect(page.getByTestId("notification-count")).toHaveCount(0);
  await expect(panel.getByTestId("unread-dot")).toHaveCount(0);
  await expect(panel.getByRole("button", { name: "Mark all as read" })).toBeDisabled();
  const token = await accessToken(server, reviewer);
  const res = await fetch(`${server.url}/rest/v1/notifications?select=id&read_at=is.null`, {
    headers: { apikey: server.anonKey, Authorization: `Bearer ${token}` },
  });
  expect(await res.json()).toEqual([]);
});

test("a new notice shows on the bell when the window gets focus again, without a reload", async ({ page, server, arrange }) => {
  const { orgId, admin } = await arrange.workspace();
  const marketer = await arrange.member({ role: "marketer", orgId });
  const reviewer = await arrange.member({ role: "reviewer_legal", orgId, fullName: "Leo Legal" });
  const product = await insertAs<{ id: string }>(server, await accessToken(server, admin), "products", { brand_name: "Zephyra", isi_text: ISI, markets: ["US"] });
  const token = await accessToken(server, marketer);
  const asset = await assetWithIsi(server, token, product.id, "Zephyra patient leaflet");

  await signInFast(page, server, reviewer);
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Notifications", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Notifications", exact: true }).click();
  await expect(page.getByText("No notifications yet")).toBeVisible();
  await page.keyboard.press("Escape");

  await rpcAs(server, token, "submit_for_review", { asset_id: asset.id });
  // Returning to the window asks for the count again (the poll would, within a minute).
  await page.evaluate(() => {
    window.dispatchEvent(new Event("visibilitychange"));
    window.dispatchEvent(new Event("focus"));
  });
  await expect(page.getByRole("button", { name: "Notifications, 1 unread" })).toBeVisible();
  await page.getByRole("button", { name: "Notifications, 1 unread" }).click();
  await expect(page.getByTestId("notification")).toContainText("Zephyra patient leaflet awaits your legal review (round 1).");
});

test("the read-only demo shows a reviewer's notices and marks nothing read", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto("/?preview=1");
  await expect(page.getByTestId("demo-badge")).toBeVisible();
  await page.getByRole("button", { name: /Demo role/ }).click();
  await page.getByRole("menuitemradio", { name: "Medical reviewer" }).click();
  await expect(page.getByText("Viewing the demo as Medical reviewer")).toBeVisible();

  const bell = page.getByRole("button", { name: /^Notifications, \d+ unread$/ });
  await expect(bell).toBeVisible();
  const before = await bell.getAttribute("aria-label");
  await bell.click();
  const panel = page.getByRole("dialog", { name: "Notifications" });
  await expect(panel.getByTestId("notification").first()).toBeVisible();
  await expect(panel.getByText("Read-only demo: notifications stay unread")).toBeVisible();
  await expect(panel.getByRole("button", { name: "Mark all as read" })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/bell-demo-1440.png` });
  // The preview's bar (badges, role switcher, bell, avatar) and the panel fit a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(panel).toBeVisible();
  await expectNoSidewaysScroll(page, "the demo's bell open at 390 px", { elements: true });
  await page.screenshot({ path: `${SHOTS}/bell-demo-390.png` });
  await page.setViewportSize({ width: 1440, height: 900 });

  await panel.getByTestId("notification").first().getByRole("link").click();
  await expect(page).toHaveURL(/\/assets\//);
  await expect(page.getByRole("button", { name: before ?? "" })).toBeVisible();
  await context.close();
});
