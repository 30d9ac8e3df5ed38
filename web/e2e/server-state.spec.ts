import { accessToken, insertAs, rpcAs } from "./support/content-api";
import { expect, signInFast, test } from "./support/fixtures";

// One owner per resource's server state: a change made on one screen
// refreshes every other screen that shows the same thing, without waiting
// for the cache to go stale (five minutes) or a reload.

test("a product renamed in Settings shows under its new name on the asset's page at once", async ({ arrange, page, server }) => {
  const { admin } = await arrange.workspace("Northwind Therapeutics");
  const token = await accessToken(server, admin);
  const product = await insertAs<{ id: string }>(server, token, "products", { brand_name: "Zephyra", established_name: "zephyrimab" });
  const asset = await rpcAs<{ id: string }>(server, token, "create_asset", {
    title: "Zephyra launch email",
    type: "email",
    audience: "hcp",
    channel: "Email",
    market: "US",
    product_id: product.id,
    content_html: "<p>Zephyra clears skin.</p>",
    content_json: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Zephyra clears skin." }] }] },
  });

  await signInFast(page, server, admin);
  await page.goto(`/assets/${asset.id}`);
  const header = page.locator("main header");
  await expect(header.getByText("Zephyra", { exact: true })).toBeVisible();

  // To Settings and back inside the app: the query cache stays.
  await page.getByTestId("sidebar").getByRole("link", { name: "Settings" }).click();
  await page.getByRole("button", { name: "Edit Zephyra" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Zephyra" });
  await dialog.getByLabel("Brand name").fill("Zephyra XR");
  await dialog.getByRole("button", { name: "Save product" }).click();
  await expect(dialog).toBeHidden();

  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/assets/${asset.id}$`));
  await expect(header.getByText("Zephyra XR", { exact: true })).toBeVisible();
  await expect(header.getByText("Zephyra", { exact: true })).toHaveCount(0);
});

test("the product form says what the server would, beside the field, before sending", async ({ arrange, page, server }) => {
  const { admin } = await arrange.workspace("Northwind Therapeutics");
  await signInFast(page, server, admin);
  await page.goto("/settings");
  await page.getByRole("button", { name: "Add product" }).click();
  const dialog = page.getByRole("dialog", { name: "Add product" });
  await dialog.getByLabel("Brand name").fill("   ");
  await dialog.getByRole("button", { name: "Add product" }).click();
  await expect(dialog.getByLabel("Brand name")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByRole("alert")).toHaveText("The brand name is required.");
  await expect(dialog.getByLabel("Brand name")).toBeFocused();

  // A duplicate brand name is the server's to refuse: its words are shown in the dialog.
  const token = await accessToken(server, admin);
  await insertAs(server, token, "products", { brand_name: "Zephyra" });
  await dialog.getByLabel("Brand name").fill("Zephyra");
  await dialog.getByRole("button", { name: "Add product" }).click();
  await expect(dialog.getByRole("alert")).toContainText("Zephyra");
  await expect(dialog).toBeVisible();
});

test("the server's per-field refusal of a claim is shown beside each field it names", async ({ arrange, page, server }) => {
  const { orgId } = await arrange.workspace("Northwind Therapeutics");
  const marketer = await arrange.member({ role: "marketer", orgId, fullName: "Mara Marketer" });
  await signInFast(page, server, marketer);
  // The data API's refusal with per-field messages (`fields` beside code, message, details and hint).
  await page.route("**/rest/v1/claims?*", async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    await route.fulfill({
      status: 400,
      contentType: "application/json",
      body: JSON.stringify({
        code: "23514",
        message: "The claim text must be 1 to 2000 characters long.",
        details: 'new row for relation "claims" violates check constraint "claims_text_check"',
        hint: null,
        fields: { text: "The claim text must be 1 to 2000 characters long.", expires_at: "The expiry date must be a date written YYYY-MM-DD." },
      }),
    });
  });
  await page.goto("/content?tab=claims&new=claim");
  const dialog = page.getByRole("dialog", { name: "New claim" });
  await dialog.getByLabel("Claim", { exact: true }).fill("Clear skin at week 16.");
  await dialog.getByRole("button", { name: "Create claim" }).click();

  const text = dialog.getByLabel("Claim", { exact: true });
  await expect(text).toHaveAttribute("aria-invalid", "true");
  await expect(text).toHaveAccessibleDescription("The claim text must be 1 to 2000 characters long.");
  await expect(dialog.getByLabel("Expires")).toHaveAccessibleDescription("The expiry date must be a date written YYYY-MM-DD.");
  await expect(text).toBeFocused();
  // Each message once, at its field.
  await expect(dialog.getByRole("alert")).toHaveCount(2);
  await expect(dialog).toHaveAccessibleName("New claim");
});
