import { defineConfig } from "@playwright/test";
import base from "../playwright.config";

// Benchmarks of the web app against the real binary, apart from the
// end-to-end suite (nothing here asserts a time): each prints the
// distribution it measured. Run on an otherwise idle machine:
//   FAIRBALANCE_BIN=… npx playwright test -c bench/playwright.config.ts
export default defineConfig({
  ...base,
  testDir: ".",
  testMatch: "*.bench.ts",
  outputDir: "../node_modules/.bench-results",
  workers: 1,
  timeout: 600_000,
});
