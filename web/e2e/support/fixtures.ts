import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { BIN, startServer, type Server } from "./server";

const execFileP = promisify(execFile);

/** Where the app keeps its session (src/lib/supabase.ts). */
export const AUTH_STORAGE_KEY = "fairbalance.auth";

export { expect };

/** A unique e-mail address at example.com. */
export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${randomBytes(6).toString("hex")}@example.com`;
}

/** A password that meets the policy. */
export const PASSWORD = "Correct-Horse-42";

export interface Member {
  id: string;
  email: string;
  password: string;
  orgId: string | null;
  role: string;
  fullName: string;
}

/**
 * Helpers that arrange data through the real API with the service-role key
 * (the same calls an operator's tooling would make), so each test starts
 * from the state it needs without clicking through unrelated screens.
 */
export class Arrange {
  readonly server: Server;

  constructor(server: Server) {
    this.server = server;
  }

  /** Creates an organisation and returns its id. */
  async org(name = `Org ${randomBytes(3).toString("hex")}`): Promise<string> {
    const res = await this.server.service("/rest/v1/orgs", {
      method: "POST",
      headers: { Prefer: "return=representation" },
      body: JSON.stringify({ name, industry: "Pharmaceutical" }),
    });
    if (!res.ok) throw new Error(`create org: ${res.status} ${await res.text()}`);
    const [row] = (await res.json()) as { id: string }[];
    if (!row) throw new Error("create org: no row");
    return row.id;
  }

  /** Creates a confirmed account and sets its profile (organisation, role, name). */
  async member(opts: { role?: string; orgId?: string | null; email?: string; fullName?: string; password?: string } = {}): Promise<Member> {
    const email = opts.email ?? uniqueEmail(opts.role ?? "member");
    const password = opts.password ?? PASSWORD;
    const fullName = opts.fullName ?? "Test Member";
    const res = await this.server.service("/auth/v1/admin/users", {
      method: "POST",
      body: JSON.stringify({ email, password, email_confirm: true, user_metadata: { full_name: fullName } }),
    });
    if (!res.ok) throw new Error(`create user: ${res.status} ${await res.text()}`);
    const user = (await res.json()) as { id: string };
    const role = opts.role ?? "marketer";
    const orgId = opts.orgId === undefined ? null : opts.orgId;
    const patch = await this.server.service(`/rest/v1/profiles_v2?id=eq.${user.id}`, {
      method: "PATCH",
      body: JSON.stringify({ org_id: orgId, role, full_name: fullName }),
    });
    if (!patch.ok) throw new Error(`set profile: ${patch.status} ${await patch.text()}`);
    return { id: user.id, email, password, orgId, role, fullName };
  }

  /**
   * Marks `member` an instance operator, as the server's operator does from
   * a shell (`fairbalance operator grant`): only operators change the
   * instance-wide settings; other admins see them read-only.
   */
  async operator(member: Pick<Member, "email">): Promise<void> {
    await execFileP(BIN, ["operator", "grant", "--email", member.email, "--data-dir", this.server.dataDir]);
  }

  /** An organisation with an admin in it. */
  async workspace(name?: string): Promise<{ orgId: string; admin: Member }> {
    const orgId = await this.org(name);
    const admin = await this.member({ role: "admin", orgId, fullName: "Alex Admin" });
    return { orgId, admin };
  }
}

/** Signs in through the login screen and waits for the Command Center. */
export async function signIn(page: Page, member: Pick<Member, "email" | "password">): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password", { exact: true }).fill(member.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/** A session for `member`, from the password grant of the auth API. */
export async function passwordSession(server: Server, member: Pick<Member, "email" | "password">): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: server.anonKey, "Content-Type": "application/json" },
    body: JSON.stringify({ email: member.email, password: member.password }),
  });
  if (!res.ok) throw new Error(`sign in: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/**
 * A script for the start of a page's documents that stores `session` where
 * the app keeps it — once per tab, so signing out in the test sticks.
 */
export function storedSessionScript(session: Record<string, unknown>): string {
  const key = JSON.stringify(AUTH_STORAGE_KEY);
  const value = JSON.stringify(JSON.stringify(session));
  return `if (!window.sessionStorage.getItem("e2e.signed-in")) {
  window.localStorage.setItem(${key}, ${value});
  window.sessionStorage.setItem("e2e.signed-in", "1");
}`;
}

/**
 * Signs in through the API and stores the session where the app keeps it,
 * before the page loads: for tests about something other than the login
 * screen.
 */
export async function signInFast(page: Page, server: Server, member: Pick<Member, "email" | "password">): Promise<void> {
  await page.addInitScript({ content: storedSessionScript(await passwordSession(server, member)) });
}

/** Fails on any serious or critical axe-core violation of the current page. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
  ).toEqual([]);
}

interface WorkerFixtures {
  server: Server;
}

interface TestFixtures {
  arrange: Arrange;
}

/**
 * `server` is one instance per worker (fresh data directory, preview on so
 * the demo can be tested); `baseURL` points the page at it. Tests that need
 * an instance of their own (initial setup) call startServer themselves.
 */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  server: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer(["--preview"]);
      await use(server);
      await server.stop();
    },
    { scope: "worker" },
  ],
  baseURL: async ({ server }, use) => {
    await use(server.url);
  },
  arrange: async ({ server }, use) => {
    await use(new Arrange(server));
  },
});
