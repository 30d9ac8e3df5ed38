import AxeBuilder from "@axe-core/playwright";
import { mkdir } from "node:fs/promises";
import type { Browser, Page } from "@playwright/test";
import { expect, PASSWORD, passwordSession, signInFast, test, uniqueEmail, type Member } from "./support/fixtures";
import { linkIn, startServer, type Server } from "./support/server";

// The screens outside the shell: sign-in (with initial setup and preview),
// sign-up (with invitations), forgot and reset password, sign-out, the
// passcode gate and safe mode — against the real server, e-mail links
// followed from its outbox.

const SHOTS = "/tmp/shots-auth";

// Real e-mail round trips, several servers and full-page screenshots on a
// small shared machine: more time than the default minute.
test.describe.configure({ timeout: 240_000 });

/**
 * axe on the screen (expectAccessible's rule: no serious or critical
 * violation), with the pointer moved off the page first and the toasts left
 * out: two shared components outside these screens fall just short of 4.5:1
 * contrast — the primary button's hover shade (bg-primary/90, 4.49:1) and
 * sonner's rich-colour success toast (4.3:1) — and are reported to their
 * owners rather than hidden here in the screens' own markup.
 */
async function checkA11y(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  const results = await new AxeBuilder({ page }).exclude("[data-sonner-toaster]").analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}
const NEW_PASSWORD = "Brand-New-Pass-7";

/** Saves the page at 1440 and 390 px wide (and dark at 1440 when asked), then restores 1440 light. */
async function shoot(page: Page, name: string, opts: { dark?: boolean } = {}): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  // Transitions finished, so a colour-scheme or width change is not caught half-way.
  const shot = (suffix: string) => page.screenshot({ path: `${SHOTS}/${name}-${suffix}.png`, fullPage: true, animations: "disabled" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot("1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot("390");
  await page.setViewportSize({ width: 1440, height: 900 });
  if (opts.dark) {
    await page.emulateMedia({ colorScheme: "dark" });
    await shot("1440-dark");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot("390-dark");
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: "light" });
  }
}

async function accessToken(server: Server, member: Pick<Member, "email" | "password">): Promise<string> {
  const res = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: server.anonKey, "Content-Type": "application/json" },
    body: JSON.stringify({ email: member.email, password: member.password }),
  });
  if (!res.ok) throw new Error(`sign in: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function profileOf(server: Server, email: string): Promise<{ id: string; org_id: string | null; role: string; full_name: string }> {
  const users = (await (await server.service("/auth/v1/admin/users?per_page=1000")).json()) as { users: { id: string; email: string }[] };
  const user = users.users.find((u) => u.email === email);
  if (!user) throw new Error(`no user ${email}`);
  const rows = (await (await server.service(`/rest/v1/profiles_v2?id=eq.${user.id}&select=id,org_id,role,full_name`)).json()) as {
    id: string;
    org_id: string | null;
    role: string;
    full_name: string;
  }[];
  const row = rows[0];
  if (!row) throw new Error(`no profile for ${email}`);
  return row;
}

/**
 * A static copy of the page's current DOM (scripts removed) in a new page of
 * the same origin, for screens that only show for 2 seconds: axe and the
 * screenshots take longer than that on a small machine.
 */
async function freeze(page: Page): Promise<Page> {
  const html = await page.evaluate(() => {
    const copy = document.documentElement.cloneNode(true) as HTMLElement;
    copy.querySelectorAll("script").forEach((s) => {
      s.remove();
    });
    return `<!doctype html>${copy.outerHTML}`;
  });
  const still = await page.context().newPage();
  await still.setViewportSize({ width: 1440, height: 900 });
  await still.goto(new URL("/api/health", page.url()).href);
  await still.setContent(html, { waitUntil: "load" });
  return still;
}

/** The page is at `path` (supabase-js may leave an empty "#" after taking a link's tokens). */
async function expectPath(page: Page, path: string): Promise<void> {
  await expect.poll(() => new URL(page.url()).pathname).toBe(path);
}

async function signInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

/** A page in a fresh context pointed at `server` (for tests with an instance of their own). */
async function pageOn(browser: Browser, server: Server): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } });
  return context.newPage();
}

/**
 * Watches, frame by frame in the page, for a heading and then for the
 * address `path`, so a redirect's delay is measured where it happens: timed
 * from the test process, a loaded machine made it look up to 2 s off. The
 * times go to session storage, so a new document in the tab (the watcher is
 * also an init script) continues the measurement.
 */
function watchRedirect({ heading, path }: { heading: string; path: string }): void {
  const key = "e2e.redirect";
  const read = (): { headingShown?: number; pathShown?: number } =>
    JSON.parse(window.sessionStorage.getItem(key) ?? "{}") as { headingShown?: number; pathShown?: number };
  const watch = () => {
    const t = read();
    if (t.headingShown === undefined && [...document.querySelectorAll("h1, h2")].some((h) => h.textContent.trim() === heading)) {
      t.headingShown = Date.now();
    }
    if (t.headingShown !== undefined && t.pathShown === undefined && window.location.pathname === path) t.pathShown = Date.now();
    window.sessionStorage.setItem(key, JSON.stringify(t));
    if (t.pathShown === undefined) requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
}

/** Milliseconds from the watched heading's first frame to the watched address (NaN if either was not seen). */
async function redirectDelay(page: Page): Promise<number> {
  // The watcher notes the address on its next frame, which may come after the navigation the test waited for.
  await page
    .waitForFunction(() => (JSON.parse(window.sessionStorage.getItem("e2e.redirect") ?? "{}") as { pathShown?: number }).pathShown !== undefined, null, {
      timeout: 5000,
    })
    .catch(() => undefined);
  return page.evaluate(() => {
    const t = JSON.parse(window.sessionStorage.getItem("e2e.redirect") ?? "{}") as { headingShown?: number; pathShown?: number };
    return (t.pathShown ?? Number.NaN) - (t.headingShown ?? Number.NaN);
  });
}

test.describe("login", () => {
  test("validates, shows the server's refusal, and returns to the remembered page", async ({ page, arrange }) => {
    const { admin } = await arrange.workspace("Login Labs");
    await page.goto("/audit-log");
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { level: 1, name: "Sign in to Fairbalance" })).toBeVisible();
    await expect(page.getByText("Initial Setup")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Explore the demo workspace" })).toBeVisible();

    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert")).toHaveText("Please enter both email and password");
    await page.getByLabel("Email").fill(admin.email);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert")).toHaveText("Please enter both email and password");
    await checkA11y(page);
    await shoot(page, "login", { dark: true });

    await page.getByLabel("Password", { exact: true }).fill("Wrong-Password-1");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert")).toHaveText("Invalid login credentials");

    await page.getByLabel("Password", { exact: true }).fill(admin.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/audit-log$/);
    await expect(page.getByText("Login successful")).toBeVisible();

    // Signed in: /login goes home.
    await page.goto("/login");
    await expectPath(page, "/");
  });

  test("links to sign-up and to forgot password", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
  });

  test("offers the read-only demo workspace when the server allows preview", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Explore the demo workspace" }).click();
    await expectPath(page, "/");
    await expect(page.getByText("Preview Mode — authentication disabled; data is demo")).toBeVisible();
    expect(await page.evaluate(() => window.localStorage.getItem("preview_on"))).toBe("true");
  });
});

test.describe("sign-up", () => {
  test("validates, then confirms by e-mail; the new member signs in and lands on /", async ({ page, server }) => {
    await page.goto("/signup");
    await expect(page.getByRole("heading", { level: 1, name: "Join Fairbalance" })).toBeVisible();
    await expect(page.getByText("Create your account to get started")).toBeVisible();
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Please enter your first name")).toBeVisible();
    await expect(page.getByText("Please enter your last name")).toBeVisible();
    await expect(page.getByText("Please enter both email and password")).toBeVisible();
    await checkA11y(page);
    await shoot(page, "signup");

    const email = uniqueEmail("signup");
    await page.getByLabel("First name").fill("Grace");
    await page.getByLabel("Last name").fill("Hopper");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("weak");
    await expect(page.getByTestId("password-requirements").locator("li[data-met=true]")).toHaveCount(1);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Password must be at least 8 characters long")).toBeVisible();
    await page.getByLabel("Password", { exact: true }).fill("weakpass1");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Password must contain at least one uppercase letter")).toBeVisible();
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await expect(page.getByTestId("password-requirements").locator("li[data-met=true]")).toHaveCount(4);
    await page.getByRole("button", { name: "Create Account" }).click();

    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await checkA11y(page);
    await shoot(page, "signup-check-email");

    // The profile carries the name from the sign-up data.
    expect((await profileOf(server, email)).full_name).toBe("Grace Hopper");

    // Unconfirmed accounts cannot sign in yet.
    await page.goto("/login");
    await signInThroughForm(page, email, PASSWORD);
    await expect(page.getByRole("alert")).toContainText(/confirm/i);

    const mail = await server.waitMail(email, (m) => m.kind === "confirmation");
    await page.goto(linkIn(mail));
    await expectPath(page, "/");
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();

    // Sign in afresh with the confirmed account.
    await page.evaluate(() => {
      window.localStorage.clear();
    });
    await page.goto("/login");
    await signInThroughForm(page, email, PASSWORD);
    await expectPath(page, "/");

    // Signed in: /signup goes home.
    await page.goto("/signup");
    await expectPath(page, "/");
  });

  test("an invitation is validated, shown with its role, and accepted at sign-up", async ({ page, server, arrange }) => {
    const { orgId, admin } = await arrange.workspace("Invite Pharma");
    const invitee = uniqueEmail("invitee");
    const res = await fetch(`${server.url}/rest/v1/rpc/create_invite`, {
      method: "POST",
      headers: { apikey: server.anonKey, Authorization: `Bearer ${await accessToken(server, admin)}`, "Content-Type": "application/json" },
      body: JSON.stringify({ email: invitee, role: "marketer" }),
    });
    expect(res.ok).toBe(true);
    const { token } = (await res.json()) as { token: string };

    // An unknown token: the error, no form.
    await page.goto("/signup?invite=not-a-real-token");
    await expect(page.getByText("Invalid invite token")).toBeVisible();
    await expect(page.getByRole("button", { name: "Join Organization" })).toHaveCount(0);
    await expect(page.getByLabel("First name")).toHaveCount(0);
    await checkA11y(page);
    await shoot(page, "signup-invite-invalid");

    // Validating: the submit button waits for the lookup.
    await page.route("**/rest/v1/rpc/get_invite", async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.goto(`/signup?invite=${token}`);
    await expect(page.getByRole("button", { name: "Join Organization" })).toBeDisabled();
    await expect(page.getByText("Checking your invitation…")).toBeVisible();
    await expect(page.getByText("Complete your account setup to join the organization")).toBeVisible();
    const emailField = page.getByLabel("Email");
    await expect(emailField).toHaveValue(invitee);
    await expect(emailField).toHaveAttribute("readonly", "");
    await expect(page.getByTestId("invite-role")).toHaveText("Marketer");
    await expect(page.getByRole("button", { name: "Join Organization" })).toBeEnabled();
    await checkA11y(page);
    await shoot(page, "signup-invite");

    await page.getByLabel("First name").fill("Ines");
    await page.getByLabel("Last name").fill("Vite");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Join Organization" }).click();
    // The inviting administrator vouched for the address: the account is
    // confirmed, signed in and joined at once, with no e-mail to confirm.
    await expect(page.getByText("Welcome to the team!")).toBeVisible();
    await expectPath(page, "/");
    await expect(page.getByRole("heading", { name: "Check your email" })).toHaveCount(0);
    const profile = await profileOf(server, invitee);
    expect(profile.org_id).toBe(orgId);
    expect(profile.role).toBe("marketer");
    expect(profile.full_name).toBe("Ines Vite");
  });

  test("the first account of an instance with instant sign-in becomes its administrator", async ({ browser }) => {
    const own = await startServer(["--autoconfirm"]);
    try {
      const page = await pageOn(browser, own);
      const first = uniqueEmail("first");
      await page.goto("/signup");
      await page.getByLabel("First name").fill("First");
      await page.getByLabel("Last name").fill("Admin");
      await page.getByLabel("Email").fill(first);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Create Account" }).click();
      await expect(page.getByText("Account created!")).toBeVisible();
      await expectPath(page, "/");
      expect(await profileOf(own, first)).toMatchObject({ role: "admin", full_name: "First Admin", org_id: null });

      // A later self-sign-up does not become administrator: the screen does
      // not ask (the instance has an administrator), and the server refuses it.
      await page.evaluate(() => {
        window.localStorage.clear();
      });
      const second = uniqueEmail("second");
      await page.goto("/signup");
      await page.getByLabel("First name").fill("Second");
      await page.getByLabel("Last name").fill("Person");
      await page.getByLabel("Email").fill(second);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Create Account" }).click();
      await expectPath(page, "/");
      const secondProfile = await profileOf(own, second);
      expect(secondProfile).toMatchObject({ role: "viewer", full_name: "Second Person" });
      const claim = await fetch(`${own.url}/rest/v1/profiles_v2?id=eq.${secondProfile.id}`, {
        method: "PATCH",
        headers: {
          apikey: own.anonKey,
          Authorization: `Bearer ${await accessToken(own, { email: second, password: PASSWORD })}`,
          "Content-Type": "application/json",
        },
        body: JSON.stringify({ role: "admin" }),
      });
      expect(claim.status).toBe(403);
      expect((await profileOf(own, second)).role).toBe("viewer");
      await page.context().close();
    } finally {
      await own.stop();
    }
  });
});

test.describe("password recovery", () => {
  test("forgot → e-mail link → new password → /login after 2 s → sign in with it", async ({ page, server, arrange }) => {
    const member = await arrange.member({ role: "marketer", orgId: await arrange.org("Recovery Co"), fullName: "Rita Reset" });

    await page.goto("/forgot-password");
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(page.getByRole("alert")).toHaveText("Please enter your email address");
    await checkA11y(page);
    await shoot(page, "forgot");

    await page.getByLabel("Email").fill(member.email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(page.getByRole("heading", { name: "Check Your Email" })).toBeVisible();
    await expect(page.getByText("The link expires in 24 hours.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to Login" })).toBeVisible();
    await checkA11y(page);
    await shoot(page, "forgot-sent");
    await page.getByRole("button", { name: "try again" }).click();
    await expect(page.getByLabel("Email")).toHaveValue("");

    const mail = await server.waitMail(member.email, (m) => m.kind === "recovery");
    const link = linkIn(mail);
    expect(new URL(link).searchParams.get("redirect_to")).toMatch(/\/reset-password$/);
    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1, name: "Set New Password" })).toBeVisible();
    // The tokens came in the fragment and are gone from the address bar.
    expect(new URL(page.url()).hash).toBe("");

    const submit = page.getByRole("button", { name: "Update Password" });
    const rules: [string, string][] = [
      ["Ab1", "Password must be at least 8 characters long"],
      ["ABCDEFG1", "Password must contain at least one lowercase letter"],
      ["abcdefg1", "Password must contain at least one uppercase letter"],
      ["Abcdefgh", "Password must contain at least one number"],
    ];
    for (const [value, message] of rules) {
      await page.getByLabel("New password", { exact: true }).fill(value);
      await submit.click();
      await expect(page.getByRole("alert")).toHaveText(message);
    }
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await expect(page.getByTestId("password-requirements").locator("li[data-met=true]")).toHaveCount(4);
    await page.getByLabel("Confirm new password").fill(`${NEW_PASSWORD}x`);
    await submit.click();
    await expect(page.getByRole("alert")).toHaveText("Passwords do not match");
    // Show/hide on each field.
    await page.getByRole("button", { name: "Show password" }).first().click();
    await expect(page.getByLabel("New password", { exact: true })).toHaveAttribute("type", "text");
    await checkA11y(page);
    await shoot(page, "reset");

    await page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
    await page.addInitScript(watchRedirect, { heading: "Password Updated", path: "/login" });
    await page.evaluate(watchRedirect, { heading: "Password Updated", path: "/login" });
    await submit.click();
    await expect(page.getByRole("heading", { name: "Password Updated" })).toBeVisible();
    await page.waitForURL(/\/login$/, { timeout: 5000 });
    const waited = await redirectDelay(page);
    // About 2 s: the app counts from when the message is rendered; a loaded machine paints it a little later.
    expect(waited).toBeGreaterThan(1500);
    expect(waited).toBeLessThan(3000);
    expect(await page.evaluate(() => window.localStorage.getItem("fairbalance.auth"))).toBeNull();

    await signInThroughForm(page, member.email, member.password);
    await expect(page.getByRole("alert")).toHaveText("Invalid login credentials");
    await page.getByLabel("Password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expectPath(page, "/");
  });

  test("a reset link without tokens, or with refused ones, is invalid", async ({ page }) => {
    const invalid = "Invalid reset link. Please request a new password reset.";
    await page.goto("/reset-password");
    await expect(page.getByText(invalid)).toBeVisible();
    await checkA11y(page);
    await shoot(page, "reset-invalid");
    await page.goto("/reset-password#access_token=forged&refresh_token=forged&type=recovery");
    await expect(page.getByText(invalid)).toBeVisible();
    await page.goto("/reset-password?access_token=only-one");
    await expect(page.getByText(invalid)).toBeVisible();
    await page.getByRole("link", { name: "Request a new link" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
  });

  test("the 'Password Updated' screen is accessible at 1440 and 390 px", async ({ page, server, arrange }) => {
    const member = await arrange.member({ role: "viewer", fullName: "Narrow Screen" });
    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(member.email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(page.getByRole("heading", { name: "Check Your Email" })).toBeVisible();
    await page.goto(linkIn(await server.waitMail(member.email, (m) => m.kind === "recovery")));
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Update Password" }).click();
    await expect(page.getByRole("heading", { name: "Password Updated" })).toBeVisible();
    const still = await freeze(page);
    await expect(still.getByRole("heading", { name: "Password Updated" })).toBeVisible();
    await checkA11y(still);
    await shoot(still, "reset-updated");
    await page.waitForURL(/\/login$/);
  });
});

test.describe("sign-out", () => {
  test("clears the session, caches and cookies, then /login after 2 s; protected pages need sign-in again", async ({ page, context, server, arrange, baseURL }) => {
    const { admin } = await arrange.workspace("Signout Inc");
    await signInFast(page, server, admin);
    await page.goto("/");
    await expect(page.getByRole("button", { name: /Account menu/ })).toBeVisible();
    const host = new URL(baseURL ?? server.url).hostname;
    await context.addCookies([
      { name: "session_token", value: "abc", domain: host, path: "/" },
      { name: "gate_verified", value: "v1.x.y.z", domain: host, path: "/", httpOnly: true },
    ]);

    await page.addInitScript(watchRedirect, { heading: "Signed Out", path: "/login" });
    await page.goto("/logout");
    await expect(page.getByRole("heading", { name: "Signed Out" })).toBeVisible();
    await page.waitForURL(/\/login$/, { timeout: 5000 });
    const waited = await redirectDelay(page);
    // About 2 s: the app counts from when the message is rendered; a loaded machine paints it a little later.
    expect(waited).toBeGreaterThan(1500);
    expect(waited).toBeLessThan(3000);

    expect(await page.evaluate(() => window.localStorage.getItem("fairbalance.auth"))).toBeNull();
    const names = (await context.cookies()).map((c) => c.name);
    expect(names).not.toContain("session_token");
    expect(names).not.toContain("gate_verified");

    await page.goto("/users");
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("the sign-out screen (from the user menu) is accessible at 1440 and 390 px", async ({ page, server, arrange }) => {
    const { admin } = await arrange.workspace("Narrow Signout");
    await signInFast(page, server, admin);
    await page.goto("/account");
    await page.getByRole("button", { name: /Account menu/ }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await expect(page.getByRole("heading", { name: "Signed Out" })).toBeVisible();
    const still = await freeze(page);
    await expect(still.getByRole("heading", { name: "Signed Out" })).toBeVisible();
    await checkA11y(still);
    await shoot(still, "logout");
    await page.waitForURL(/\/login$/);
  });
});

test.describe("passcode gate", () => {
  test("an enabled gate sends visitors to /gate; a wrong passcode is refused, the right one opens the workspace", async ({ browser }) => {
    const own = await startServer();
    try {
      const passcode = "open-sesame-42";
      const res = await own.service("/functions/v1/security-manager", {
        method: "POST",
        body: JSON.stringify({ action: "UPDATE_SETTINGS", settings: { preview_passcode: passcode, preview_passcode_enabled: true } }),
      });
      expect(res.status).toBe(200);

      const page = await pageOn(browser, own);
      await page.goto("/");
      await expect(page).toHaveURL(/\/gate$/);
      await page.goto("/login");
      await expect(page).toHaveURL(/\/gate$/);
      await expect(page.getByRole("heading", { level: 1, name: "Private Preview Access" })).toBeVisible();
      await expect(page.getByText(/Contact your administrator/)).toBeVisible();

      await page.getByRole("button", { name: "Access Workspace" }).click();
      await expect(page.getByRole("alert")).toHaveText("Please enter the access passcode");
      await checkA11y(page);
      await shoot(page, "gate", { dark: true });

      await page.getByLabel("Access passcode").fill("not-the-passcode");
      await page.getByRole("button", { name: "Access Workspace" }).click();
      await expect(page.getByRole("alert")).toHaveText("Invalid access passcode. Please try again.");

      await page.getByLabel("Access passcode").fill(passcode);
      await page.getByRole("button", { name: "Access Workspace" }).click();
      // Through the gate; signed out, so the guard goes on to /login.
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole("heading", { name: "Sign in to Fairbalance" })).toBeVisible();
      expect(await page.evaluate(() => window.localStorage.getItem("gate_passed"))).toBe("true");
      const cookie = (await page.context().cookies()).find((c) => c.name === "gate_verified");
      expect(cookie?.httpOnly).toBe(true);
      await page.context().close();
    } finally {
      await own.stop();
    }
  });
});

test.describe("safe mode", () => {
  test("status, safe session links, and repairs refused without credentials and run with the recovery key", async ({ browser }) => {
    const own = await startServer(["--dev"]);
    try {
      const page = await pageOn(browser, own);
      await page.goto("/safe");
      await expect(page.getByRole("heading", { level: 1, name: "Safe mode" })).toBeVisible();
      await expect(page.getByTestId("db-status")).toContainText("Connected");
      await expect(page.getByTestId("db-status")).toContainText("SQLite");
      await expect(page.getByTestId("diagnostics")).toContainText("OK");
      await expect(page.getByTestId("safe-session-state")).toContainText("Inactive");
      for (const name of ["Home", "Sign in", "Health", "Diagnostics"]) {
        await expect(page.getByRole("navigation", { name: "Go to" }).getByRole("link", { name: new RegExp(name) })).toBeVisible();
      }
      await checkA11y(page);
      await shoot(page, "safe", { dark: true });

      // The safe session: a 2-hour cookie.
      await page.getByRole("link", { name: "Start safe session" }).click();
      await expect(page.getByText("Safe Mode Activated")).toBeVisible();
      await expect(page.getByTestId("safe-session-state")).toContainText("Active");
      const safeCookie = (await page.context().cookies()).find((c) => c.name === "safe_mode");
      expect(safeCookie?.value).toBe("1");
      expect(Math.abs((safeCookie?.expires ?? 0) - Date.now() / 1000 - 7200)).toBeLessThan(120);
      await expect(page).toHaveURL(/\/safe$/);
      await page.getByRole("link", { name: "Clear safe session" }).click();
      await expect(page.getByText("Safe Mode Cleared")).toBeVisible();
      await expect(page.getByTestId("safe-session-state")).toContainText("Inactive");
      // The links also work as addresses typed or bookmarked.
      await page.goto("/safe?__safe=1");
      await expect(page.getByText("Safe Mode Activated")).toBeVisible();
      await page.goto("/safe?__clear_safe=1");
      await expect(page.getByText("Safe Mode Cleared")).toBeVisible();

      // Without credentials every repair is refused, with the server's reason.
      const refusal = "Sign in as the instance operator or present the recovery key";
      await page.getByRole("button", { name: "Run migrations" }).click();
      await expect(page.getByText("Migration Failed")).toBeVisible();
      await expect(page.getByRole("alert").filter({ hasText: refusal }).first()).toBeVisible();
      await page.getByRole("button", { name: "Disable passcode gate" }).click();
      await expect(page.getByText("Failed", { exact: true })).toBeVisible();
      await page.getByRole("button", { name: "Bootstrap settings" }).click();
      await expect(page.getByText("Bootstrap Failed")).toBeVisible();

      // A wrong key is refused as such.
      await page.getByLabel("Recovery key").fill("not-the-key");
      await page.getByRole("button", { name: "Enforce private mode" }).click();
      await expect(page.getByRole("alert").filter({ hasText: "Invalid recovery key" }).first()).toBeVisible();

      // With the recovery key.
      await page.getByLabel("Recovery key").fill(own.recoveryKey);
      await page.getByRole("button", { name: "Run migrations" }).click();
      await expect(page.getByText("Database connected and migrations applied", { exact: false }).first()).toBeVisible();
      await page.getByRole("button", { name: "Bootstrap settings" }).click();
      await expect(page.getByText("Settings Bootstrapped")).toBeVisible();
      await expect(page.getByTestId("workspace-settings")).toContainText("Passcode gate");
      await page.getByRole("button", { name: "Disable passcode gate" }).click();
      await expect(page.getByText("Passcode Gate Disabled")).toBeVisible();
      await page.getByRole("button", { name: "Enforce private mode" }).click();
      await expect(page.getByText("Private Mode Enforced")).toBeVisible();
      await expect(page.getByTestId("workspace-settings")).toContainText("PRIVATE");
      const settings = (await (
        await own.service("/functions/v1/security-manager", { method: "POST", body: JSON.stringify({ action: "GET_SETTINGS" }) })
      ).json()) as { settings: Record<string, unknown> };
      expect(settings.settings).toMatchObject({ site_access_mode: "PRIVATE", disable_signup: true, block_indexing: true, preview_passcode_enabled: false });

      // Create an administrator: both fields required; prefilled e-mail and generated password.
      await expect(page.getByLabel("Administrator e-mail")).toHaveValue("admin@example.com");
      const temporary = await page.getByLabel("Temporary password").inputValue();
      expect(temporary).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{16}$/);
      await page.getByLabel("Temporary password").fill("");
      await page.getByRole("button", { name: "Create administrator" }).click();
      await expect(page.getByText("Email and password required")).toBeVisible();
      const adminEmail = uniqueEmail("safe-admin");
      await page.getByLabel("Administrator e-mail").fill(adminEmail);
      await page.getByLabel("Temporary password").fill(temporary);
      await page.getByRole("button", { name: "Create administrator" }).click();
      await expect(page.getByText("Success!").first()).toBeVisible();
      expect((await profileOf(own, adminEmail)).role).toBe("admin");

      // Force-create (development mode): an e-mail is required; the account must change its password.
      await page.getByLabel("Account e-mail").fill("");
      await page.getByRole("button", { name: "Force-create admin" }).click();
      await expect(page.getByText("Email address required")).toBeVisible();
      const forced = uniqueEmail("forced");
      await page.getByLabel("Account e-mail").fill(forced);
      await page.getByRole("button", { name: "Force-create admin" }).click();
      await expect(page.getByTestId("temporary-password")).toHaveText("ChangeMe-Now-1");
      await checkA11y(page);

      // Signing in with the temporary password leads to choosing a new one.
      await page.goto("/login");
      await signInThroughForm(page, forced, "ChangeMe-Now-1");
      await expect(page).toHaveURL(/\/reset-password$/);
      await expect(page.getByRole("main").getByText("Your account has a temporary password")).toBeVisible();
      await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
      await page.getByRole("button", { name: "Update Password" }).click();
      await expect(page.getByRole("heading", { name: "Password Updated" })).toBeVisible();
      await page.waitForURL(/\/login$/);
      await signInThroughForm(page, forced, NEW_PASSWORD);
      await expectPath(page, "/");
      await page.context().close();
    } finally {
      await own.stop();
    }
  });

  test("an organisation admin's session is told it is not the operator's and needs the recovery key; the operator's runs repairs", async ({
    arrange,
    browser,
    page,
    server,
  }) => {
    const { admin } = await arrange.workspace();
    await signInFast(page, server, admin);
    await page.goto("/safe");
    const note = page.getByTestId("credential-note");
    await expect(note).toContainText("Not the instance operator");
    await expect(note).toContainText(admin.email);
    await expect(note).toContainText("Enter the recovery key");
    await checkA11y(page);
    await shoot(page, "safe-org-admin");
    await page.getByRole("button", { name: "Run migrations" }).click();
    await expect(page.getByText("Migration Failed")).toBeVisible();
    await expect(page.getByRole("alert").filter({ hasText: "managed by the instance operator" }).first()).toBeVisible();
    // The recovery key decides, whoever is signed in.
    await page.getByLabel("Recovery key").fill(server.recoveryKey);
    await expect(note).toContainText("Using the recovery key");
    await page.getByRole("button", { name: "Run migrations" }).click();
    await expect(page.getByText("Database connected and migrations applied", { exact: false }).first()).toBeVisible();

    // An operator's session runs them without the key.
    const { admin: operator } = await arrange.workspace();
    await arrange.operator(operator);
    const context = await browser.newContext({ baseURL: server.url });
    const other = await context.newPage();
    await signInFast(other, server, operator);
    await other.goto("/safe");
    await expect(other.getByTestId("credential-note")).toContainText("an instance operator");
    await other.getByRole("button", { name: "Run migrations" }).click();
    await expect(other.getByText("Database connected and migrations applied", { exact: false }).first()).toBeVisible();
    await context.close();
  });

  test("force-create is refused outside development mode", async ({ page }) => {
    await page.goto("/safe");
    await page.getByRole("button", { name: "Force-create admin" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "This action is only available in development mode" })).toBeVisible();
  });
});

test.describe("initial setup", () => {
  test("a fresh instance offers it; it creates the first administrator and signs in", async ({ browser }) => {
    const own = await startServer();
    try {
      const page = await pageOn(browser, own);
      await page.goto("/login");
      await expect(page.getByRole("heading", { name: "Initial Setup" })).toBeVisible();
      await page.getByRole("button", { name: "Create Administrator" }).click();
      await expect(page.getByText("Email and password required")).toBeVisible();
      await checkA11y(page);
      await shoot(page, "login-setup");

      const email = uniqueEmail("founder");
      await page.getByLabel("Administrator e-mail").fill(email);
      await page.getByLabel("Administrator password").fill(PASSWORD);
      await page.getByRole("button", { name: "Create Administrator" }).click();
      await expectPath(page, "/");
      await expect(page.getByText("Login successful")).toBeVisible();
      expect(await profileOf(own, email)).toMatchObject({ role: "admin", org_id: null });
      // The first administrator is the instance's operator: the instance-wide settings are theirs to change.
      const founder = await passwordSession(own, { email, password: PASSWORD });
      const settings = await fetch(`${own.url}/functions/v1/security-manager`, {
        method: "POST",
        headers: { apikey: own.anonKey, Authorization: `Bearer ${String(founder.access_token)}`, "Content-Type": "application/json" },
        body: JSON.stringify({ action: "GET_SETTINGS" }),
      });
      expect(await settings.json()).toMatchObject({ success: true, editable: true });

      // Once there is an account the card is gone, unless asked for, and then the server refuses.
      await page.evaluate(() => {
        window.localStorage.clear();
      });
      await page.goto("/login");
      await expect(page.getByRole("heading", { name: "Sign in to Fairbalance" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Initial Setup" })).toHaveCount(0);
      await page.goto("/login?init=1");
      await page.getByLabel("Administrator e-mail").fill(uniqueEmail("late"));
      await page.getByLabel("Administrator password").fill(PASSWORD);
      await page.getByRole("button", { name: "Create Administrator" }).click();
      await expect(page.getByText("Bootstrap failed").first()).toBeVisible();
      await expect(page.getByRole("main").getByText("Sign in as the instance operator or present the recovery key")).toBeVisible();
      await page.context().close();
    } finally {
      await own.stop();
    }
  });
});
