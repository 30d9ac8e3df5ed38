import { expect, expectAccessible, signInFast, test, type Member } from "./support/fixtures";

// The app shell: route table and redirects, the guard, the sidebar (cookie,
// shortcut, widths, mobile sheet), the top bar and user menu, the not-found
// screen, and preview/demo modes.

const ROUTES = [
  "/",
  "/review",
  "/content",
  "/content-hub",
  "/assets/00000000-0000-4000-8000-000000000001",
  "/content/references/00000000-0000-4000-8000-000000000001",
  "/guidelines",
  "/compliance-intel",
  "/audit-log",
  "/settings",
  "/account",
  "/account/profile",
  "/account/settings",
  "/security",
  "/diagnostics",
  "/pilot-checklist",
  "/pilot-runbook",
  "/users",
  "/health",
];

let admin: Member;

test.beforeEach(async ({ arrange, page, server }) => {
  ({ admin } = await arrange.workspace("Acme Biologics"));
  await signInFast(page, server, admin);
});

test("every route of the table renders its screen for a member", async ({ page }) => {
  test.setTimeout(180_000);
  for (const path of ROUTES) {
    await page.goto(path);
    await expect(page.getByRole("main"), path).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 }).first(), path).toBeVisible();
    await expect(page.getByText("Oops! Page not found")).toHaveCount(0);
    expect(new URL(page.url()).pathname).toBe(path);
  }
});

test("redirects go where the spec says", async ({ page }) => {
  const cases: [string, string][] = [
    ["/insights", "/compliance-intel#insights"],
    ["/compliance-intelligent", "/compliance-intel"],
    ["/audit-logs", "/audit-log"],
    ["/audit-trail", "/audit-log"],
    ["/audit", "/audit-log"],
    ["/profile", "/account/profile"],
    ["/demo/anything/here", "/"],
  ];
  for (const [from, to] of cases) {
    await page.goto(from);
    await expect.poll(() => {
      const u = new URL(page.url());
      return `${u.pathname}${u.hash}`;
    }).toBe(to);
  }
});

test("an unknown path shows the not-found screen and logs a console error", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  await page.goto("/no/such/page");
  await expect(page.getByRole("heading", { name: "404" })).toBeVisible();
  await expect(page.getByText("Oops! Page not found")).toBeVisible();
  await expectAccessible(page);
  expect(errors.some((e) => e.includes("/no/such/page"))).toBe(true);
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("the sidebar highlights the active item, collapses to icons and remembers it in a cookie", async ({ page, context }) => {
  await page.goto("/audit-log");
  const sidebar = page.getByTestId("sidebar");
  await expect(sidebar).toHaveAttribute("data-state", "expanded");
  expect((await sidebar.boundingBox())?.width).toBe(256); // 16rem
  const nav = page.getByRole("navigation", { name: "Primary" });
  await expect(nav.getByRole("link", { name: "Audit Log" })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "Command Center" })).not.toHaveAttribute("aria-current", "page");

  // "/" matches exactly; others by prefix.
  await page.goto("/account/settings");
  await expect(nav.getByRole("link", { name: "Settings" })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "Command Center" })).not.toHaveAttribute("aria-current", "page");

  await page.getByRole("button", { name: "Toggle sidebar" }).click();
  await expect(sidebar).toHaveAttribute("data-state", "collapsed");
  await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(48); // 3rem
  const cookie = (await context.cookies()).find((c) => c.name === "sidebar:state");
  expect(cookie?.value).toBe("false");
  const week = 7 * 24 * 3600;
  expect(Math.abs((cookie?.expires ?? 0) - Date.now() / 1000 - week)).toBeLessThan(120);

  await page.reload();
  await expect(page.getByTestId("sidebar")).toHaveAttribute("data-state", "collapsed");

  // Ctrl+B (Cmd+B on macOS) toggles it.
  await page.keyboard.press("Control+b");
  await expect(page.getByTestId("sidebar")).toHaveAttribute("data-state", "expanded");
  await page.keyboard.press("Meta+b");
  await expect(page.getByTestId("sidebar")).toHaveAttribute("data-state", "collapsed");
  await page.keyboard.press("Control+b");
  await expect(page.getByTestId("sidebar")).toHaveAttribute("data-state", "expanded");
  expect((await context.cookies()).find((c) => c.name === "sidebar:state")?.value).toBe("true");
});

test("under 768 px the sidebar is an 18rem slide-in sheet", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await expect(page.getByTestId("sidebar")).toBeHidden();
  await page.getByRole("button", { name: "Toggle sidebar" }).click();
  const sheet = page.getByTestId("sidebar-sheet");
  await expect(sheet).toBeVisible();
  await expect.poll(async () => (await sheet.boundingBox())?.width).toBe(288);
  await expectAccessible(page);
  await sheet.getByRole("link", { name: "Audit Log" }).click();
  await expect(page).toHaveURL(/\/audit-log$/);
  await expect(sheet).toBeHidden();
});

test("the user menu shows initials, name, e-mail and role, with Profile, Settings and Sign out", async ({ page }) => {
  await page.goto("/");
  const trigger = page.getByRole("button", { name: /Account menu for Alex Admin/ });
  await expect(trigger).toContainText("AA");
  await trigger.click();
  const menu = page.getByRole("menu");
  await expect(menu.getByTestId("user-menu-name")).toHaveText("Alex Admin");
  await expect(menu.getByText(admin.email)).toBeVisible();
  await expect(menu.getByTestId("user-menu-role")).toHaveText("Admin");
  await expect(menu.getByTestId("user-menu-role")).toHaveClass(/red/);
  await expect(menu.getByRole("menuitem")).toHaveText(["Profile", "Settings", "Sign out"]);
  await menu.getByRole("menuitem", { name: "Profile" }).click();
  await expect(page).toHaveURL(/\/account\/profile$/);
  await expect(page.getByTestId("preview-badge")).toHaveCount(0);
  await expect(page.getByTestId("demo-badge")).toHaveCount(0);
  await expectAccessible(page);
});

test("/health reads 'System Healthy' with a timestamp and a link to /safe", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto("/health");
  await expect(page.getByText("System Healthy")).toBeVisible();
  await expect(page.getByTestId("health-checked-at")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
  await expectAccessible(page);
  await page.getByRole("link", { name: "Open safe mode" }).click();
  await expect(page).toHaveURL(/\/safe$/);
  await context.close();
});

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("the guard sends a visitor to /login; /health and /safe stay open", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await page.goto("/users");
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/audit-log");
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/health");
    await expect(page).toHaveURL(/\/health$/);
    await page.goto("/safe");
    await expect(page).toHaveURL(/\/safe$/);
    await context.close();
  });
});

test.describe("preview and demo modes", () => {
  test("the login screen's preview variant: 'Preview Mode Active', then 'Continue to Application'", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await page.goto("/login?preview=1");
    await expect(page.getByText("Preview Mode Active")).toBeVisible();
    await page.getByRole("button", { name: "Continue to Application" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText("Preview Mode — authentication disabled; data is demo")).toBeVisible();
    await expect(page.getByTestId("demo-badge")).toHaveText("Demo Mode");
    await context.close();
  });

  test("?preview shows the demo workspace read-only, with banner and badges", async ({ browser, baseURL, server }) => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await page.goto("/?preview=1");
    await expect(page.getByText("Preview Mode — authentication disabled; data is demo")).toBeVisible();
    await expect(page.getByTestId("preview-badge")).toHaveText("PREVIEW");
    await expect(page.getByTestId("demo-badge")).toHaveText("Demo Mode");
    await expect(page.getByText("Preview Mode", { exact: true })).toBeVisible();
    await expectAccessible(page);

    // Demo mode's route table: /login goes home, reset is absent.
    await page.goto("/login");
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/reset-password");
    await expect(page.getByText("Oops! Page not found")).toBeVisible();
    await page.goto("/signup");
    await expect(page).toHaveURL(/\/$/);

    // Role impersonation: kept in session storage, audited on switch and reset.
    // Other specs on this worker's server may have switched the demo's role
    // too: only the entries written from here on are this test's.
    const demoTrail = "/rest/v1/audit_logs_v2?select=id,action,meta&org_id=eq.00000000-0000-4000-8000-00000000d3e0&action=like.demo_*&order=id.asc";
    const earlier = (await (await server.service(demoTrail)).json()) as { id: number }[];
    const since = earlier.at(-1)?.id ?? 0;
    await page.getByRole("button", { name: /Demo role/ }).click();
    await page.getByRole("menuitemradio", { name: "Marketer" }).click();
    await expect(page.getByText("Viewing the demo as Marketer")).toBeVisible();
    await page.getByRole("button", { name: /Account menu/ }).click();
    await expect(page.getByTestId("user-menu-role")).toHaveText("Marketer");
    await page.keyboard.press("Escape");
    const stored = await page.evaluate(() => window.sessionStorage.getItem("fairbalance.demo.impersonation"));
    expect(JSON.parse(stored ?? "{}")).toMatchObject({ active: true, role: "marketer" });

    await page.getByRole("button", { name: /Demo role/ }).click();
    await page.getByRole("menuitem", { name: "Reset role" }).click();
    await expect(page.getByText("Demo role reset")).toBeVisible();
    expect(await page.evaluate(() => window.sessionStorage.getItem("fairbalance.demo.impersonation"))).toBeNull();

    const res = await server.service(`${demoTrail}&id=gt.${since}`);
    const rows = (await res.json()) as { action: string; meta: { role: string } }[];
    expect(rows.map((r) => r.action)).toEqual(["demo_role_switched", "demo_role_reset"]);
    expect(rows[0]?.meta.role).toBe("marketer");

    // A write from the demo session is refused with the spec's message.
    const refused = await page.evaluate(async () => {
      const session = JSON.parse(window.localStorage.getItem("fairbalance.auth") ?? "{}") as { access_token?: string };
      const config = (await (await fetch("/api/config")).json()) as { anon_key: string };
      const r = await fetch("/rest/v1/orgs", {
        method: "POST",
        headers: { apikey: config.anon_key, Authorization: `Bearer ${session.access_token ?? ""}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "Should not exist" }),
      });
      return { status: r.status, body: (await r.json()) as { message?: string } };
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Demo mode: writes disabled. This is a read-only preview.");
    await context.close();
  });
});
