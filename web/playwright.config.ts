import { basename } from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./e2e/support/chromium";

// End-to-end tests drive the real binary (bin/fairbalance, built with the
// app embedded) in Debian's Chromium. Each worker starts its own server on a
// fresh data directory (see e2e/support/fixtures.ts).
export default defineConfig({
  testDir: "./e2e",
  // One results folder per web build under test, so concurrent runs do not clear each other's.
  outputDir: `./node_modules/.e2e-results/${basename(process.env.E2E_WEB_DIR ?? "embedded")}`,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    viewport: { width: 1440, height: 900 },
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: true, sources: false },
    screenshot: "only-on-failure",
  },
});
