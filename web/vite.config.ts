import { writeFileSync } from "node:fs";
import { fileURLToPath, URL } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import type { HtmlTagDescriptor, Plugin, ProxyOptions } from "vite";
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

/**
 * Builds src/app/boot.ts as an entry of its own and loads it before the app
 * (index.html gets its script first): the app's code takes a while to arrive
 * and evaluate, and the boot script starts the first screen's requests in
 * that time. main.tsx imports it too, so it also runs in development; a
 * module runs once, however often it is imported.
 */
function bootEntry(): Plugin {
  return {
    name: "fairbalance-boot-entry",
    apply: "build",
    config: () => ({ build: { rollupOptions: { input: { index: "index.html", boot: "src/app/boot.ts" } } } }),
    transformIndexHtml: {
      order: "post",
      handler(_html, ctx) {
        const boot = Object.values(ctx.bundle ?? {}).find((c) => c.type === "chunk" && c.isEntry && c.name === "boot");
        if (boot?.type !== "chunk") throw new Error("the boot entry is missing from the build");
        const tags: HtmlTagDescriptor[] = boot.imports.map((file) => ({
          tag: "link",
          attrs: { rel: "modulepreload", crossorigin: true, href: `/${file}` },
          injectTo: "head-prepend",
        }));
        tags.unshift({ tag: "script", attrs: { type: "module", crossorigin: true, src: `/${boot.fileName}` }, injectTo: "head-prepend" });
        return tags;
      },
    },
  };
}

/**
 * Puts dist/.gitkeep back after the build has emptied dist. The empty file
 * is committed so that dist exists in a fresh clone, where the Go program
 * (web/embed.go embeds dist) must build and vet without a web build.
 */
function keepDistPlaceholder(): Plugin {
  return {
    name: "fairbalance-keep-dist-placeholder",
    apply: "build",
    writeBundle() {
      writeFileSync(fileURLToPath(new URL("./dist/.gitkeep", import.meta.url)), "");
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), bootEntry(), keepDistPlaceholder()],
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./src", import.meta.url)),
    },
  },
  build: {
    // Not "assets": the app has its own /assets/{id} route.
    assetsDir: "_app",
    // The page's own scripts are preloaded from the HTML; a lazy screen's
    // chunks are not: the helper that would add a <link rel=modulepreload>
    // per chunk at run time cost the main thread over 100 ms on a cold start
    // (about 2 ms per link on a slow machine), more than the one extra round
    // trip per import level it saves on localhost or a LAN.
    modulePreload: {
      resolveDependencies: (_file, deps, { hostType }) => (hostType === "html" ? deps : []),
    },
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
    // Room for the 5 s waits of src/test/setup.ts on a loaded machine.
    testTimeout: 15000,
  },
});
