import { mkdir, readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { Arrange, expect as baseExpect, expectAccessible, type Member, signInFast, test } from "./support/fixtures";
import { type Server, startServer } from "./support/server";

// The Audit Log and Diagnostics screens against the real server: entries
// written through the data API and the workflow functions appear, filters
// narrow them and live in the URL, pages are read by id, the detail shows
// before/after, the CSV export matches, the chain verifies, another
// organisation's entries never show, and Diagnostics shows the instance,
// the outbox (admins only) and the browser's error log.

const SHOTS = "/tmp/shots-audit";

// The shared test machine is often busy: allow for slow screens.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 240_000 });

/** An access token for a member, as the app would hold it. */
async function accessToken(server: Server, member: Pick<Member, "email" | "password">): Promise<string> {
  const res = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: server.anonKey, "Content-Type": "application/json" },
    body: JSON.stringify({ email: member.email, password: member.password }),
  });
  if (!res.ok) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A data API call as a member. */
async function rest(server: Server, token: string, path: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(`${server.url}${path}`, {
    ...init,
    headers: {
      apikey: server.anonKey,
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
      ...(init.headers as Record<string, string> | undefined),
    },
  });
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
  return res;
}

/** Appends `n` entries to the member's organisation's chain in one insert. */
async function seedEntries(server: Server, token: string, n: number, action: string, objectType = "asset"): Promise<void> {
  const rows = Array.from({ length: n }, (_, i) => ({ action, object_type: objectType, object_id: `obj-${i + 1}`, meta: { seq: i + 1 } }));
  await rest(server, token, "/rest/v1/audit_logs_v2", { method: "POST", body: JSON.stringify(rows) });
}

/** An organisation whose admin renamed it and invited someone, and whose marketer wrote one entry. */
async function busyWorkspace(arrange: Arrange, server: Server) {
  const { orgId, admin } = await arrange.workspace("Northwind Bio");
  const marketer = await arrange.member({ role: "marketer", orgId, fullName: "Morgan Marketer" });
  const adminToken = await accessToken(server, admin);
  const marketerToken = await accessToken(server, marketer);
  await rest(server, adminToken, `/rest/v1/orgs?id=eq.${orgId}`, { method: "PATCH", body: JSON.stringify({ name: "Northwind Biologics" }) });
  await rest(server, adminToken, "/rest/v1/rpc/create_invite", { method: "POST", body: JSON.stringify({ email: "new.hire@example.com", role: "marketer" }) });
  await rest(server, marketerToken, "/rest/v1/audit_logs_v2", {
    method: "POST",
    body: JSON.stringify({ action: "asset_viewed", object_type: "asset", object_id: "FB-US-0042", meta: { channel: "email" } }),
  });
  return { orgId, admin, marketer, adminToken, marketerToken };
}

/** The actions of the rows on screen, top to bottom. */
async function actions(page: Page): Promise<string[]> {
  const table = page.getByRole("table", { name: "Audit entries, newest first" });
  await expect(table).toBeVisible();
  // The cell words the action; the action's name is its data-action.
  return table.locator("tbody tr td:nth-child(4)").evaluateAll((cells) => cells.map((c) => c.getAttribute("data-action") ?? ""));
}

/** The ids of the rows on screen, top to bottom. */
async function ids(page: Page): Promise<number[]> {
  const cells = await page.locator("tbody tr[data-entry-id]").evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-entry-id"))));
  return cells;
}

test.describe("Audit Log", () => {
  test("shows the organisation's actions; filters by action and actor narrow the rows and live in the URL", async ({ page, arrange, server }) => {
    const { admin, marketer } = await busyWorkspace(arrange, server);
    await signInFast(page, server, admin);
    await page.goto("/audit-log");

    await expect(page.getByRole("heading", { name: "Audit Log", level: 1 })).toBeVisible();
    await expect.poll(() => actions(page)).toEqual(expect.arrayContaining(["orgs.update", "invite_created", "asset_viewed"]));
    // The actor's name and e-mail come from the members list.
    const row = page.locator("tbody tr", { hasText: "asset_viewed" });
    await expect(row).toContainText("Morgan Marketer");
    await expect(row).toContainText(marketer.email);
    await expect(row).toContainText("channel: email");
    // Local time, with UTC on hover.
    await expect(row.locator("time")).toHaveAttribute("title", /UTC$/);
    await expectAccessible(page);

    // Action: typing filters (after a pause) and goes into the URL.
    await page.getByLabel("Action").fill("invite_created");
    await expect(page).toHaveURL(/[?&]action=invite_created/);
    await expect.poll(() => actions(page)).toEqual(["invite_created"]);
    await expect(page.getByTestId("audit-count")).toContainText("1 entry matches");

    // A part of an action name matches too.
    await page.getByLabel("Action").fill("invite");
    await expect(page).toHaveURL(/[?&]action=invite(&|$)/);
    await expect.poll(() => actions(page)).toEqual(["invite_created"]);
    // Not counted on the server, but one page holds every match.
    await expect(page.getByTestId("audit-count")).toContainText("1 entry matches");

    // Actor: only the marketer's entries.
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(/\/audit-log$/);
    await page.getByLabel("Actor").selectOption(marketer.id);
    await expect(page).toHaveURL(new RegExp(`[?&]actor=${marketer.id}`));
    await expect.poll(() => actions(page)).toEqual(["asset_viewed"]);

    // The filtered view is shareable: a fresh load of the URL shows the same rows.
    const url = page.url();
    await page.goto("about:blank");
    await page.goto(url);
    await expect(page.getByLabel("Actor")).toHaveValue(marketer.id);
    await expect.poll(() => actions(page)).toEqual(["asset_viewed"]);

    // A period filter keeps the recent rows; a custom range in the past has none.
    await page.getByLabel("Actor").selectOption("");
    await page.getByLabel("Period").selectOption("24h");
    await expect(page).toHaveURL(/period=24h/);
    await expect.poll(() => actions(page)).toEqual(expect.arrayContaining(["asset_viewed", "invite_created"]));
    await page.getByLabel("Period").selectOption("custom");
    await page.getByLabel("From", { exact: true }).fill("2020-01-01");
    await page.getByLabel("To", { exact: true }).fill("2020-01-31");
    await expect(page).toHaveURL(/from=2020-01-01&to=2020-01-31/);
    await expect(page.getByText("No entries match these filters")).toBeVisible();
    await expectAccessible(page);
  });

  test("entry detail shows every field and the before/after values with the changes marked", async ({ page, arrange, server }) => {
    const { admin } = await busyWorkspace(arrange, server);
    await signInFast(page, server, admin);
    await page.goto("/audit-log?action=orgs.update");
    await page.locator("tbody tr", { hasText: "orgs.update" }).click();

    const sheet = page.getByRole("dialog");
    await expect(sheet.getByRole("heading", { name: /Audit entry #\d+/ })).toBeVisible();
    await expect(page).toHaveURL(/[?&]entry=\d+/);
    await expect(sheet).toContainText("Alex Admin");
    await expect(sheet).toContainText(admin.email);
    await expect(sheet.getByTestId("entry-hash")).toHaveText(/^[0-9a-f]{64}$/);
    await expect(sheet.getByLabel("Meta JSON")).toContainText('"via": "data_api"');

    const changes = sheet.getByTestId("entry-changes");
    const name = changes.locator('tr[data-field="name"]');
    await expect(name).toHaveAttribute("data-changed", "true");
    await expect(name.locator("td").nth(0)).toHaveText("Northwind Bio");
    await expect(name.locator("td").nth(1)).toHaveText("Northwind Biologics");
    // Unchanged fields are listed but not marked.
    await expect(changes.locator('tr[data-field="industry"]')).not.toHaveAttribute("data-changed", "true");
    await expectAccessible(page);

    // The open entry is part of the URL, so it can be shared; closing removes it.
    await page.reload();
    await expect(page.getByRole("dialog").getByRole("heading", { name: /Audit entry #\d+/ })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page).not.toHaveURL(/entry=/);
  });

  test("pages through more than 50 entries by id, older and newer", async ({ page, arrange, server }) => {
    const { orgId, admin } = await arrange.workspace();
    const token = await accessToken(server, admin);
    await seedEntries(server, token, 120, "bulk_seeded", "bulk");
    const head = (await (await rest(server, token, "/rest/v1/audit_logs_v2?select=id&order=id.desc&limit=1")).json()) as { id: number }[];
    const newest = head[0]?.id ?? 0;
    expect(newest).toBeGreaterThan(120);

    await signInFast(page, server, admin);
    await page.goto("/audit-log?type=bulk");
    await expect(page.getByTestId("audit-count")).toContainText("120 entries match");
    await expect.poll(() => ids(page)).toHaveLength(50);
    const first = await ids(page);
    expect(first[0]).toBe(newest);
    expect(first).toEqual([...first].sort((a, b) => b - a));

    const older = page.getByRole("button", { name: "Older" });
    const newer = page.getByRole("button", { name: "Newer" });
    await expect(newer).toBeDisabled();
    await older.click();
    await expect(page).toHaveURL(new RegExp(`before=${first.at(-1)}`));
    await expect.poll(async () => (await ids(page))[0]).toBe((first.at(-1) ?? 0) - 1);
    const second = await ids(page);
    expect(second).toHaveLength(50);

    await older.click();
    await expect.poll(() => ids(page)).toHaveLength(20);
    await expect(older).toBeDisabled();

    await newer.click();
    await expect.poll(() => ids(page)).toEqual(second);
    await newer.click();
    await expect.poll(() => ids(page)).toEqual(first);
    await expect(page).not.toHaveURL(/before=/);
    expect(orgId).toBeTruthy();
  });

  test("exports the current filter as CSV", async ({ page, arrange, server }) => {
    const { admin, adminToken } = await busyWorkspace(arrange, server);
    await seedEntries(server, adminToken, 60, "csv_seeded", "report");
    await signInFast(page, server, admin);
    await page.goto("/audit-log?type=report");
    await expect(page.getByTestId("audit-count")).toContainText("60 entries match");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await readFile(await download.path(), "utf8");
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0]).toBe("id,created_at,actor_id,actor_email,action,object_type,object_id,org_id,meta,before,after,hash");
    expect(lines).toHaveLength(61);
    const records = lines.slice(1).map((l) => l.split(","));
    expect(records.every((r) => r[4] === "csv_seeded" && r[5] === "report" && r[3] === admin.email)).toBe(true);
    // Newest first, like the screen.
    const csvIds = records.map((r) => Number(r[0]));
    expect(csvIds).toEqual([...csvIds].sort((a, b) => b - a));
    expect(csvIds.slice(0, 50)).toEqual(await ids(page));
    await expect(page.getByText("Audit log exported")).toBeVisible();
  });

  test("verifies the chain and keeps the result", async ({ page, arrange, server }) => {
    const { admin } = await busyWorkspace(arrange, server);
    await signInFast(page, server, admin);
    await page.goto("/audit-log");
    const panel = page.getByTestId("chain-panel");
    await expect(panel.getByTestId("chain-status")).toHaveText("Not verified yet");
    await panel.getByRole("button", { name: "Verify chain" }).click();
    await expect(panel.getByTestId("chain-status")).toHaveText(/^Chain intact — \d+ entries verified$/);
    await expect(panel).toHaveAttribute("data-state", "ok");
    // The run is itself recorded, and the last result survives a reload.
    await expect.poll(() => actions(page)).toContain("audit_chain_verified");
    await page.reload();
    await expect(page.getByTestId("chain-status")).toHaveText(/^Chain intact — \d+ entries verified$/);
    await expect(page.getByTestId("chain-panel")).toContainText("by Alex Admin");
  });

  test("never shows another organisation's entries", async ({ page, arrange, server }) => {
    const mine = await busyWorkspace(arrange, server);
    const other = await arrange.workspace("Other Org");
    const otherToken = await accessToken(server, other.admin);
    await seedEntries(server, otherToken, 3, "other_org_secret");

    await signInFast(page, server, mine.admin);
    await page.goto("/audit-log");
    await expect.poll(() => actions(page)).toEqual(expect.arrayContaining(["asset_viewed"]));
    expect(await actions(page)).not.toContain("other_org_secret");
    await page.goto("/audit-log?action=other_org_secret");
    await expect(page.getByText("No entries match these filters")).toBeVisible();
    await page.goto("/audit-log?type=asset");
    await expect.poll(() => actions(page)).toEqual(["asset_viewed"]);
    await expect(page.getByTestId("audit-count")).toContainText("1 entry matches");
    // Nor through the API with the member's own token.
    const res = await rest(server, mine.adminToken, "/rest/v1/audit_logs_v2?select=id&action=eq.other_org_secret");
    expect(await res.json()).toEqual([]);
    // The other organisation's members are not offered as actors.
    await expect(page.getByLabel("Actor").locator("option", { hasText: other.admin.email })).toHaveCount(0);
  });
});

test.describe("Audit Log seal", () => {
  test("shows the signed checkpoint, that the chain matches it, and what a client may not write", async ({ browser }) => {
    // An instance of its own that seals every second rather than every minute.
    const own = await startServer(["--audit-seal-interval", "1s"]);
    try {
      await mkdir(SHOTS, { recursive: true });
      const { admin, adminToken } = await busyWorkspace(new Arrange(own), own);
      // A client cannot pass its entry off as one the server records.
      const forged = await fetch(`${own.url}/rest/v1/audit_logs_v2`, {
        method: "POST",
        headers: { apikey: own.anonKey, Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
        body: JSON.stringify({ action: "asset_approved", object_type: "asset", object_id: "FB-US-0042" }),
      });
      expect(forged.status).toBe(403);
      expect(((await forged.json()) as { message: string }).message).toContain('"asset_approved" is recorded only by the server');

      const context = await browser.newContext({ baseURL: own.url, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await signInFast(page, own, admin);
      await page.goto("/audit-log");
      const seal = page.getByTestId("seal-panel");
      await expect(async () => {
        await page.reload();
        await baseExpect(seal.getByTestId("seal-status")).toHaveText(/^Sealed up to entry #\d+$/, { timeout: 3_000 });
      }).toPass({ timeout: 30_000 });
      await expect(seal).toHaveAttribute("data-state", "sealed");
      await expect(seal.getByTestId("seal-comparison")).toHaveText("Not compared yet — verify the chain to check it against this checkpoint");
      await page.getByRole("button", { name: "Verify chain" }).click();
      await expect(page.getByTestId("chain-status")).toHaveText(/^Chain intact — \d+ entries verified$/);
      // The run itself is sealed a moment later: the comparison names the checkpoint it used.
      await expect(seal.getByTestId("seal-comparison")).toHaveText(/^The chain match(es this checkpoint|ed the checkpoint of entry #\d+ when last verified)$/);
      await expectAccessible(page);

      // The client's entry is marked as such in its detail.
      await page.goto("/audit-log?action=asset_viewed");
      await page.locator("[data-entry-id]").first().click();
      await expect(page.getByTestId("entry-source")).toContainText("Client-reported");

      for (const [width, height] of [
        [1440, 900],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.goto("/audit-log");
        await expect(seal.getByTestId("seal-comparison")).toBeVisible();
        await page.screenshot({ path: `${SHOTS}/audit-seal-${width}.png`, fullPage: width < 640 });
      }
      await context.close();
    } finally {
      await own.stop();
    }
  });
});

test.describe("Diagnostics", () => {
  test("shows the instance, the outbox to an admin, and errors logged in the page", async ({ page, arrange, server }) => {
    const { admin, adminToken } = await busyWorkspace(arrange, server);
    const invites = (await (await rest(server, adminToken, "/rest/v1/invites?select=id")).json()) as { id: string }[];
    await rest(server, adminToken, "/rest/v1/rpc/resend_invite", { method: "POST", body: JSON.stringify({ invite_id: invites[0]?.id }) });
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { version: string; migration: number; database: string };

    await signInFast(page, server, admin);
    await page.goto("/diagnostics");
    await expect(page.getByRole("heading", { name: "Diagnostics", level: 1 })).toBeVisible();
    await expect(page.getByTestId("fact-version")).toContainText(health.version);
    await expect(page.getByTestId("fact-database")).toContainText(health.database === "postgres" ? "PostgreSQL" : "SQLite");
    await expect(page.getByTestId("fact-database")).toContainText(`migration ${health.migration}`);
    await expect(page.getByTestId("fact-realtime")).toContainText("Not configured");
    await expect(page.getByTestId("fact-mail")).toContainText("Log only");
    await expect(page.getByTestId("fact-sealing")).toContainText("Sealed");
    await expect(page.getByTestId("fact-sealing")).toContainText("go to the data directory");

    const outbox = page.getByTestId("outbox");
    await expect(outbox).toBeVisible();
    const mail = outbox.locator("tbody tr", { hasText: "new.hire@example.com" });
    await expect(mail).toContainText("org_invite");
    await expect(mail).toContainText(/logged|sent/i);

    // An uncaught error in the page shows up in the error log at once.
    await page.evaluate(() => setTimeout(() => {
      throw new Error("e2e boom");
    }));
    const log = page.getByTestId("error-log");
    await expect(log).toContainText("e2e boom");
    await log.locator("summary", { hasText: "e2e boom" }).click();
    await expect(log.getByLabel("Stack trace").first()).toContainText("e2e boom");
    await expectAccessible(page);

    await expect(page.getByRole("link", { name: "Health status" })).toHaveAttribute("href", "/health");
    await expect(page.getByRole("link", { name: "Safe mode" })).toHaveAttribute("href", "/safe");

    await page.getByRole("button", { name: "Clear logs" }).click();
    await expect(page.getByText("No errors recorded")).toBeVisible();
  });

  test("keeps the outbox from members who are not admins", async ({ page, arrange, server }) => {
    const { marketer } = await busyWorkspace(arrange, server);
    await signInFast(page, server, marketer);
    await page.goto("/diagnostics");
    await expect(page.getByTestId("fact-version")).not.toContainText("unknown");
    await expect(page.getByTestId("outbox-hidden")).toHaveText("The mail outbox is shown to administrators only.");
    await expect(page.getByTestId("outbox")).toHaveCount(0);
    await expect(page.getByTestId("fact-sealing")).toHaveCount(0);
    await expect(page.getByText("new.hire@example.com")).toHaveCount(0);
    await expectAccessible(page);
  });
});

test.describe("screenshots", () => {
  test("Audit Log and Diagnostics at 1440 and 390, light and dark", async ({ page, arrange, server }) => {
    await mkdir(SHOTS, { recursive: true });
    const { admin, adminToken } = await busyWorkspace(arrange, server);
    await seedEntries(server, adminToken, 8, "asset_version_uploaded", "asset");
    await signInFast(page, server, admin);

    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto("/audit-log");
        await expect(page.locator("[data-entry-id]").first()).toBeVisible();
        await page.screenshot({ path: `${SHOTS}/audit-${width}-${scheme}.png`, fullPage: true });
        await page.goto("/diagnostics");
        await expect(page.getByTestId("fact-version")).not.toContainText("unknown");
        await page.screenshot({ path: `${SHOTS}/diagnostics-${width}-${scheme}.png`, fullPage: true });
      }
      await page.emulateMedia({ colorScheme: "light" });
      await page.goto("/audit-log?action=orgs.update");
      await page.locator("[data-entry-id]").first().click();
      const changes = page.getByTestId(width < 640 ? "entry-changes-list" : "entry-changes");
      await expect(changes).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/audit-entry-${width}.png` });
      await changes.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/audit-entry-changes-${width}.png` });
      await page.keyboard.press("Escape");
      if (width < 640) await page.getByRole("button", { name: "Filters" }).click();
      await page.getByLabel("Period").selectOption("custom");
      await page.getByRole("button", { name: "Verify chain" }).click();
      await expect(page.getByTestId("chain-status")).toHaveText(/Chain intact/);
      await page.screenshot({ path: `${SHOTS}/audit-filtered-${width}.png`, fullPage: true });
    }
  });
});

// Measures the Audit Log at a large trail: AUDIT_PERF_ENTRIES=100000 seeds
// that many entries through the data API (batches of 1 000 rows, 4 requests
// at a time, with the member's own token) and times the first page, filtered
// pages and a deep page in the browser. Skipped unless asked for. A client
// may not write the server's actions, so the mix is of the app's own known
// actions and table-write look-alikes ("perf." before the server's name).
const PERF_ACTIONS = [
  "perf.orgs.update",
  "perf.profiles_v2.update",
  "user_invited",
  "perf.workspace_settings.update",
  "demo_role_reset",
  "perf.notification_preferences.update",
  "onboarding_completed",
];

test.describe("performance", () => {
  const entries = Number(process.env.AUDIT_PERF_ENTRIES ?? 0);
  test.skip(!entries, "set AUDIT_PERF_ENTRIES to run");
  test.describe.configure({ timeout: 1_800_000 });

  test(`Audit Log at ${entries} entries`, async ({ page, arrange, server }) => {
    const { admin } = await arrange.workspace("Big Trail");
    const token = await accessToken(server, admin);
    const batch = 1000;
    const t0 = Date.now();
    const batches = Array.from({ length: Math.ceil(entries / batch) }, (_, i) => i);
    for (let i = 0; i < batches.length; i += 4) {
      await Promise.all(
        batches.slice(i, i + 4).map((b) => {
          const rows = Array.from({ length: Math.min(batch, entries - b * batch) }, (_, j) => ({
            action: PERF_ACTIONS[(b * batch + j) % PERF_ACTIONS.length],
            object_type: j % 10 === 0 ? "claim" : "asset",
            object_id: String(b * batch + j),
            meta: { n: b * batch + j },
          }));
          return rest(server, token, "/rest/v1/audit_logs_v2", { method: "POST", body: JSON.stringify(rows) });
        }),
      );
    }
    const seedSeconds = (Date.now() - t0) / 1000;
    await signInFast(page, server, admin);
    await page.goto("/diagnostics"); // load the app and the session once
    await expect(page.getByTestId("fact-version")).toBeVisible();

    const results: Record<string, number | string> = {};
    /**
     * Time from `act` until `ready`, in ms, and the browser's own timing of
     * the data API requests it made (Resource Timing: the page read and the
     * count), so the server's share is visible apart from rendering.
     */
    const time = async (name: string, act: () => Promise<unknown>, ready: () => Promise<void>) => {
      await page.evaluate(() => {
        performance.clearResourceTimings();
      });
      const start = Date.now();
      await act();
      await ready();
      results[name] = inPage || Date.now() - start;
      inPage = 0;
      const requests = await page.evaluate(() =>
        performance
          .getEntriesByType("resource")
          .filter((e) => e.name.includes("/rest/v1/audit_logs_v2"))
          .map((e) => {
            const q = decodeURIComponent(new URL(e.name).search);
            const kind = q.includes("limit=51") ? "page" : q.includes("limit=1") ? "lookup" : "count";
            return `${kind} ${Math.round(e.duration)}`;
          }),
      );
      if (requests.length) results[`${name} — requests (ms)`] = requests.join(", ");
    };
    /**
     * In-app navigation (no reload), as a click on a link or a filter would
     * do. Resolves, with the time measured inside the page, when that view's
     * first page has rendered.
     */
    const go = async (url: string) => {
      const view = new URL(url, "http://x").searchParams.toString();
      const ms = await page.evaluate(
        ([u, v]) =>
          new Promise<number>((resolve) => {
            const start = performance.now();
            window.history.pushState(null, "", u);
            window.dispatchEvent(new PopStateEvent("popstate"));
            const check = () => {
              const el = document.querySelector('[data-testid="audit-results"]');
              if (el?.getAttribute("data-view") === v && el.getAttribute("data-loaded") === "true") resolve(Math.round(performance.now() - start));
              else requestAnimationFrame(check);
            };
            check();
          }),
        [url, view] as const,
      );
      inPage = ms;
    };
    let inPage = 0;
    const firstRowIs = (re: RegExp) => async () => {
      await expect(page.locator("tbody tr").first()).toContainText(re, { timeout: 60_000 });
    };
    const countIs = (re: RegExp) => async () => {
      await expect(page.getByTestId("audit-count")).toHaveText(re, { timeout: 60_000 });
    };

    const anyRow = firstRowIs(/\.update|invite_|member_/);
    await time("first page (client navigation)", () => page.getByRole("link", { name: "Audit Log" }).click(), anyRow);
    // The organisation's own creation is in the chain too.
    await countIs(new RegExp(`^${(entries + 1).toLocaleString("en-US")} entries in the trail$`))();
    await page.reload();
    await anyRow();
    await time("action = user_invited (exact)", () => go("/audit-log?action=user_invited"), firstRowIs(/user_invited/));
    await time("action = user_invited: count", () => Promise.resolve(), countIs(/entries match/));
    await time("action contains 'update' (substring, common)", () => go("/audit-log?action=update"), firstRowIs(/\.update/));
    await time("action contains 'verified' (substring, no match)", () => go("/audit-log?action=verified"), async () => {
      await expect(page.getByText("No entries match these filters")).toBeVisible({ timeout: 120_000 });
    });
    await time("object type = claim", () => go("/audit-log?type=claim"), firstRowIs(/claim/));
    await time("object type = claim: count", () => Promise.resolve(), countIs(/entries match/));
    await time("actor = admin", () => go(`/audit-log?actor=${admin.id}`), anyRow);
    await time("actor = admin: count", () => Promise.resolve(), countIs(/entries match/));
    await time("last 24 hours", () => go("/audit-log?period=24h"), anyRow);
    await time("last 24 hours: count", () => Promise.resolve(), countIs(/entries match/));
    await time("last 24 hours + action", () => go("/audit-log?action=onboarding_completed&period=24h"), firstRowIs(/onboarding_completed/));
    await time("deep page (before=1000)", () => go("/audit-log?before=1000"), anyRow);
    await go("/audit-log");
    await anyRow();
    await time("Older (page 2)", () => page.getByRole("button", { name: "Older" }).click(), async () => {
      await expect(page).toHaveURL(/before=/);
      await anyRow();
    });
    const t1 = Date.now();
    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: 600_000 }),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    await download.path();
    results["CSV export, all entries (click to saved file)"] = Date.now() - t1;
    await time("verify chain", () => page.getByRole("button", { name: "Verify chain" }).click(), async () => {
      await expect(page.getByTestId("chain-status")).toHaveText(/Chain intact/, { timeout: 600_000 });
    });
    console.log(JSON.stringify({ entries, seedSeconds, ms: results }, null, 2));
  });
});
