import { fileURLToPath, URL } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import type { ProxyOptions } from "vite";
import { defineConfig } from "vitest/config";

// The Go server listens here during development.
const backend = "http://127.0.0.1:8080";

// Path prefixes served by the Go server rather than the single-page app.
// Keys starting with "^" are regular expressions, so "/rest" does not also
// capture a client route such as "/restore".
const backendPrefixes = ["api", "auth", "rest", "storage", "functions", "realtime"];

const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  backendPrefixes.map((prefix) => [
    `^/${prefix}(?:[/?#]|$)`,
    { target: backend, ws: prefix === "realtime", xfwd: true },
  ]),
);

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./src", import.meta.url)),
    },
  },
  build: {
    // Not "assets": the app has its own /assets/{id} route.
    assetsDir: "_app",
  },
  server: {
    proxy,
  },
  preview: {
    proxy,
  },
  test: {
    // e2e/ holds the Playwright suite, run by `npx playwright test`.
    include: ["src/**/*.test.{ts,tsx}"],
    environment: "jsdom",
    setupFiles: ["./src/test/setup.ts"],
    css: false,
    restoreMocks: true,
    unstubGlobals: true,
  },
});
