import type { Locator, Page } from "@playwright/test";
import {
  Arrange,
  AUTH_STORAGE_KEY,
  expect as baseExpect,
  PASSWORD,
  passwordSession,
  signInFast,
  storedSessionScript,
  test,
  uniqueEmail,
  type Member,
} from "./support/fixtures";
import { samplePdf } from "./support/sample-pdf";
import { linkIn, startServer, type Server } from "./support/server";
import { totp } from "./support/totp";

// What a new user met (issue 14): screens that asked the server what they
// knew it would refuse (item 4), onboarding's blank name and reload
// (item 8), toasts over dialogs and the wait after Initial Setup (item 12),
// and a two-step user's password reset, which must ask the authenticator
// code before the new password (the follow-up).

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

const NEW_PASSWORD = "Brand-New-Pass-7";

/**
 * Every answer in the 400s the page gets, as "STATUS METHOD path?query". A
 * screen that knows the server will refuse a request (the gate is closed,
 * the invitation is used, the session has not answered its authenticator)
 * does not make it; the tests expect this list to stay empty.
 */
function watchRefusals(page: Page): string[] {
  const seen: string[] = [];
  page.on("response", (res) => {
    if (res.status() < 400 || res.status() >= 500) return;
    const url = new URL(res.url());
    seen.push(`${String(res.status())} ${res.request().method()} ${url.pathname}${url.search}`);
  });
  return seen;
}

/**
 * Lets the app finish what it defers after the first screen (loading
 * supabase-js and confirming the stored session: 3 s at the latest), so a
 * refused request it would make then is caught too.
 */
async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(4000);
}

/** Full-page screenshots at 1440 and 390 px, kept with the test's results; nothing may stick out sideways. */
async function shots(page: Page, name: string): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.mouse.move(0, 0);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scroll, `${name} at ${String(width)} px sticks out sideways`).toBe(width);
    await page.screenshot({ path: test.info().outputPath(`${name}-${String(width)}.png`), fullPage: true, animations: "disabled" });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** A call of the server's API with `token` as the bearer, as supabase-js makes it. */
function call(server: Server, path: string, token: string, init: { method?: string; body?: string } = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    ...init,
    headers: { apikey: server.anonKey, Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
  });
}

/** Turns on an authenticator for `member` through the API (enrol, challenge, verify) and returns its secret. */
async function enrolAuthenticator(server: Server, member: Pick<Member, "email" | "password">): Promise<string> {
  const token = (await passwordSession(server, member)).access_token as string;
  const enrol = await call(server, "/auth/v1/factors", token, { method: "POST", body: JSON.stringify({ factor_type: "totp", friendly_name: "Phone" }) });
  expect(enrol.status).toBe(200);
  const factor = (await enrol.json()) as { id: string; totp: { secret: string } };
  const challenge = await call(server, `/auth/v1/factors/${factor.id}/challenge`, token, { method: "POST", body: "{}" });
  const { id: challengeId } = (await challenge.json()) as { id: string };
  const verify = await call(server, `/auth/v1/factors/${factor.id}/verify`, token, {
    method: "POST",
    body: JSON.stringify({ challenge_id: challengeId, code: totp(factor.totp.secret) }),
  });
  expect(verify.status).toBe(200);
  return factor.totp.secret;
}

/** The access token the app stored for this page's session. */
async function storedToken(page: Page): Promise<string> {
  const raw = await page.evaluate((key) => window.localStorage.getItem(key), AUTH_STORAGE_KEY);
  return (JSON.parse(raw ?? "{}") as { access_token?: string }).access_token ?? "";
}

function aalOf(token: string): unknown {
  const payload = token.split(".")[1] ?? "";
  return (JSON.parse(Buffer.from(payload, "base64url").toString()) as { aal?: unknown }).aal;
}

/** Turns the passcode gate of `server` on. */
async function closeGate(server: Server, passcode: string): Promise<void> {
  const res = await server.service("/functions/v1/security-manager", {
    method: "POST",
    body: JSON.stringify({ action: "UPDATE_SETTINGS", settings: { preview_passcode: passcode, preview_passcode_enabled: true } }),
  });
  expect(res.status).toBe(200);
}

test.describe("item 4: no screen makes a request it knows will fail", () => {
  test("an invitee signs up through the link, opens it again once joined, and signs out — nothing refused on the way", async ({
    browser,
    server,
    arrange,
  }) => {
    const { admin } = await arrange.workspace("Quiet Requests Inc");
    const adminToken = (await passwordSession(server, admin)).access_token as string;
    const email = uniqueEmail("ivy");
    const created = await call(server, "/rest/v1/rpc/create_invite", adminToken, { method: "POST", body: JSON.stringify({ email, role: "marketer" }) });
    expect(created.status).toBe(200);
    const { token } = (await created.json()) as { token: string };

    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    const refused = watchRefusals(page);
    await page.goto(`/signup?invite=${token}`);
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await page.getByLabel("First name").fill("Ivy");
    await page.getByLabel("Last name").fill("Invitee");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Join Organization" }).click();
    await expect(page.getByTestId("sidebar")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: /, Ivy$/ })).toBeVisible();
    await settle(page);

    // The link again, signed in and joined (a bookmark, the Back button):
    // the used invitation is not looked up, and the app opens.
    await page.goto(`/signup?invite=${token}`);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("sidebar")).toBeVisible();
    await settle(page);

    await page.goto("/logout");
    await expect(page.getByRole("heading", { name: "Signed Out" })).toBeVisible();
    await page.waitForURL(/\/login$/);
    await settle(page);
    expect(refused).toEqual([]);
    await context.close();
  });

  test("a self-sign-up on an instance that signs in at once, where an administrator exists, asks nothing the server refuses", async ({ browser }) => {
    const own = await startServer(["--autoconfirm"]);
    try {
      await new Arrange(own).workspace("Has An Admin");
      const context = await browser.newContext({ baseURL: own.url });
      const page = await context.newPage();
      const refused = watchRefusals(page);
      const email = uniqueEmail("sol");
      await page.goto("/signup");
      await page.getByLabel("First name").fill("Sol");
      await page.getByLabel("Last name").fill("Signup");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Create Account" }).click();
      // Signed in, with no organisation yet, and not made an administrator.
      await expect(page.getByRole("heading", { level: 1, name: "You are not part of an organization yet" })).toBeVisible();
      await settle(page);
      expect(refused).toEqual([]);
      await context.close();
    } finally {
      await own.stop();
    }
  });

  test("behind the passcode gate a signed-in member's browser asks nothing the gate refuses, and is still signed in past it", async ({ browser }) => {
    const own = await startServer();
    try {
      const { admin } = await new Arrange(own).workspace("Gated Therapeutics");
      const session = await passwordSession(own, admin);
      // A second session whose access token has run out (the gate would refuse signing in once it is on).
      const expired = { ...(await passwordSession(own, admin)), expires_at: Math.floor(Date.now() / 1000) - 60 };
      const passcode = "harbour-lights-7";
      await closeGate(own, passcode);

      const context = await browser.newContext({ baseURL: own.url });
      const page = await context.newPage();
      await page.addInitScript({ content: storedSessionScript(session) });
      const refused = watchRefusals(page);
      await page.goto("/users");
      await expect(page).toHaveURL(/\/gate$/);
      await expect(page.getByRole("heading", { level: 1, name: "Private Preview Access" })).toBeVisible();
      await settle(page);
      expect(refused).toEqual([]);

      await page.getByLabel("Access passcode").fill(passcode);
      await page.getByRole("button", { name: "Access Workspace" }).click();
      await expect(page.getByTestId("sidebar")).toBeVisible();
      await expect(page.getByRole("heading", { level: 1, name: /, Alex$/ })).toBeVisible();
      await settle(page);
      expect(refused).toEqual([]);
      await context.close();

      // A stored session whose access token has run out: it is renewed only
      // once the gate lets the request through, so it survives the gate.
      const stale = await browser.newContext({ baseURL: own.url });
      const later = await stale.newPage();
      await later.addInitScript({ content: storedSessionScript(expired) });
      const refusedLater = watchRefusals(later);
      await later.goto("/");
      await expect(later).toHaveURL(/\/gate$/);
      await settle(later);
      expect(refusedLater).toEqual([]);
      await later.getByLabel("Access passcode").fill(passcode);
      await later.getByRole("button", { name: "Access Workspace" }).click();
      await expect(later.getByTestId("sidebar")).toBeVisible();
      await settle(later);
      expect(refusedLater).toEqual([]);
      await stale.close();
    } finally {
      await own.stop();
    }
  });
});

test("follow-up: a two-step user's password reset asks the authenticator code before the new password; the link alone may not set one", async ({
  page,
  server,
  arrange,
}) => {
  const { admin } = await arrange.workspace("Two Step Reset");
  const secret = await enrolAuthenticator(server, admin);
  const refused = watchRefusals(page);

  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(admin.email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByRole("heading", { name: "Check Your Email" })).toBeVisible();
  await page.goto(linkIn(await server.waitMail(admin.email, (m) => m.kind === "recovery")));

  // The code first; no password fields yet.
  await expect(page.getByRole("heading", { name: "Two-step verification" })).toBeVisible();
  await expect(page.getByText("Your account has two-step verification on. Enter the code from your authenticator app to choose a new password.")).toBeVisible();
  await expect(page.getByText(admin.email)).toBeVisible();
  await expect(page.getByLabel("New password", { exact: true })).toHaveCount(0);
  // The tokens came in the fragment and are gone from the address bar.
  expect(new URL(page.url()).pathname).toBe("/reset-password");
  expect(new URL(page.url()).hash).toBe("");
  // The link's session is one factor only: the server refuses it a new password.
  const linkToken = await storedToken(page);
  expect(aalOf(linkToken)).toBe("aal1");
  const direct = await call(server, "/auth/v1/user", linkToken, { method: "PUT", body: JSON.stringify({ password: NEW_PASSWORD }) });
  expect(direct.status).toBe(401);
  expect(((await direct.json()) as { error_code?: string }).error_code).toBe("insufficient_aal");
  await shots(page, "reset-code-step");

  // A reload stays at the code step, and asks nothing the server refuses.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Two-step verification" })).toBeVisible();
  await settle(page);

  await page.getByLabel("6-digit code").fill(totp(secret));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Set New Password" })).toBeVisible();
  expect(aalOf(await storedToken(page))).toBe("aal2");
  await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Update Password" }).click();
  await expect(page.getByRole("heading", { name: "Password Updated" })).toBeVisible();
  await page.waitForURL(/\/login$/);

  // The new password, then the code again.
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password", { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("heading", { name: "Two-step verification" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Two-step verification" })).toBeVisible();
  await settle(page);
  await page.getByLabel("6-digit code").fill(totp(secret));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByTestId("sidebar")).toBeVisible();
  await settle(page);
  expect(refused).toEqual([]);
});

test("item 8: onboarding keeps Continue disabled for a blank name and a reload resumes where the admin was", async ({ page, server, arrange }) => {
  const admin = await arrange.member({ role: "admin", orgId: null, fullName: "Nia Newcomer" });
  await signInFast(page, server, admin);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Create Your Organization" })).toBeVisible();

  // Required after trimming: spaces only keep Continue disabled, and leaving the field says why.
  const name = page.getByLabel("Organization name");
  const next = page.getByRole("button", { name: "Continue" });
  await expect(next).toBeDisabled();
  await name.fill("   ");
  await expect(next).toBeDisabled();
  await name.blur();
  await expect(page.getByRole("alert").filter({ hasText: "Please enter a name for your organization" })).toBeVisible();
  await expect(page.getByText("Organization name required")).toBeVisible();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await shots(page, "onboarding-blank-name");
  await name.fill("  Harbor Biologics ");
  await expect(name).not.toHaveAttribute("aria-invalid", "true");
  await expect(next).toBeEnabled();
  await next.click();
  await expect(page.getByRole("heading", { level: 1, name: "Invite Your Team" })).toBeVisible();

  // A reload after step 1 comes back to the Team step, for the organization just made.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Invite Your Team" })).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Setup progress" })).toHaveAttribute("aria-valuenow", "100");
  await expect(page.getByText("work in Harbor Biologics")).toBeVisible();
  await expect(page.getByTestId("sidebar")).toHaveCount(0);
  await shots(page, "onboarding-resumed-team");
  // Back still shows step 1 with the organization kept, and allows skipping.
  await page.getByRole("button", { name: "Back" }).click();
  await expect(name).toHaveValue("Harbor Biologics");
  await expect(page.getByRole("button", { name: "Skip Setup" })).toBeVisible();
  await next.click();
  await expect(page.getByRole("heading", { level: 1, name: "Invite Your Team" })).toBeVisible();

  // After the invitations, a reload comes back to the last screen; its links were shown once.
  const colleague = uniqueEmail("colleague");
  await page.getByLabel("Email for invite 1").fill(colleague);
  await page.getByRole("button", { name: "Complete Setup" }).click();
  await expect(page.getByRole("textbox", { name: `Sign-up link for ${colleague}` })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Your workspace is ready" })).toBeVisible();
  await expect(page.getByText("send a fresh link to each person from the Users page")).toBeVisible();
  await shots(page, "onboarding-resumed-done");
  await page.getByRole("button", { name: "Go to Command Center" }).click();
  await expect(page.getByTestId("sidebar")).toBeVisible();
  await expect(page.getByText("Here is where Harbor Biologics stands today.")).toBeVisible();
  // Finished: the wizard does not come back.
  await page.reload();
  await expect(page.getByTestId("sidebar")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: /Create Your Organization|Invite Your Team|Your workspace is ready/ })).toHaveCount(0);

  const profile = await server.service(`/rest/v1/profiles_v2?id=eq.${admin.id}&select=org_id`);
  const orgId = ((await profile.json()) as { org_id: string }[])[0]?.org_id ?? "";
  const audit = await server.service(`/rest/v1/audit_logs_v2?select=action,meta&org_id=eq.${orgId}&action=in.(organization_created,onboarding_completed)&order=id.asc`);
  const rows = (await audit.json()) as { action: string; meta: { completed_steps?: string[] } }[];
  expect(rows.map((r) => r.action)).toEqual(["organization_created", "onboarding_completed"]);
  expect(rows[1]?.meta.completed_steps).toEqual(["organization_setup", "user_invites"]);
});

/** The toasts on screen do not overlap any of `actions` (each scrolled into view first, as a person would). */
async function expectToastsClear(page: Page, actions: Locator[]): Promise<void> {
  const toasts = page.locator("[data-sonner-toast]");
  await expect(toasts.first()).toBeVisible();
  for (const action of actions) {
    await action.scrollIntoViewIfNeeded();
    const a = await action.boundingBox();
    if (!a) throw new Error("action not on screen");
    for (const box of await toasts.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) {
      const overlaps = a.x < box.x + box.width && box.x < a.x + a.width && a.y < box.y + box.height && box.y < a.y + a.height;
      expect(overlaps, `a toast at ${JSON.stringify(box)} covers the action at ${JSON.stringify(a)}`).toBe(false);
    }
  }
}

test("item 12: a toast over a dialog leaves the dialog's actions free, at 1440 and 390 px", async ({ browser, server, arrange }) => {
  const { orgId } = await arrange.workspace("Toast Placement");
  const marketer = await arrange.member({ role: "marketer", orgId, fullName: "Tara Toast" });
  const session = await passwordSession(server, marketer);
  const pdf = samplePdf([["Efficacy at week 16."]], { title: "Leave piece" });
  for (const width of [1440, 390]) {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width, height: width === 390 ? 844 : 900 } });
    const page = await context.newPage();
    await page.addInitScript({ content: storedSessionScript(session) });
    // The file's upload never ends, so it is cancelled from the dialog (a toast says so, the dialog stays).
    await page.route("**/storage/v1/object/**", async (route) => {
      if (route.request().method() !== "PUT") await route.continue();
    });
    await page.goto("/content?new=1");
    const dialog = page.getByRole("dialog", { name: "New asset" });
    await dialog.getByRole("tab", { name: "Upload" }).click();
    await dialog.getByLabel("Title").fill("Leave piece");
    await dialog.getByLabel("File").setInputFiles({ name: "leave-piece.pdf", mimeType: "application/pdf", buffer: pdf });
    await dialog.getByRole("button", { name: "Create asset" }).click();
    await dialog.getByRole("button", { name: "Cancel upload" }).click();
    await expect(page.getByText("Upload cancelled")).toBeVisible();
    await expect(dialog).toBeVisible();
    await expectToastsClear(page, [dialog.getByRole("button", { name: "Cancel", exact: true }), dialog.getByRole("button", { name: "Create asset" })]);
    await page.screenshot({ path: test.info().outputPath(`toast-over-dialog-${String(width)}.png`), animations: "disabled" });
    await context.close();
  }
});

test("item 12: after Initial Setup the onboarding wizard follows at once, with no loading screen between", async ({ browser }) => {
  const own = await startServer();
  try {
    const context = await browser.newContext({ baseURL: own.url });
    const page = await context.newPage();
    const refused = watchRefusals(page);
    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Initial Setup" })).toBeVisible();
    await page.getByLabel("Administrator e-mail").fill(uniqueEmail("founder"));
    await page.getByLabel("Administrator password").fill(PASSWORD);
    // Every loading screen (a large spinner) shown from the click until the wizard's heading.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { loadingScreens: string[] }).loadingScreens = seen;
      let done = false;
      const observer = new MutationObserver(() => {
        look();
      });
      const look = () => {
        if (done) return;
        for (const el of document.querySelectorAll('[data-slot="spinner"].size-8')) {
          seen.push(el.closest('[role="status"]')?.textContent ?? "spinner");
        }
        done = [...document.querySelectorAll("h1")].some((h) => h.textContent === "Create Your Organization");
        if (done) observer.disconnect();
        else requestAnimationFrame(look);
      };
      observer.observe(document.body, { childList: true, subtree: true });
      look();
    });
    await page.getByRole("button", { name: "Create Administrator" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Create Your Organization" })).toBeVisible();
    const loadingScreens = await page.evaluate(() => (window as unknown as { loadingScreens: string[] }).loadingScreens);
    expect([...new Set(loadingScreens)]).toEqual([]);
    await settle(page);
    expect(refused).toEqual([]);
    await context.close();
  } finally {
    await own.stop();
  }
});
