import { mkdirSync } from "node:fs";
import { accessToken, createFileAsset, rpcAs } from "./support/content-api";
import { expect, type Member, signInFast, test } from "./support/fixtures";
import { samplePdf } from "./support/sample-pdf";

// Search covers the text of every version (issue 14): a word only in
// version 1 of a two-version asset is found, the result says so and opens
// version 1; a PDF's running header and footer never fill its snippets;
// the results show no server timing.

const SHOTS = "/tmp/shots-search";
mkdirSync(SHOTS, { recursive: true });

let marketer: Member;

test.beforeEach(async ({ arrange }) => {
  const { orgId } = await arrange.workspace("Northwind Therapeutics");
  marketer = await arrange.member({ role: "marketer", orgId, fullName: "Mara Marketer" });
});

/** Any timing a result list could show ("2.44 ms", "12ms"). */
const TIMING = /\d\s*ms\b/;

test("a word only in version 1 of a two-version asset is found, marked as v1, and opens v1", async ({ page, server }) => {
  const token = await accessToken(server, marketer);
  const asset = await rpcAs<{ id: string }>(server, token, "create_asset", {
    title: "Quarterly HCP email",
    type: "email",
    audience: "hcp",
    channel: "Rep-triggered email",
    market: "US",
    content_html: "<p>Quelzarin tablets lower LDL cholesterol in adults.</p>",
    change_note: "First draft",
  });
  await rpcAs(server, token, "add_asset_version", {
    asset_id: asset.id,
    content_html: "<p>Cardiomax tablets lower LDL cholesterol in adults.</p>",
    change_note: "Brand name changed",
  });

  await signInFast(page, server, marketer);
  await page.goto("/content");
  await page.getByRole("searchbox", { name: "Search assets" }).fill("quelzarin");
  await expect(page).toHaveURL(/q=quelzarin/);
  const results = page.getByRole("list", { name: "Search results" });
  const result = results.getByRole("listitem");
  await expect(result).toHaveCount(1);
  await expect(result).toContainText("Quarterly HCP email");
  await expect(result).toContainText("Found in v1, an earlier version");
  await expect(result.locator("mark")).toHaveText(/quelzarin/i);
  await expect(page.getByText("1 match, best first")).toBeVisible();
  await expect(page.getByRole("main")).not.toContainText(TIMING);
  await page.screenshot({ path: `${SHOTS}/older-version-1440.png` });

  // The current version's words are found as current.
  await page.getByRole("searchbox", { name: "Search assets" }).fill("cardiomax");
  await expect(page).toHaveURL(/q=cardiomax/);
  await expect(result).toContainText("Quarterly HCP email");
  await expect(result).not.toContainText("earlier version");

  await page.getByRole("searchbox", { name: "Search assets" }).fill("quelzarin");
  await expect(result).toContainText("Found in v1");
  await result.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/assets/${asset.id}\\?v=1$`));
  await expect(page.getByLabel("Version", { exact: true })).toHaveValue("1");
  await expect(page.getByText("Quelzarin tablets lower LDL cholesterol in adults.")).toBeVisible();
});

test("a PDF's running header, footer and page numbers stay out of its search snippets", async ({ page, server }) => {
  const token = await accessToken(server, marketer);
  const header = "Northwind Confidential Cardiomax Prescribing Information";
  const filler = "The tablets are swallowed whole with water at the same time each day, with or without food, and are kept dry.";
  const pdf = samplePdf(
    [
      [header, "Indications and usage", `Cardiomax lowers LDL cholesterol in adults. ${filler}`],
      [header, `Brevonil dosing starts at one tablet daily. ${filler}`, filler],
      [header, "Warnings", `Myalgia was reported rarely. ${filler}`, filler],
    ],
    { title: "Cardiomax PI" },
  );
  await createFileAsset(server, token, { title: "Cardiomax prescribing information", bytes: pdf, fileName: "cardiomax-pi.pdf" });

  await signInFast(page, server, marketer);
  await page.goto("/content?q=brevonil");
  const result = page.getByRole("list", { name: "Search results" }).getByRole("listitem");
  await expect(result).toHaveCount(1);
  await expect(result).toContainText("Cardiomax prescribing information");
  await expect(result.locator("mark")).toHaveText(/brevonil/i);
  // Neither the running header nor the footer ("Cardiomax PI - page 1 of 3").
  await expect(result).not.toContainText("Confidential");
  await expect(result).not.toContainText("Prescribing Information");
  await expect(result).not.toContainText(/page \d of 3/i);
  await expect(result).not.toContainText(TIMING);
  await page.screenshot({ path: `${SHOTS}/pdf-snippet-1440.png` });

  // The header's words still find the document.
  await page.getByRole("searchbox", { name: "Search assets" }).fill("northwind confidential");
  await expect(page).toHaveURL(/q=northwind/);
  await expect(result).toContainText("Cardiomax prescribing information");
});
