import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { expect as baseExpect, expectAccessible, PASSWORD, signIn, signInFast, test, uniqueEmail, type Member } from "./support/fixtures";
import { linkIn, type Server } from "./support/server";

// The first run of a workspace: the onboarding wizard (spec §2, §4, §5, §7,
// §8), the page of a member without an organization, the Command Center,
// the pilot checklist and the runbook.

// Screens load lazily and the shared test machine can be slow: allow for it.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

const SHOTS = "/tmp/shots-home";
mkdirSync(SHOTS, { recursive: true });

/** Saves the page at 1440 and 390 px wide (and restores 1440). */
async function shots(page: Page, name: string, opts: { dark?: boolean; fullPage?: boolean } = {}): Promise<void> {
  if (opts.dark) await page.emulateMedia({ colorScheme: "dark" });
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SHOTS}/${name}${opts.dark ? "-dark" : ""}-${String(width)}.png`, fullPage: opts.fullPage ?? true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  if (opts.dark) await page.emulateMedia({ colorScheme: "light" });
}

/**
 * Runs axe once toasts have gone: a toast caught mid-animation is
 * half-transparent, which axe reads as low contrast.
 */
async function accessible(page: Page): Promise<void> {
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
  await expectAccessible(page);
}

/** A member's access token, for arranging through the API as that member. */
async function tokenOf(server: Server, member: Pick<Member, "email" | "password">): Promise<string> {
  const res = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: server.anonKey, "Content-Type": "application/json" },
    body: JSON.stringify({ email: member.email, password: member.password }),
  });
  if (!res.ok) throw new Error(`sign in: ${String(res.status)} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Calls an rpc function as a member. */
async function rpcAs<T>(server: Server, token: string, fn: string, args: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${server.url}/rest/v1/rpc/${fn}`, {
    method: "POST",
    headers: { apikey: server.anonKey, Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(args),
  });
  if (!res.ok) throw new Error(`rpc ${fn}: ${String(res.status)} ${await res.text()}`);
  return (await res.json()) as T;
}

async function profileOf(server: Server, id: string): Promise<{ org_id: string | null; role: string }> {
  const res = await server.service(`/rest/v1/profiles_v2?id=eq.${id}&select=org_id,role`);
  const [row] = (await res.json()) as { org_id: string | null; role: string }[];
  if (!row) throw new Error(`no profile ${id}`);
  return row;
}

interface AuditRow {
  action: string;
  object_type: string | null;
  meta: Record<string, unknown> | null;
}

test("a new admin creates the organization, invites two people, and one of them joins", async ({ page, arrange, server, browser, baseURL }) => {
  const admin = await arrange.member({ role: "admin", orgId: null, fullName: "Nora Newcomer" });
  await signIn(page, admin);

  // Step 1 at 50 %.
  const heading = page.getByRole("heading", { level: 1, name: "Create Your Organization" });
  await expect(heading).toBeVisible();
  await expect(page.getByText("50% complete")).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Setup progress" })).toHaveAttribute("aria-valuenow", "50");
  await expect(page.getByRole("list", { name: "Setup steps" })).toContainText("Organization");
  await expect(page.getByRole("list", { name: "Setup steps" })).toContainText("Team");
  // Nothing works without an organization: no way to skip before it exists.
  await expect(page.getByRole("button", { name: "Skip Setup" })).toHaveCount(0);
  await accessible(page);
  await shots(page, "onboarding-1-organization");

  // Validation: Continue is disabled while empty — spaces only count as
  // empty (required after trimming) — and leaving a blank name says why.
  const name = page.getByLabel("Organization name");
  const next = page.getByRole("button", { name: "Continue" });
  await expect(next).toBeDisabled();
  await name.fill("   ");
  await expect(next).toBeDisabled();
  await name.blur();
  await expect(page.getByRole("alert").filter({ hasText: "Please enter a name for your organization" })).toBeVisible();
  await expect(page.getByText("Organization name required")).toBeVisible();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await shots(page, "onboarding-1-invalid");

  // Create it: step 2 at 100 %.
  await name.fill("Northwind Therapeutics");
  await expect(name).not.toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Industry (optional)").selectOption("Biotechnology");
  await next.click();
  await expect(page.getByText("Organization created")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Invite Your Team" })).toBeVisible();
  await expect(page.getByText("100% complete")).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Setup progress" })).toHaveAttribute("aria-valuenow", "100");
  await expect(page.getByText("You can invite more people later from Settings.")).toBeVisible();

  // Back returns to step 1 with the organization kept; Skip is now allowed.
  await page.getByRole("button", { name: "Back" }).click();
  await expect(heading).toBeVisible();
  await expect(page.getByText("50% complete")).toBeVisible();
  await expect(name).toHaveValue("Northwind Therapeutics");
  await expect(page.getByRole("button", { name: "Skip Setup" })).toBeVisible();
  await next.click();
  await expect(page.getByRole("heading", { level: 1, name: "Invite Your Team" })).toBeVisible();

  // Rows: one to start (no remove), add two, remove one.
  await expect(page.getByTestId("invite-row")).toHaveCount(1);
  await expect(page.getByRole("button", { name: /Remove invite/ })).toHaveCount(0);
  await expect(page.getByLabel("Role for invite 1")).toHaveValue("marketer");
  await page.getByRole("button", { name: "Add Another Invite" }).click();
  await page.getByRole("button", { name: "Add Another Invite" }).click();
  await expect(page.getByTestId("invite-row")).toHaveCount(3);
  await expect(page.getByRole("button", { name: /Remove invite/ })).toHaveCount(3);
  await page.getByRole("button", { name: "Remove invite 3" }).click();
  await expect(page.getByTestId("invite-row")).toHaveCount(2);

  const reviewerEmail = uniqueEmail("rita");
  const marketerEmail = uniqueEmail("mark");
  await page.getByLabel("Email for invite 1").fill(reviewerEmail);
  await page.getByLabel("Role for invite 1").selectOption("reviewer");
  // A reviewer is stored as one of the three reviewer roles.
  await page.getByLabel("Review area for invite 1").selectOption("reviewer_legal");
  await page.getByLabel("Email for invite 2").fill("not an address");
  await page.getByLabel("Email for invite 2").blur();
  await expect(page.getByText("This is not an e-mail address, so this row will be skipped.")).toBeVisible();
  await page.getByLabel("Email for invite 2").fill(marketerEmail);
  await accessible(page);
  await shots(page, "onboarding-2-team");

  await page.getByRole("button", { name: "Complete Setup" }).click();
  await expect(page.getByText("Invitations logged")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Your workspace is ready" })).toBeVisible();
  const reviewerLink = await page.getByRole("textbox", { name: `Sign-up link for ${reviewerEmail}` }).inputValue();
  const marketerLink = await page.getByRole("textbox", { name: `Sign-up link for ${marketerEmail}` }).inputValue();
  expect(reviewerLink).toMatch(new RegExp(`^${server.url}/signup\\?invite=[\\w-]{20,}$`));
  expect(marketerLink).not.toBe(reviewerLink);
  await expect(page.getByRole("list", { name: "Invitation links" })).toContainText("Legal reviewer");
  await accessible(page);
  await shots(page, "onboarding-3-links");

  // Into the app.
  await page.getByRole("button", { name: "Go to Command Center" }).click();
  await expect(page.getByTestId("sidebar")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: /, Nora$/ })).toBeVisible();
  await expect(page.getByText("Here is where Northwind Therapeutics stands today.")).toBeVisible();

  // The audit trail holds the wizard's entries, once each.
  const { org_id: orgId, role } = await profileOf(server, admin.id);
  expect(orgId).toBeTruthy();
  expect(role).toBe("admin");
  const res = await server.service(`/rest/v1/audit_logs_v2?org_id=eq.${orgId ?? ""}&select=action,object_type,meta&order=id.asc`);
  const rows = (await res.json()) as AuditRow[];
  const of = (action: string) => rows.filter((r) => r.action === action);
  expect(of("organization_created")).toHaveLength(1);
  expect(of("organization_created")[0]?.meta).toEqual({ organization_name: "Northwind Therapeutics", industry: "Biotechnology" });
  expect(of("user_invited")).toHaveLength(2);
  expect(of("user_invited").map((r) => r.meta)).toEqual([
    { invited_email: reviewerEmail, invited_role: "reviewer_legal", invitation_method: "onboarding_wizard" },
    { invited_email: marketerEmail, invited_role: "marketer", invitation_method: "onboarding_wizard" },
  ]);
  expect(of("user_invited").every((r) => r.object_type === "user_invite")).toBe(true);
  expect(of("onboarding_completed")).toHaveLength(1);
  expect(of("onboarding_completed")[0]?.meta).toEqual({ completed_steps: ["organization_setup", "user_invites"] });
  // Only one organization was created, even after Back and Continue.
  expect(of("orgs.insert")).toHaveLength(1);

  // The invited reviewer signs up through their link and joins with the invited role.
  const context = await browser.newContext({ baseURL });
  const invitee = await context.newPage();
  await invitee.goto(reviewerLink.replace(server.url, ""));
  await expect(invitee.getByRole("button", { name: "Join Organization" })).toBeVisible();
  await expect(invitee.getByTestId("invite-role")).toHaveText("Legal reviewer");
  await expect(invitee.getByLabel("Email")).toHaveValue(reviewerEmail);
  await invitee.getByLabel("First name").fill("Rita");
  await invitee.getByLabel("Last name").fill("Reviewer");
  await invitee.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await invitee.getByRole("button", { name: "Join Organization" }).click();
  // Without autoconfirm the account is confirmed by e-mail first.
  await expect(invitee.getByRole("heading", { name: "Check your email" }).or(invitee.getByTestId("sidebar"))).toBeVisible();
  if (await invitee.getByRole("heading", { name: "Check your email" }).isVisible()) {
    const mail = await server.waitMail(reviewerEmail);
    await invitee.goto(linkIn(mail));
  }
  await expect(invitee.getByTestId("sidebar")).toBeVisible({ timeout: 15_000 });
  await expect(invitee.getByRole("heading", { level: 1, name: /, Rita$/ })).toBeVisible();
  const users = await server.service(`/auth/v1/admin/users?per_page=1000`);
  const { users: list } = (await users.json()) as { users: { id: string; email: string }[] };
  const rita = list.find((u) => u.email === reviewerEmail);
  expect(rita).toBeTruthy();
  expect(await profileOf(server, rita?.id ?? "")).toEqual({ org_id: orgId, role: "reviewer_legal" });
  await context.close();
});

test("submitting the team step without a valid e-mail counts as skipping", async ({ page, arrange, server }) => {
  const admin = await arrange.member({ role: "admin", orgId: null, fullName: "Sam Skipper" });
  await signInFast(page, server, admin);
  await page.goto("/");
  await page.getByLabel("Organization name").fill("Skiplake Health");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Email for invite 1").fill("no-at-sign");
  await page.getByRole("button", { name: "Complete Setup" }).click();
  await expect(page.getByTestId("sidebar")).toBeVisible();
  const { org_id: orgId } = await profileOf(server, admin.id);
  const res = await server.service(`/rest/v1/audit_logs_v2?org_id=eq.${orgId ?? ""}&select=action,meta&order=id.asc`);
  const rows = (await res.json()) as AuditRow[];
  expect(rows.filter((r) => r.action === "user_invited")).toHaveLength(0);
  expect(rows.find((r) => r.action === "onboarding_completed")?.meta).toEqual({
    completed_steps: ["organization_setup"],
    skipped_steps: ["user_invites"],
  });
});

test("a member without an organization is told to get an invitation, and can join with one", async ({ page, arrange, server }) => {
  const { admin } = await arrange.workspace("Bluefin Pharma");
  const viewer = await arrange.member({ role: "viewer", orgId: null, fullName: "Vic Viewer" });
  await signInFast(page, server, viewer);
  await page.goto("/");

  await expect(page.getByRole("heading", { level: 1, name: "You are not part of an organization yet" })).toBeVisible();
  await expect(page.getByText(/invite this e-mail address/)).toBeVisible();
  await expect(page.getByText(viewer.email)).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign out" })).toHaveAttribute("href", "/logout");
  await expect(page.getByTestId("sidebar")).toHaveCount(0);
  await accessible(page);
  await shots(page, "no-workspace");
  await shots(page, "no-workspace", { dark: true });

  // Check again reloads the profile.
  await page.getByRole("button", { name: "Check again" }).click();
  await expect(page.getByText("Still no organization for this account.")).toBeVisible();

  // A pasted invitation link joins the organization.
  const invite = await rpcAs<{ token: string }>(server, await tokenOf(server, admin), "create_invite", { email: viewer.email, role: "marketer" });
  await page.getByLabel("Invitation link").fill(`${server.url}/signup?invite=${invite.token}`);
  await page.getByRole("button", { name: "Join organization" }).click();
  await expect(page.getByText("Welcome to the team!")).toBeVisible();
  await expect(page.getByTestId("sidebar")).toBeVisible();
  expect((await profileOf(server, viewer.id)).role).toBe("marketer");
});

test("the Command Center shows the pilot's progress, the team, pending invitations and recent activity", async ({ page, arrange, server, browser, baseURL }) => {
  const { orgId, admin } = await arrange.workspace("Helix Biologics");
  const reviewer = await arrange.member({ role: "reviewer_medical", orgId, fullName: "Mara Medic" });
  const pending = uniqueEmail("pending");
  await rpcAs(server, await tokenOf(server, admin), "create_invite", { email: pending, role: "reviewer_legal" });

  await signInFast(page, server, admin);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: /^Good (morning|afternoon|evening), Alex$/ })).toBeVisible();
  await expect(page.getByText("Helix Biologics")).toBeVisible();
  await expect(page.getByTestId("pilot-progress")).toHaveText(/^\d+ of \d+ steps done$/);
  await expect(page.getByText("Next step")).toBeVisible();
  await expect(page.getByRole("link", { name: "View checklist" })).toHaveAttribute("href", "/pilot-checklist");
  const team = page.getByTestId("team-members");
  await expect(team).toContainText("Alex Admin");
  await expect(team).toContainText("Mara Medic");
  await expect(team).toContainText("Medical reviewer");
  await expect(page.getByTestId("pending-invites")).toContainText(pending);
  await expect(page.getByTestId("recent-activity")).toContainText("Alex Admin created an invitation");
  // No invented pipeline numbers: an empty state pointing to the Content Hub.
  await expect(page.getByText("No content in review yet")).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to the Content Hub" })).toHaveAttribute("href", "/content-hub");
  await accessible(page);
  await shots(page, "command-center");
  await shots(page, "command-center", { dark: true });

  // Members who are not admins get no invitations.
  const context = await browser.newContext({ baseURL });
  const other = await context.newPage();
  await signInFast(other, server, reviewer);
  await other.goto("/");
  await expect(other.getByTestId("team-members")).toContainText("Alex Admin", { timeout: 20_000 });
  await expect(other.getByRole("heading", { name: "Pending invitations" })).toHaveCount(0);
  await context.close();
});

test("the pilot checklist is ticked from real data", async ({ page, arrange, server }) => {
  const { admin } = await arrange.workspace("Quarry Medical");
  await signInFast(page, server, admin);
  await page.goto("/pilot-checklist");
  await expect(page.getByRole("heading", { level: 1, name: "Pilot checklist" })).toBeVisible();
  const step = (key: string) => page.locator(`[data-step="${key}"]`);
  await expect(step("org_created")).toHaveAttribute("data-done", "true");
  await expect(step("org_created")).toContainText("Quarry Medical, created");
  await expect(step("org_created")).toContainText("Done");
  await expect(step("audit_verified")).toHaveAttribute("data-done", "false");
  await expect(step("members_invited").getByRole("link", { name: "Invite people" })).toHaveAttribute("href", "/users");
  // Products and assets exist: their steps link to where they are made; the
  // review steps wait for the review workflow.
  await expect(step("first_asset").getByRole("link", { name: "Create an asset in the Content Hub" })).toHaveAttribute("href", "/content-hub");
  await expect(step("first_review")).toContainText("Coming later");
  await expect(page.getByRole("progressbar", { name: "Pilot checklist progress" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Operator runbook" })).toHaveAttribute("href", "/pilot-runbook");
  const before = await page.getByTestId("pilot-progress").innerText();
  await accessible(page);
  await shots(page, "pilot-checklist");

  // Verifying the audit trail ticks its step on the next check.
  await rpcAs(server, await tokenOf(server, admin), "verify_audit_chain");
  await page.getByRole("button", { name: "Check again" }).click();
  await expect(step("audit_verified")).toHaveAttribute("data-done", "true");
  await expect(step("audit_verified")).toContainText("Verified on");
  await expect(page.getByTestId("pilot-progress")).not.toHaveText(before);
});

test("the pilot runbook renders with its table of contents", async ({ page, arrange, server }) => {
  const { admin } = await arrange.workspace();
  await signInFast(page, server, admin);
  await page.goto("/pilot-runbook");
  await expect(page.getByRole("heading", { level: 1, name: "Pilot runbook" })).toBeVisible();
  const toc = page.getByRole("navigation", { name: "Contents" });
  await expect(toc.getByRole("link")).toHaveCount(8);
  for (const title of [
    "Install and start",
    "Create the first administrator",
    "Passcode gate and private mode",
    "Recovery key and safe mode",
    "Back up and restore",
    "Verify the audit trail",
    "Upgrade",
    "Pilot phases, week by week",
  ]) {
    await expect(page.getByRole("heading", { level: 2, name: title })).toBeVisible();
  }
  await expect(page.getByText("make run", { exact: true })).toBeVisible();
  await expect(page.getByText("bin/fairbalance audit verify --org ORGANIZATION_ID", { exact: false })).toBeVisible();
  await expect(page.getByText("/safe?__safe=1")).toBeVisible();
  await toc.getByRole("link", { name: /Back up and restore/ }).click();
  await expect(page).toHaveURL(/#backup$/);
  await expect(page.getByRole("heading", { level: 2, name: "Back up and restore" })).toBeInViewport();
  await accessible(page);
  await page.evaluate(() => {
    window.scrollTo(0, 0);
  });
  await shots(page, "pilot-runbook");
  await shots(page, "pilot-runbook", { dark: true });
  for (const id of ["recovery", "phases"]) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    await shots(page, `pilot-runbook-${id}`, { fullPage: false });
  }
});

test("in demo mode the Command Center shows the demo organization read-only", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto("/?preview=1");
  await expect(page.getByText("You are exploring the demo organization")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("team-members")).toBeVisible();
  await expect(page.getByTestId("pilot-progress")).toHaveText(/^\d+ of \d+ steps done$/);
  await accessible(page);
  await shots(page, "command-center-demo");
  await context.close();
});
