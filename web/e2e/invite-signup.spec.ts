import { expect, PASSWORD, signInFast, test, uniqueEmail } from "./support/fixtures";

// An invitee signs up through the invitation link and is in at once: the
// inviting administrator vouched for the address, so no e-mail has to be
// confirmed (an instance without SMTP stays usable).

test("an invited marketer signs up through the link and lands in the app, signed in and joined, without confirming an e-mail", async ({
  page,
  browser,
  server,
  arrange,
}) => {
  test.setTimeout(90_000);
  const { admin, orgId } = await arrange.workspace("Northwind Therapeutics");
  await signInFast(page, server, admin);
  await page.goto("/users");
  const email = uniqueEmail("mara");
  await page.getByRole("button", { name: "Invite people" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("E-mail address").fill(email);
  await dialog.getByLabel("Role").selectOption("marketer");
  await dialog.getByRole("button", { name: "Create invitation" }).click();
  const link = await dialog.getByTestId("invite-link").inputValue();

  const context = await browser.newContext({ baseURL: server.url });
  const invitee = await context.newPage();
  await invitee.goto(link.replace(server.url, ""));
  await expect(invitee.getByLabel("Email")).toHaveValue(email);
  await invitee.getByLabel("First name").fill("Mara");
  await invitee.getByLabel("Last name").fill("Marketer");
  await invitee.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await invitee.getByRole("button", { name: "Join Organization" }).click();
  await expect(invitee.getByTestId("sidebar")).toBeVisible({ timeout: 15_000 });
  await expect(invitee.getByRole("heading", { level: 1, name: /, Mara$/ })).toBeVisible();
  await expect(invitee.getByRole("heading", { name: "Check your email" })).toHaveCount(0);
  await context.close();

  const users = await server.service(`/auth/v1/admin/users?per_page=1000`);
  const { users: list } = (await users.json()) as { users: { id: string; email: string; email_confirmed_at: string | null }[] };
  const mara = list.find((u) => u.email === email);
  expect(mara?.email_confirmed_at).toBeTruthy();
  const res = await server.service(`/rest/v1/profiles_v2?id=eq.${mara?.id ?? ""}&select=org_id,role`);
  expect(await res.json()).toEqual([{ org_id: orgId, role: "marketer" }]);
});
