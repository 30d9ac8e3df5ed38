import { accessToken, createFileAsset } from "./support/content-api";
import { BareChromium } from "./support/bare-chromium";
import { expect, passwordSession, signInFast, storedSessionScript, test, type Arrange } from "./support/fixtures";
import type { Server } from "./support/server";
import { fillerPages, samplePdf } from "./support/sample-pdf";

// Figure (issue 5): the first page of a 100-page PDF is visible in the
// browser within 1.5 s on localhost. Measured from the navigation's start
// (performance.timeOrigin) to the viewer's "asset:first-page-shown" mark,
// set once the browser has rendered the frame that has page 1's canvas in
// it (an animation-frame callback posts a task, which runs after that
// rendering):
// - cold: a first visit in a fresh browser context (empty HTTP cache: the
//   app, pdf.js and its worker are all fetched and compiled). Timed in
//   Chromium driven directly over the DevTools pipe (support/bare-chromium),
//   as a user's browser runs; Playwright's own per-request bookkeeping costs
//   a cold start on a 2-core machine a few hundred milliseconds of CPU, so
//   the same visit under Playwright is reported beside it, bounded only
//   against regressions;
// - warm: a reload of that page;
// - in-app: the app open on the Hub, the asset opened from its row.
// A benchmark, so it runs only when asked, on an otherwise idle machine (it
// is CPU-bound; a busy machine multiplies it):
//   E2E_PERF=1 E2E_WEB_DIR=… FAIRBALANCE_BIN=… E2E_WORKERS=1 npx playwright test e2e/asset-perf.spec.ts

const RUNS = Number(process.env.E2E_PERF_RUNS ?? 5);
const BUDGET_MS = Number(process.env.ASSET_FIRST_PAGE_BUDGET_MS ?? 1500);
const PLAYWRIGHT_COLD_BOUND_MS = Number(process.env.ASSET_FIRST_PAGE_PLAYWRIGHT_COLD_MS ?? 2200);

const SHOWN_MARK = "asset:first-page-shown";
const SHOWN = `performance.getEntriesByName(${JSON.stringify(SHOWN_MARK)}).length > 0`;
const TIMES = `(() => {
  const at = (n) => Math.round(performance.getEntriesByName(n)[0]?.startTime ?? -1);
  return { shown: at(${JSON.stringify(SHOWN_MARK)}), painted: at("asset:first-page-painted"), code: at("asset:code-loaded"), fcp: at("first-contentful-paint"),
    worker: at("pdf:worker-up"), document: at("pdf:document") };
})()`;

interface Times {
  shown: number;
  painted: number;
  code: number;
  fcp: number;
  worker: number;
  document: number;
}

test.skip(!process.env.E2E_PERF, "benchmark: set E2E_PERF=1 to run");

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** A marketer and an asset whose current version is a 100-page PDF. */
async function hundredPageAsset(arrange: Arrange, server: Server) {
  const { orgId } = await arrange.workspace();
  const marketer = await arrange.member({ role: "marketer", orgId });
  const token = await accessToken(server, marketer);
  const pdf = samplePdf(fillerPages(100), { title: "Performance sample" });
  const asset = await createFileAsset(server, token, { title: "Hundred-page PDF", bytes: pdf, fileName: "hundred-pages.pdf" });
  return { marketer, asset, bytes: pdf.length };
}

// First in the file, so Playwright's own browser is not running yet beside it.
test("first visit: page 1 of a 100-page PDF is on screen within 1.5 s of navigation", async ({ arrange, server }, testInfo) => {
  test.setTimeout(300_000);
  const { marketer, asset, bytes } = await hundredPageAsset(arrange, server);
  const cold: Times[] = [];
  const bare = BareChromium.launch();
  try {
    // The browser is already running when a user follows a link: one visit
    // to the sign-in page first, in a context of its own (contexts share no
    // cache), so the runs below do not also pay for the browser's own start.
    const warmUp = await bare.newPage({ width: 1440, height: 900 });
    await warmUp.goto(`${server.url}/login`);
    await warmUp.waitFor(`document.querySelector("input[type=email]")`);
    await warmUp.close();
    const initScript = storedSessionScript(await passwordSession(server, marketer));
    for (let i = 0; i < RUNS; i++) {
      const page = await bare.newPage({ width: 1440, height: 900, initScript });
      await page.goto(`${server.url}/assets/${asset.id}`);
      await page.waitFor(SHOWN);
      const t = await page.evaluate<Times>(TIMES);
      expect(t.shown).toBeGreaterThan(0);
      cold.push(t);
      await page.close();
    }
  } finally {
    await bare.close();
  }
  const shown = cold.map((t) => t.shown);
  const summary = [
    `first page of a 100-page PDF (${bytes} bytes), first visit, navigation → page 1 on screen:`,
    `median ${median(shown)} ms [${shown.join(", ")}]`,
    `(page 1 drawn and put in the page: median ${median(cold.map((t) => t.painted))} ms;`,
    `Asset detail's code loaded: median ${median(cold.map((t) => t.code))} ms;`,
    `pdf.js worker up: median ${median(cold.map((t) => t.worker))} ms; PDF open: median ${median(cold.map((t) => t.document))} ms;`,
    `shell first contentful paint: median ${median(cold.map((t) => t.fcp))} ms)`,
  ].join(" ");
  console.log(summary);
  testInfo.annotations.push({ type: "figure", description: summary });
  expect(median(shown)).toBeLessThanOrEqual(BUDGET_MS);
});

test("reload and opening from the Hub: page 1 within 1.5 s; the first visit under Playwright", async ({ arrange, browser, server }, testInfo) => {
  test.setTimeout(300_000);
  const { marketer, asset } = await hundredPageAsset(arrange, server);
  const instrumented: number[] = [];
  const warm: number[] = [];
  const inApp: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signInFast(page, server, marketer);
    for (const bucket of [instrumented, warm]) {
      if (bucket === instrumented) await page.goto(`/assets/${asset.id}`);
      else await page.reload();
      // A light probe (no locator polling, which costs the page CPU while it loads).
      await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, SHOWN_MARK, {
        polling: 250,
        timeout: 30_000,
      });
      const t = await page.evaluate<Times>(TIMES);
      expect(t.shown).toBeGreaterThan(0);
      bucket.push(t.shown);
    }
    await expect(page.getByTestId("page-indicator")).toHaveText("Page 1 of 100");
    // The everyday path: the app is open on the Hub and the asset is opened from its row.
    await page.goto("/content");
    const row = page.getByRole("link", { name: /Hundred-page PDF/ }).first();
    await row.waitFor();
    const before = await page.evaluate((mark) => {
      performance.mark("perf:open-from-hub");
      return performance.getEntriesByName(mark).length;
    }, SHOWN_MARK);
    await row.click();
    await page.waitForFunction(([mark, n]) => performance.getEntriesByName(mark).length > n, [SHOWN_MARK, before] as const, {
      polling: 100,
      timeout: 30_000,
    });
    inApp.push(
      await page.evaluate((mark) => {
        const start = performance.getEntriesByName("perf:open-from-hub")[0]?.startTime ?? 0;
        const marks = performance.getEntriesByName(mark);
        return Math.round((marks[marks.length - 1]?.startTime ?? 0) - start);
      }, SHOWN_MARK),
    );
    await context.close();
  }

  const summary = [
    `first page of a 100-page PDF, → page 1 on screen:`,
    `reload median ${median(warm)} ms [${warm.join(", ")}];`,
    `opened from the Hub (click →) median ${median(inApp)} ms [${inApp.join(", ")}];`,
    `first visit under Playwright's instrumentation median ${median(instrumented)} ms [${instrumented.join(", ")}]`,
  ].join(" ");
  console.log(summary);
  testInfo.annotations.push({ type: "figure", description: summary });
  expect(median(warm)).toBeLessThanOrEqual(BUDGET_MS);
  expect(median(inApp)).toBeLessThanOrEqual(BUDGET_MS);
  expect(median(instrumented)).toBeLessThanOrEqual(PLAYWRIGHT_COLD_BOUND_MS);
});
