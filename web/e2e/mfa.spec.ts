import type { Page } from "@playwright/test";
import { expect as baseExpect, expectAccessible, passwordSession, signInFast, storedSessionScript, test } from "./support/fixtures";
import type { Server } from "./support/server";
import { totp } from "./support/totp";

// Two-step verification is enforced: once a member has turned on an
// authenticator, signing in with the password asks for its code, the app
// lets no password-only session in, and the server refuses such a session's
// data, storage and function calls.

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

/** Full-page screenshots at 1440 and 390 px wide, kept with the test's results. */
async function shots(page: Page, name: string): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.mouse.move(0, 0);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scroll, `${name} at ${width}px sticks out sideways`).toBe(width);
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true, animations: "disabled" });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** A call of `path` with `token` as the bearer, as supabase-js makes it. */
function call(server: Server, path: string, token: string, init: { method?: string; body?: string } = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    ...init,
    headers: { apikey: server.anonKey, Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
  });
}

/** The aal claim of an access token. */
function aalOf(token: string): unknown {
  const payload = token.split(".")[1] ?? "";
  return (JSON.parse(Buffer.from(payload, "base64url").toString()) as { aal?: unknown }).aal;
}

/** The access token the app stored for this page's session. */
async function storedToken(page: Page): Promise<string> {
  const raw = await page.evaluate(() => window.localStorage.getItem("fairbalance.auth"));
  return (JSON.parse(raw ?? "{}") as { access_token?: string }).access_token ?? "";
}

test("two-step verification: enrol, sign out, sign in → the code is asked; a password-only token is refused by the server", async ({
  arrange,
  browser,
  page,
  server,
}) => {
  const { admin } = await arrange.workspace("Two Step Inc");

  // Before: a password-only session may do everything.
  const before = (await passwordSession(server, admin)).access_token as string;
  expect((await call(server, "/rest/v1/profiles_v2?select=id", before)).status).toBe(200);

  // Turn on an authenticator on the security page.
  await signInFast(page, server, admin);
  await page.goto("/security");
  await page.getByRole("button", { name: "Set up authenticator app" }).click();
  const enrolment = page.getByTestId("mfa-enrolment");
  const secret = (await page.getByTestId("totp-secret").getAttribute("data-secret")) ?? "";
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  await enrolment.getByLabel("6-digit code").fill(totp(secret));
  await enrolment.getByRole("button", { name: "Verify and turn on" }).click();
  await expect(page.getByText("Two-step verification is on")).toBeVisible();

  // Sign out, then sign in again with the password on the login screen,
  // from a page that needs a session.
  await page.goto("/logout");
  await expect(page.getByRole("heading", { name: "Signed Out" })).toBeVisible();
  await page.waitForURL(/\/login$/);
  await page.goto("/users");
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password", { exact: true }).fill(admin.password);
  await page.getByRole("button", { name: "Sign In" }).click();

  // The code is asked; the session is password-only (aal1) until it is given.
  await expect(page.getByRole("heading", { name: "Two-step verification" })).toBeVisible();
  const code = page.getByLabel("6-digit code");
  await expect(code).toBeFocused();
  await expect(page).toHaveURL(/\/login$/);
  const pending = await storedToken(page);
  expect(aalOf(pending)).toBe("aal1");
  await expectAccessible(page);
  await shots(page, "mfa-code-step");

  // The server refuses the password-only token on every data surface …
  const refusedRest = await call(server, "/rest/v1/profiles_v2?select=id", pending);
  expect(refusedRest.status).toBe(403);
  expect(await refusedRest.json()).toMatchObject({ code: "42501", message: "Two-step verification required" });
  const invite = await call(server, "/rest/v1/rpc/create_invite", pending, {
    method: "POST",
    body: JSON.stringify({ email: "eve@example.com", role: "viewer" }),
  });
  expect(invite.status).toBe(403);
  const storage = await call(server, "/storage/v1/bucket", pending);
  expect(await storage.json()).toMatchObject({ statusCode: "403", error: "Unauthorized", message: "Two-step verification required" });
  const fn = await call(server, "/functions/v1/demo-data-manager", pending, { method: "POST", body: JSON.stringify({ action: "CHECK_DEMO_DATA" }) });
  expect(fn.status).toBe(403);
  expect(await fn.json()).toMatchObject({ success: false, code: "insufficient_aal" });
  // … and so is a fresh password-only sign-in through the API, while the
  // identity endpoints still serve it so that it can answer the challenge.
  const api = (await passwordSession(server, admin)).access_token as string;
  expect(aalOf(api)).toBe("aal1");
  expect((await call(server, "/rest/v1/profiles_v2?select=id", api)).status).toBe(403);
  expect((await call(server, "/auth/v1/user", api)).status).toBe(200);
  // Nor does the app let it in: the guard sends it back to the code.
  await page.goto("/users");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { name: "Two-step verification" })).toBeVisible();

  // A wrong code is refused and said so.
  const right = totp(secret);
  const wrong = right === "000000" ? "111111" : "000000";
  await code.fill(wrong);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("That code is not valid. Enter the code your authenticator app shows now.")).toBeVisible();
  await expect(code).toHaveAttribute("aria-invalid", "true");
  await shots(page, "mfa-code-step-wrong");

  // The right one finishes signing in, on the page the user was going to,
  // with an aal2 session the server accepts.
  await code.fill(totp(secret));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
  const verified = await storedToken(page);
  expect(aalOf(verified)).toBe("aal2");
  expect((await call(server, "/rest/v1/profiles_v2?select=id", verified)).status).toBe(200);

  // Another browser holding a password-only session is sent to the code
  // step too, and 'Cancel and sign out' ends that session.
  const context = await browser.newContext({ baseURL: server.url });
  const other = await context.newPage();
  const stored = await passwordSession(server, admin);
  await other.addInitScript({ content: storedSessionScript(stored) });
  await other.goto("/account");
  await expect(other).toHaveURL(/\/login$/);
  await expect(other.getByRole("heading", { name: "Two-step verification" })).toBeVisible();
  await other.getByRole("button", { name: "Cancel and sign out" }).click();
  await expect(other.getByRole("button", { name: "Sign In" })).toBeVisible();
  expect((await call(server, "/auth/v1/user", stored.access_token as string)).status).toBe(403);
  await context.close();
});
