import type { Page } from "@playwright/test";
import { expect, passwordSession, signIn, test, type Member } from "./support/fixtures";
import type { Server } from "./support/server";

// Issue 14, items 10 and 11: the read-only demo (preview) and ended sessions.

const BANNER = "Preview Mode — authentication disabled; data is demo";
const ENDED = "Your session has ended";

/** The access token and session id this page's app holds. */
async function browserSession(page: Page): Promise<{ token: string; sessionId: string }> {
  return page.evaluate(() => {
    const stored = JSON.parse(window.localStorage.getItem("fairbalance.auth") ?? "{}") as { access_token?: string };
    const token = stored.access_token ?? "";
    const part = token.split(".")[1] ?? "";
    const claims = JSON.parse(atob(part.replace(/-/g, "+").replace(/_/g, "/"))) as { session_id?: string };
    return { token, sessionId: claims.session_id ?? "" };
  });
}

/** Signs `member` out of every session from another client (another device). */
async function signOutEverywhereElse(server: Server, member: Member): Promise<void> {
  const other = await passwordSession(server, member);
  const res = await fetch(`${server.url}/auth/v1/logout?scope=global`, {
    method: "POST",
    headers: { apikey: server.anonKey, Authorization: `Bearer ${String(other.access_token)}` },
  });
  expect(res.status).toBe(204);
}

/** Revokes one session of `member` through the data API (rpc revoke_session), from another of their sessions. */
async function revokeSession(server: Server, member: Member, sessionId: string): Promise<void> {
  const other = await passwordSession(server, member);
  const res = await fetch(`${server.url}/rest/v1/rpc/revoke_session`, {
    method: "POST",
    headers: { apikey: server.anonKey, Authorization: `Bearer ${String(other.access_token)}`, "Content-Type": "application/json" },
    body: JSON.stringify({ session_id: sessionId }),
  });
  expect(res.ok, await res.text()).toBe(true);
}

/**
 * The ended session's notice is on screen exactly once, and it is the only
 * notice (no toast per failed request), also a moment later.
 */
async function expectOneNotice(page: Page): Promise<void> {
  await expect(page.getByText(ENDED)).toHaveCount(1);
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(1);
  await page.waitForTimeout(1500);
  await expect(page.getByText(ENDED)).toHaveCount(1);
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(1);
}

/**
 * Does what makes the screen at `path` ask the server again — unless a
 * request of its own already noticed the ended session and left it.
 */
async function nextRequest(page: Page, path: string, act: () => Promise<void>): Promise<boolean> {
  if (new URL(page.url()).pathname !== path) return false;
  return act().then(
    () => true,
    () => false,
  );
}

/** Signs in on the sign-in screen the app sent the member to (not a fresh visit, which would forget the page). */
async function signInAgain(page: Page, member: Member): Promise<void> {
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password", { exact: true }).fill(member.password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

test.describe("ended sessions", () => {
  test("signed out elsewhere: the next screen notices once, sends the member to sign in, and back to where they were", async ({ page, arrange, server }) => {
    const { admin } = await arrange.workspace("Ended Sessions Ltd");
    await signIn(page, admin);
    await page.goto("/content?tab=claims");
    await expect(page.getByRole("heading", { name: "Content & Modules Hub" })).toBeVisible();
    await page.waitForLoadState("networkidle");

    await signOutEverywhereElse(server, admin);
    const navigated = await nextRequest(page, "/content", () => page.getByRole("link", { name: "Users" }).first().click({ timeout: 5_000 }));

    await expect(page).toHaveURL(/\/login$/);
    await expectOneNotice(page);
    await expect(page.getByText(/session of this token|Invalid JWT/)).toHaveCount(0);

    // Back where the member was: the screen they went to (or, had its own request noticed first, the one they were on).
    await signInAgain(page, admin);
    if (navigated) {
      await expect(page).toHaveURL(/\/users$/);
      await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
    } else {
      await expect(page).toHaveURL(/\/content\?tab=claims$/);
    }
    await expect(page.getByText(ENDED)).toHaveCount(0);
  });

  test("a revoked session is noticed on reload too, and the page with its query comes back after signing in", async ({ page, arrange, server }) => {
    const { admin } = await arrange.workspace("Revoked Sessions Ltd");
    await signIn(page, admin);
    await page.goto("/content?tab=references");
    await expect(page.getByRole("heading", { name: "Content & Modules Hub" })).toBeVisible();
    const { sessionId } = await browserSession(page);

    await revokeSession(server, admin, sessionId);
    await page.reload();

    await expect(page).toHaveURL(/\/login$/);
    await expectOneNotice(page);

    await signInAgain(page, admin);
    await expect(page).toHaveURL(/\/content\?tab=references$/);
    await expect(page.getByRole("tab", { name: /References/, selected: true })).toBeVisible();
  });

  test("a deactivated member's screen notices once on its next request and goes to sign in", async ({ page, arrange, server }) => {
    const { orgId, admin } = await arrange.workspace("Deactivations Ltd");
    const marketer = await arrange.member({ role: "marketer", orgId, fullName: "Mara Marketer" });
    await signIn(page, marketer);
    await page.goto("/audit-log");
    await expect(page.getByRole("heading", { name: "Audit Log", level: 1 })).toBeVisible();
    const refresh = page.getByRole("button", { name: "Refresh" }).first();
    await expect(refresh).toBeEnabled();
    await page.waitForLoadState("networkidle");

    const adminSession = await passwordSession(server, admin);
    const res = await fetch(`${server.url}/rest/v1/rpc/deactivate_member`, {
      method: "POST",
      headers: { apikey: server.anonKey, Authorization: `Bearer ${String(adminSession.access_token)}`, "Content-Type": "application/json" },
      body: JSON.stringify({ user_id: marketer.id }),
    });
    expect(res.ok, await res.text()).toBe(true);

    await nextRequest(page, "/audit-log", () => refresh.click({ timeout: 5_000 }));
    await expect(page).toHaveURL(/\/login$/);
    await expectOneNotice(page);
  });

  test("/safe treats an ended session as ended, not as a failed connection check, and returns there after signing in", async ({ page, arrange, server }) => {
    const { admin } = await arrange.workspace("Safe Mode Ltd");
    await signIn(page, admin);
    await page.goto("/safe");
    await expect(page.getByTestId("db-status")).toBeVisible();
    await page.waitForLoadState("networkidle");

    await signOutEverywhereElse(server, admin);
    await nextRequest(page, "/safe", () => page.getByRole("button", { name: "Check again" }).click({ timeout: 5_000 }));

    await expect(page).toHaveURL(/\/login$/);
    await expectOneNotice(page);
    await expect(page.getByText("Connection check failed")).toHaveCount(0);

    await signInAgain(page, admin);
    await expect(page).toHaveURL(/\/safe$/);
    await expect(page.getByTestId("db-status")).toContainText("Connected");
    await expect(page.getByText("Connection check failed")).toHaveCount(0);
  });
});

test.describe("read-only demo (preview)", () => {
  test("the PREVIEW banner stays for the whole preview session, after reloads at any address, and ends with it", async ({ page }) => {
    await page.goto("/?preview=1");
    await expect(page.getByText(BANNER)).toBeVisible();

    // New documents without ?preview: the banner and badge stay.
    await page.goto("/content");
    await expect(page.getByRole("heading", { name: "Content & Modules Hub" })).toBeVisible();
    await expect(page.getByText(BANNER)).toBeVisible();
    await expect(page.getByTestId("preview-badge")).toHaveText("PREVIEW");
    await page.reload();
    await expect(page.getByRole("heading", { name: "Content & Modules Hub" })).toBeVisible();
    await expect(page.getByText(BANNER)).toBeVisible();
    await page.goto("/audit-log");
    await expect(page.getByRole("heading", { name: "Audit Log", level: 1 })).toBeVisible();
    await expect(page.getByText(BANNER)).toBeVisible();
    // The sign-in address leads home in demo mode, still in preview.
    await page.goto("/login");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText("You are exploring the demo organization")).toBeVisible();
    await expect(page.getByText(BANNER)).toBeVisible();

    // Signing out ends the preview session: no banner on the sign-in screen.
    await page.goto("/logout");
    await expect(page).toHaveURL(/\/login$/, { timeout: 15_000 });
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText(BANNER)).toHaveCount(0);
  });

  test("every screen of the read-only demo hides or disables its write actions and says why", async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto("/?preview=1");
    await expect(page.getByText(BANNER)).toBeVisible();
    const main = page.getByRole("main");
    const note = main.getByTestId("read-only-note");
    const writeVerbs = /^(New|Add|Create|Edit|Save|Archive|Delete|Invite|Deactivate|Reactivate|Upload|Change|Set up|Update|Remove|Revoke|Resend|Link|Unlink|Sign out)\b/;

    /** The names of the enabled buttons (switches included) in `scope` that would write; a disabled fieldset disables its buttons. */
    const enabledWrites = async (scope = main) =>
      scope.locator("button:visible:enabled").evaluateAll(
        (els, verbs) =>
          els
            .map((e) => (e.getAttribute("aria-label") ?? e.textContent).trim())
            .filter((name) => new RegExp(verbs).test(name)),
        writeVerbs.source,
      );

    // Content & Modules Hub: no create button in any tab; items open read-only.
    await page.goto("/content");
    await expect(main.getByRole("heading", { name: "Content & Modules Hub" })).toBeVisible();
    await expect(main.getByRole("button", { name: "New asset" })).toHaveCount(0);
    await expect(note).toBeVisible();
    const firstAsset = main.locator("a[href^='/assets/']").first();
    await expect(firstAsset).toBeVisible();
    const assetHref = await firstAsset.getAttribute("href");

    for (const [tab, noun, save] of [
      ["Claims", "New claim", "Save claim"],
      ["Modules", "New module", "Save module"],
      ["References", "New reference", "Save reference"],
    ] as const) {
      await main.getByRole("tab", { name: new RegExp(tab) }).click();
      await expect(main.getByRole("searchbox", { name: new RegExp(`Search ${tab.toLowerCase()}`) })).toBeVisible();
      await expect(main.getByRole("button", { name: noun })).toHaveCount(0);
      expect(await enabledWrites(), tab).toEqual([]);
      // Opening an item shows it, with nothing to save, link or upload.
      await main.locator("ul > li > button").first().click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toBeVisible();
      await expect(dialog.getByTestId("read-only-note")).toBeVisible();
      await expect(dialog.getByRole("button", { name: save })).toHaveCount(0);
      expect(await enabledWrites(dialog), `${tab} dialog`).toEqual([]);
      await expect(dialog.locator("input[type=file]")).toHaveCount(0);
      await dialog.getByRole("button", { name: "Close" }).last().click();
      await expect(dialog).toHaveCount(0);
    }

    // Creating through the address opens nothing.
    await page.goto("/content?new=1");
    await expect(main.getByRole("heading", { name: "Content & Modules Hub" })).toBeVisible();
    await page.goto("/content?tab=claims&new=claim");
    await expect(main.getByRole("heading", { name: "Content & Modules Hub" })).toBeVisible();
    await page.waitForTimeout(500);
    await expect(page.getByRole("dialog")).toHaveCount(0);

    // The asset page: no New version, Edit details or Archive.
    await page.goto(assetHref ?? "/content");
    await expect(main.getByTestId("asset-status")).toBeVisible();
    await expect(note).toBeVisible();
    for (const name of ["New version", "Edit details", "Archive"]) {
      await expect(main.getByRole("button", { name })).toHaveCount(0);
    }
    expect(await enabledWrites(), "asset").toEqual([]);

    // Users: the members, with no invitation or member action.
    await page.goto("/users");
    await expect(main.getByTestId("member-row").first()).toBeVisible();
    await expect(note).toBeVisible();
    await expect(main.getByRole("button", { name: "Invite people" })).toHaveCount(0);
    await expect(main.getByRole("button", { name: /^Actions for/ })).toHaveCount(0);
    expect(await enabledWrites(), "users").toEqual([]);

    // Settings, Profile and Security: shown, every control disabled.
    await page.goto("/settings");
    await expect(main.getByRole("button", { name: "Edit Cardiomax" })).toBeDisabled();
    await expect(note).toBeVisible();
    // The instance-wide workspace settings, which the server shows no demo session, are not asked for.
    await expect(main.getByTestId("workspace-settings")).toHaveCount(0);
    await expect(main.getByText("The workspace settings could not be loaded")).toHaveCount(0);
    await expect(main.getByTestId("notify-review_assigned")).toBeDisabled();
    expect(await enabledWrites(), "settings").toEqual([]);
    expect(await main.locator("[role=switch]:enabled, [role=radio]:enabled, input:enabled").count(), "settings controls").toBe(0);

    await page.goto("/account/profile");
    await expect(main.getByLabel("Full name")).toBeDisabled();
    await expect(note).toBeVisible();
    await expect(main.getByRole("button", { name: "Change e-mail" })).toBeDisabled();
    expect(await enabledWrites(), "profile").toEqual([]);

    await page.goto("/security");
    await expect(main.getByRole("button", { name: "Set up authenticator app" })).toBeDisabled();
    await expect(note).toBeVisible();
    expect(await enabledWrites(), "security").toEqual([]);
  });
});
