import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./chromium";

// Playwright follows every page it drives: each request and response is
// reported to it over the DevTools protocol and its helper scripts run in
// every document. On a 2-core machine, where a cold start of the app already
// keeps both cores busy, that bookkeeping is a few hundred milliseconds of
// CPU the app's start-up has to share. Benchmarks that time what a user's
// browser does therefore drive Chromium directly, over the DevTools pipe,
// asking only for what they read: no network events, no injected scripts.

interface Reply {
  id?: number;
  result?: unknown;
  error?: { message?: string };
}

/** A Chromium process driven over --remote-debugging-pipe (DevTools protocol, one JSON message per NUL). */
export class BareChromium {
  private nextId = 0;
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private buffer = "";
  private readonly proc: ChildProcess;
  private readonly out: Writable;
  private readonly profileDir: string;

  private constructor(proc: ChildProcess, out: Writable, input: Readable, profileDir: string) {
    this.proc = proc;
    this.out = out;
    this.profileDir = profileDir;
    input.on("data", (chunk: Buffer) => {
      this.buffer += chunk.toString("utf8");
      for (let end = this.buffer.indexOf("\0"); end >= 0; end = this.buffer.indexOf("\0")) {
        const msg = JSON.parse(this.buffer.slice(0, end)) as Reply;
        this.buffer = this.buffer.slice(end + 1);
        const waiter = msg.id === undefined ? undefined : this.pending.get(msg.id);
        if (!waiter || msg.id === undefined) continue;
        this.pending.delete(msg.id);
        if (msg.error) waiter.reject(new Error(`DevTools: ${msg.error.message ?? JSON.stringify(msg.error)}`));
        else waiter.resolve(msg.result);
      }
    });
  }

  /** Starts Chromium with the suite's flags and a throwaway profile. */
  static launch(): BareChromium {
    const profileDir = mkdtempSync(join(tmpdir(), "bare-chromium-"));
    const proc = spawn(CHROMIUM_PATH, [...CHROMIUM_ARGS, "--remote-debugging-pipe", `--user-data-dir=${profileDir}`, "about:blank"], {
      stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"],
    });
    return new BareChromium(proc, proc.stdio[3] as Writable, proc.stdio[4] as Readable, profileDir);
  }

  /** Sends one DevTools command (to a page when `sessionId` is given) and waits for its answer. */
  send<T>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    const id = ++this.nextId;
    const done = new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
    });
    this.out.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    return done;
  }

  /**
   * Opens a blank page in a new browser context (its own empty cache and
   * storage, like a first visit) at `width`×`height`, with `initScript`
   * run at the start of every document it loads.
   */
  async newPage(opts: { width: number; height: number; initScript?: string }): Promise<BarePage> {
    const { browserContextId } = await this.send<{ browserContextId: string }>("Target.createBrowserContext");
    const { targetId } = await this.send<{ targetId: string }>("Target.createTarget", {
      url: "about:blank",
      browserContextId,
      width: opts.width,
      height: opts.height,
    });
    const { sessionId } = await this.send<{ sessionId: string }>("Target.attachToTarget", { targetId, flatten: true });
    await this.send("Emulation.setDeviceMetricsOverride", { width: opts.width, height: opts.height, deviceScaleFactor: 1, mobile: false }, sessionId);
    if (opts.initScript) {
      // Init scripts need the Page domain; it reports frame events only, not requests.
      await this.send("Page.enable", {}, sessionId);
      await this.send("Page.addScriptToEvaluateOnNewDocument", { source: opts.initScript }, sessionId);
    }
    return new BarePage(this, sessionId, targetId, browserContextId);
  }

  /** Stops Chromium and, once it has exited, removes its profile. */
  async close(): Promise<void> {
    if (this.proc.exitCode === null && this.proc.signalCode === null) {
      const exited = new Promise((resolve) => this.proc.once("exit", resolve));
      this.proc.kill();
      await exited;
    }
    // Chromium's helper processes may still be writing to the profile for a moment after it exits.
    for (let attempt = 0; ; attempt++) {
      try {
        rmSync(this.profileDir, { recursive: true, force: true });
        return;
      } catch (error) {
        if (attempt >= 50) throw error;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
}

/** A page of a {@link BareChromium}. */
export class BarePage {
  private readonly browser: BareChromium;
  private readonly sessionId: string;
  private readonly targetId: string;
  private readonly browserContextId: string;

  constructor(browser: BareChromium, sessionId: string, targetId: string, browserContextId: string) {
    this.browser = browser;
    this.sessionId = sessionId;
    this.targetId = targetId;
    this.browserContextId = browserContextId;
  }

  /** Starts navigating to `url` (does not wait for it to load). */
  async goto(url: string): Promise<void> {
    const r = await this.browser.send<{ errorText?: string }>("Page.navigate", { url }, this.sessionId);
    if (r.errorText) throw new Error(`navigate ${url}: ${r.errorText}`);
  }

  /** The value of a JavaScript expression evaluated in the page. */
  async evaluate<T>(expression: string): Promise<T> {
    const r = await this.browser.send<{ result: { value?: unknown }; exceptionDetails?: { text?: string } }>(
      "Runtime.evaluate",
      { expression, returnByValue: true, awaitPromise: true },
      this.sessionId,
    );
    if (r.exceptionDetails) throw new Error(`evaluate: ${r.exceptionDetails.text ?? "exception"}`);
    return r.result.value as T;
  }

  /** Polls `expression` every `intervalMs` until it is truthy; fails after `timeoutMs`. */
  async waitFor(expression: string, { intervalMs = 250, timeoutMs = 30_000 } = {}): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!(await this.evaluate<boolean>(`Boolean(${expression})`))) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${expression}`);
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }

  /** Closes the page and drops its browser context. */
  async close(): Promise<void> {
    await this.browser.send("Target.closeTarget", { targetId: this.targetId });
    await this.browser.send("Target.disposeBrowserContext", { browserContextId: this.browserContextId });
  }
}
