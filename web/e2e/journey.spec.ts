import { expect, PASSWORD, test, uniqueEmail } from "./support/fixtures";
import { linkIn, startServer } from "./support/server";

// The "done when": on a fresh instance a newcomer goes from the
// Initial Setup card through onboarding to a working workspace, and an
// invited colleague joins it — one continuous story, through the screens only.

test("from Initial Setup through onboarding to a workspace with an invited colleague", async ({ browser }) => {
  test.setTimeout(240_000);
  const server = await startServer();
  try {
    const founder = await browser.newContext({ baseURL: server.url });
    const page = await founder.newPage();

    // 1. The fresh instance offers Initial Setup on the sign-in screen.
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { name: "Initial Setup" })).toBeVisible();
    const founderEmail = uniqueEmail("founder");
    await page.getByLabel("Administrator e-mail").fill(founderEmail);
    await page.getByLabel("Administrator password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create Administrator" }).click();

    // 2. The new administrator has no organization yet: the onboarding wizard.
    await expect(page.getByRole("heading", { level: 1, name: "Create Your Organization" })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole("progressbar", { name: "Setup progress" })).toHaveAttribute("aria-valuenow", "50");
    await page.getByLabel("Organization name").fill("Meridian Biosciences");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Invite Your Team" })).toBeVisible();
    await expect(page.getByRole("progressbar", { name: "Setup progress" })).toHaveAttribute("aria-valuenow", "100");
    const colleague = uniqueEmail("medical");
    await page.getByLabel("Email for invite 1").fill(colleague);
    await page.getByLabel("Role for invite 1").selectOption("reviewer");
    await page.getByLabel("Review area for invite 1").selectOption("reviewer_medical");
    await page.getByRole("button", { name: "Complete Setup" }).click();
    const link = await page.getByRole("textbox", { name: `Sign-up link for ${colleague}` }).inputValue();
    expect(link).toContain("/signup?invite=");
    await page.getByRole("button", { name: "Go to Command Center" }).click();

    // 3. A working workspace: the shell, the Command Center, the pending invitation.
    await expect(page.getByTestId("sidebar")).toBeVisible();
    await expect(page.getByText("Here is where Meridian Biosciences stands today.")).toBeVisible();
    await page.goto("/users");
    await expect(page.getByText(colleague)).toBeVisible();

    // 4. The colleague opens the link, creates an account, confirms it by e-mail and joins.
    const second = await browser.newContext({ baseURL: server.url });
    const invitee = await second.newPage();
    await invitee.goto(new URL(link).pathname + new URL(link).search);
    await expect(invitee.getByTestId("invite-role")).toHaveText("Medical reviewer");
    await invitee.getByLabel("First name").fill("Mina");
    await invitee.getByLabel("Last name").fill("Medic");
    await invitee.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await invitee.getByRole("button", { name: "Join Organization" }).click();
    await expect(invitee.getByRole("heading", { name: "Check your email" }).or(invitee.getByTestId("sidebar"))).toBeVisible();
    if (await invitee.getByRole("heading", { name: "Check your email" }).isVisible()) {
      await invitee.goto(linkIn(await server.waitMail(colleague)));
    }
    await expect(invitee.getByTestId("sidebar")).toBeVisible({ timeout: 20_000 });
    await expect(invitee.getByText("Here is where Meridian Biosciences stands today.")).toBeVisible();

    // 5. The administrator sees the colleague as a member with the invited role.
    await page.reload();
    const row = page.getByRole("row").filter({ hasText: colleague });
    await expect(row).toContainText("Medical reviewer");
    await expect(row).toContainText("Mina Medic");
    await founder.close();
    await second.close();
  } finally {
    await server.stop();
  }
});
