import { mkdirSync, readFileSync } from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { expect as baseExpect, expectAccessible, test } from "./support/fixtures";

// Issue 17: Compliance Intelligence (/compliance-intel#insights) on the demo
// organisation, whose year of review history the server plays back-dated:
// the KPI tiles and charts render with numbers, a product filter (kept in
// the URL) changes them, a chart's numbers download as CSV and show as a
// table, the screen passes axe, and at 390 px the cards stack without
// sideways scrolling.

const SHOTS = "/tmp/insights-shots";
mkdirSync(SHOTS, { recursive: true });

// The shared test machine is often busy: allow for slow screens.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });

async function demoPage(browser: Browser, baseURL: string | undefined, width: number, height: number): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width, height }, acceptDownloads: true });
  await context.addInitScript(() => {
    window.sessionStorage.setItem("fairbalance.demo.impersonation", JSON.stringify({ active: true, role: "reviewer_medical", displayName: "Medical reviewer" }));
  });
  const page = await context.newPage();
  await page.goto("/?preview=1");
  await expect(page.getByText("Preview Mode — authentication disabled; data is demo")).toBeVisible();
  return page;
}

const kpi = (page: Page, id: string) => page.getByTestId(`kpi-${id}-value`);

test("the insights render with the demo's history, filter by product, download CSV and pass axe", async ({ browser, baseURL }) => {
  const page = await demoPage(browser, baseURL, 1440, 1000);
  await page.goto("/compliance-intel#insights");
  await expect(page.getByRole("heading", { name: "Compliance Intelligence" })).toBeVisible();
  await expect(page.locator("section#insights")).toBeAttached();

  // Every tile has a number; the charts have something to draw.
  await expect(kpi(page, "first-pass")).toHaveText(/^\d+%$/);
  await expect(kpi(page, "cycle")).toHaveText(/^[\d.]+ [dh]$/);
  const approvals = Number(await kpi(page, "approvals").textContent());
  expect(approvals).toBeGreaterThanOrEqual(6);
  await expect(kpi(page, "overdue")).not.toHaveText("0");
  for (const id of ["chart-rounds", "chart-decisions", "chart-categories", "chart-workload", "chart-turnaround"]) {
    await expect(page.getByTestId(id).locator(".recharts-surface").first()).toBeVisible();
  }
  await expect(page.getByTestId("list-requests").getByRole("row")).not.toHaveCount(1);
  await expect(page.getByTestId("list-rejections")).toContainText("Cardiomax banner: once daily");
  await expect(page.getByTestId("list-expiring")).toContainText("Cardiomax social post: know your LDL");
  await page.screenshot({ path: `${SHOTS}/insights-1440.png`, fullPage: true });
  await expectAccessible(page);

  // A chart's numbers as a table, on request.
  const rounds = page.getByTestId("chart-rounds");
  await rounds.getByRole("button", { name: "Table" }).click();
  await expect(rounds.getByRole("table")).toBeVisible();
  await expect(rounds.getByRole("row", { name: /^1 \d+$/ })).toBeVisible();
  const rows = await rounds.getByRole("row").allInnerTexts();
  const total = rows
    .slice(1)
    .map((r) => Number(r.split(/\s+/).pop()))
    .reduce((a, b) => a + b, 0);
  expect(total).toBe(approvals);

  // ... and as CSV.
  const download = page.waitForEvent("download");
  await rounds.getByRole("button", { name: "Download Rounds per approval as CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^rounds-per-approval-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await file.path(), "utf8");
  expect(csv.split("\r\n")[0]).toBe("Rounds to approval,Approvals");
  expect(
    csv
      .trim()
      .split("\r\n")
      .slice(1)
      .map((l) => Number(l.split(",")[1]))
      .reduce((a, b) => a + b, 0),
  ).toBe(approvals);

  // One product: fewer approvals, and the filter is in the URL.
  await page.getByTestId("insights-product").selectOption({ label: "Cardiomax" });
  await expect(page).toHaveURL(/[?&]product=[0-9a-f-]{36}/);
  await expect(kpi(page, "approvals")).not.toHaveText(String(approvals));
  const cardiomax = Number(await kpi(page, "approvals").textContent());
  expect(cardiomax).toBeGreaterThan(0);
  expect(cardiomax).toBeLessThan(approvals);
  await page.getByTestId("insights-product").selectOption({ label: "Respira" });
  await expect(kpi(page, "approvals")).not.toHaveText(String(cardiomax));
  expect(Number(await kpi(page, "approvals").textContent())).toBe(approvals - cardiomax);
  // A reload keeps the filters.
  await page.getByTestId("insights-period").selectOption("3m");
  await expect(page).toHaveURL(/period=3m/);
  await page.reload();
  await expect(page.getByTestId("insights-product")).toHaveValue(/[0-9a-f-]{36}/);
  await expect(page.getByTestId("insights-period")).toHaveValue("3m");
  await page.context().close();
});

test("at 390 px the insights stack without sideways scrolling", async ({ browser, baseURL }) => {
  const page = await demoPage(browser, baseURL, 390, 844);
  await page.goto("/compliance-intel#insights");
  await expect(kpi(page, "first-pass")).toHaveText(/^\d+%$/);
  await expect(page.getByTestId("chart-rounds").locator(".recharts-surface").first()).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // The cards are one column.
  const boxes = await Promise.all(["chart-rounds", "chart-decisions"].map(async (id) => page.getByTestId(id).boundingBox()));
  expect(boxes[1]?.y ?? 0).toBeGreaterThan((boxes[0]?.y ?? 0) + (boxes[0]?.height ?? 0) - 1);
  await page.screenshot({ path: `${SHOTS}/insights-390.png`, fullPage: true });
  await expectAccessible(page);
  await page.context().close();
});
