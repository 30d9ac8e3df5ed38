import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const execFileP = promisify(execFile);

/** The binary under test: FAIRBALANCE_BIN or ../bin/fairbalance (built with the app embedded). */
export const BIN = resolve(process.env.FAIRBALANCE_BIN ?? join(import.meta.dirname, "..", "..", "..", "bin", "fairbalance"));

export interface MailMessage {
  id: number;
  to: string;
  subject: string;
  kind: string;
  text: string;
  html: string;
  created_at: string;
}

/** A running server on a fresh data directory. */
export interface Server {
  url: string;
  anonKey: string;
  serviceKey: string;
  recoveryKey: string;
  dataDir: string;
  stop(): Promise<void>;
  /** The outbox, newest first, optionally for one recipient. */
  mail(to?: string): Promise<MailMessage[]>;
  /** Waits for a message to `to` matching `pred` and returns it. */
  waitMail(to: string, pred?: (m: MailMessage) => boolean): Promise<MailMessage>;
  /** A fetch to the server with the service-role key. */
  service(path: string, init?: RequestInit): Promise<Response>;
}

/** Starts `fairbalance serve` on a free port; rate limits off so tests can sign in often. */
export async function startServer(extraArgs: string[] = []): Promise<Server> {
  if (!existsSync(BIN)) {
    throw new Error(`server binary not found at ${BIN}: run "make build" or set FAIRBALANCE_BIN`);
  }
  const dataDir = await mkdtemp(join(tmpdir(), "fairbalance-e2e-"));
  const { stdout } = await execFileP(BIN, ["keys", "--json", "--data-dir", dataDir]);
  const keys = JSON.parse(stdout) as { anon_key: string; service_role_key: string };
  // The recovery key is only in the operator's key file (mode 0600).
  const keyFile = JSON.parse(await readFile(join(dataDir, "keys.json"), "utf8")) as { recovery_key?: string };
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("FAIRBALANCE_")));
  const child: ChildProcess = spawn(
    BIN,
    [
      "serve",
      "--addr", "127.0.0.1:0",
      "--data-dir", dataDir,
      "--rate-limits=false",
      "--mail-min-interval", "1s",
      "--access-log=false",
      "--log-format", "json",
      // E2E_WEB_DIR serves a separate Vite build (development); by default the embedded app.
      ...(process.env.E2E_WEB_DIR ? ["--web-dir", process.env.E2E_WEB_DIR] : []),
      ...extraArgs,
    ],
    { env, stdio: ["ignore", "ignore", "pipe"] },
  );
  const lines: string[] = [];
  const addr = await new Promise<string>((resolveAddr, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`server did not start:\n${lines.join("\n")}`));
    }, 30_000);
    let partial = "";
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      partial += chunk;
      const parts = partial.split("\n");
      partial = parts.pop() ?? "";
      for (const line of parts) {
        lines.push(line);
        if (lines.length > 200) lines.shift();
        try {
          const rec = JSON.parse(line) as { msg?: string; addr?: string };
          if (rec.msg === "fairbalance serving" && rec.addr) {
            clearTimeout(timer);
            resolveAddr(rec.addr);
          }
        } catch {
          // not JSON
        }
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${String(code)}:\n${lines.join("\n")}`));
    });
  });
  const url = `http://${addr}`;
  const kill = () => child.kill("SIGKILL");
  process.on("exit", kill);

  const service = (path: string, init: RequestInit = {}) =>
    fetch(`${url}${path}`, {
      ...init,
      headers: {
        apikey: keys.service_role_key,
        Authorization: `Bearer ${keys.service_role_key}`,
        "Content-Type": "application/json",
        ...(init.headers as Record<string, string> | undefined),
      },
    });

  const mail = async (to?: string) => {
    const q = to ? `?to=${encodeURIComponent(to)}` : "";
    const res = await service(`/api/admin/mail${q}`);
    if (!res.ok) throw new Error(`GET /api/admin/mail: ${res.status}`);
    const body = (await res.json()) as { messages?: MailMessage[] } | MailMessage[];
    return Array.isArray(body) ? body : (body.messages ?? []);
  };

  return {
    url,
    anonKey: keys.anon_key,
    serviceKey: keys.service_role_key,
    recoveryKey: keyFile.recovery_key ?? "",
    dataDir,
    service,
    mail,
    async waitMail(to, pred = () => true) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const found = (await mail(to)).find(pred);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async stop() {
      process.off("exit", kill);
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The first link in a message's text that contains `part`. */
export function linkIn(message: MailMessage, part = "/auth/v1/verify"): string {
  const match = [...`${message.text}\n${message.html}`.matchAll(/https?:\/\/[^\s"'<>]+/g)]
    .map((m) => m[0].replaceAll("&amp;", "&"))
    .find((u) => u.includes(part));
  if (!match) throw new Error(`no link with ${part} in mail "${message.subject}"`);
  return match;
}
