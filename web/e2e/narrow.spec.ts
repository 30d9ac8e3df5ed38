import { mkdirSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { ROUTE_PATHS, type RoutePath } from "../src/app/route-paths";
import { accessToken, createFileAsset, insertAs, rpcAs } from "./support/content-api";
import { Arrange, expect as baseExpect, type Member, PASSWORD, signInFast, test } from "./support/fixtures";
import { samplePdf } from "./support/sample-pdf";
import type { Server } from "./support/server";

// No screen scrolls sideways on a 390 px phone, whatever the data: every
// routed screen (ROUTE_PATHS, which a unit test checks against the router)
// is visited at 390 × 844 with names, e-mail addresses, titles, job codes,
// claims, references, modules, invitations and audit entries far longer
// than usual — many of them single unbroken words, the worst case for
// wrapping — and neither the document nor any open dialog may be wider than
// the viewport. A table may scroll inside its own container; the page may not.

const SHOTS = "/tmp/shots-narrow";
mkdirSync(SHOTS, { recursive: true });

// The shared test machine is often busy: allow for slow screens.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 120_000 });

const PHONE = { width: 390, height: 844 };

/** `word` repeated (no spaces) up to exactly `n` characters: a token a browser cannot break at a space or hyphen. */
function token(n: number, word = "Zephyrimabtuzumab"): string {
  return word.repeat(Math.ceil(n / word.length)).slice(0, n);
}

/** An e-mail address with a 60-character local part and a long domain, none of it breakable. */
function longEmail(tag: string): string {
  return `${tag}.${token(59 - tag.length, "konstantinopoulou")}@pharmaceuticalregulatoryaffairsdepartment.example.com`.toLowerCase();
}

const ORG_NAME = `${token(70, "Northwindtherapeutics")} International Pharmaceutical Holdings`;
const ADMIN_NAME = `${token(46, "Alexandrina")} ${token(62, "Wolfeschlegelsteinhausen")}`;
const ADMIN_EMAIL = longEmail("admin");
const MARKETER_NAME = `${token(40, "Maximiliana")} ${token(60, "Papadopoulou")}`;
const REVIEWER_NAME = `Dr. ${token(80, "Bartholomew")}`;
const PRODUCT = `${token(70, "Zephyrimab")} extended-release ${token(30, "Tuzumab")}`;
const JOB_CODE = token(50, "FBUSZEPHYRIMAB2026CONGRESS").toUpperCase();
const ASSET_TITLE = `${token(90)} congress detail aid ${token(80, "Dermatology")}`;
const FILE_NAME = `${token(200, "zephyrimab_congress_detail_aid_")}.pdf`;
const MODULE_TITLE = `${token(80, "ImportantSafetyInformation")} (short)`;
const CLAIM_TEXT = `${token(120, "Clearskinatweeksixteen")} for most adults with moderate to severe plaque psoriasis.`;
const REFERENCE_TITLE = `${token(120, "ZEPHYR1RandomisedTrial")}: a randomised, double-blind trial of zephyrimab`;
const CITATION = `Doe J, et al. Lancet. 2025;401:100-110. https://doi.org/10.1016/S0140-6736(25)${token(80, "0012345678")}`;
const PASSAGE = `PASI75${token(70, "reachedbyseventyonepercent")}`;
const AUDIT_ACTION = token(80, "zephyrimab_congress_material_reclassified_");
const NOT_FOUND = `/${token(120, "no-such-screen-")}`;

interface World {
  admin: Member;
  /** An admin who has not created an organisation yet (the onboarding wizard). */
  newAdmin: Member;
  /** A member of no organisation (the screen explaining how to join). */
  stray: Member;
  assetId: string;
  pdfAssetId: string;
  referenceId: string;
  auditEntryId: number;
  longAuditEntryId: number;
  inviteToken: string;
}

let world: World;

/** A data API call as a member; returns the JSON, failing on an error. */
async function restAs<T>(server: Server, token: string, path: string, init: RequestInit): Promise<T> {
  const res = await fetch(`${server.url}/rest/v1/${path}`, {
    ...init,
    headers: {
      apikey: server.anonKey,
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
      Prefer: "return=representation",
      ...(init.headers as Record<string, string> | undefined),
    },
  });
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A paragraph of the editor's JSON and its HTML. */
function authored(text: string, moduleHtml = ""): { content_html: string; content_json: Record<string, unknown> } {
  return {
    content_html: `<p>${text}</p>${moduleHtml}`,
    content_json: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] },
  };
}

/**
 * One organisation full of long data, arranged through the API as the app's
 * own calls would make it: members, invitations, a product, modules, claims
 * with a linked reference passage, a composed asset with two versions, an
 * uploaded PDF asset, and audit entries.
 */
async function seed(server: Server): Promise<World> {
  const arrange = new Arrange(server);
  const orgId = await arrange.org(ORG_NAME);
  const admin = await arrange.member({ role: "admin", orgId, email: ADMIN_EMAIL, fullName: ADMIN_NAME });
  const marketer = await arrange.member({ role: "marketer", orgId, email: longEmail("marketer"), fullName: MARKETER_NAME });
  await arrange.member({ role: "reviewer_medical", orgId, email: longEmail("medical"), fullName: REVIEWER_NAME });
  await arrange.member({ role: "viewer", orgId, email: longEmail("viewer"), fullName: "" });
  const newAdmin = await arrange.member({ role: "admin", orgId: null, email: longEmail("newadmin"), fullName: ADMIN_NAME });
  const stray = await arrange.member({ role: "marketer", orgId: null, email: longEmail("stray"), fullName: MARKETER_NAME });
  const adminToken = await accessToken(server, admin);
  const marketerToken = await accessToken(server, marketer);

  let inviteToken = "";
  for (const [tag, role] of [
    ["invitee", "marketer"],
    ["legal", "reviewer_legal"],
    ["regulatory", "reviewer_regulatory"],
  ] as const) {
    const invite = await rpcAs<{ token: string }>(server, adminToken, "create_invite", { email: longEmail(tag), role });
    inviteToken ||= invite.token;
  }

  const product = await insertAs<{ id: string }>(server, adminToken, "products", {
    brand_name: PRODUCT.slice(0, 120),
    established_name: token(200, "zephyrimabtuzumabvedotin"),
    indications: `${token(300, "Moderatetosevereplaquepsoriasis")} in adults.`,
    isi_text: `${token(400, "Seriousinfectionsmayoccur")}.`,
    markets: ["US", token(20, "NORTHAMERICA").toUpperCase()],
  });

  const mod = await insertAs<{ id: string }>(server, adminToken, "modules", {
    kind: "isi",
    title: MODULE_TITLE,
    body: `${token(300, "Donotuseinpatientswithseverehepaticimpairment")}.`,
    status: "approved",
    product_id: product.id,
  });
  await insertAs(server, marketerToken, "modules", { kind: "copy", title: token(200, "Headline"), body: token(500, "Body") });

  // A reference with its PDF, and a claim quoting a passage of it.
  const ref = await insertAs<{ id: string }>(server, marketerToken, "references", { title: REFERENCE_TITLE, citation: CITATION, kind: "clinical_study" });
  const pdf = samplePdf([[token(60, "ZEPHYR1")], ["Results", PASSAGE]], { title: "ZEPHYR-1" });
  const prepared = await rpcAs<{ path: string; signed_url: string }>(server, marketerToken, "prepare_upload", {
    bucket: "reference-files",
    file_name: FILE_NAME,
    content_type: "application/pdf",
    size: pdf.length,
  });
  const put = await fetch(`${server.url}${prepared.signed_url}`, {
    method: "PUT",
    headers: { apikey: server.anonKey, Authorization: `Bearer ${marketerToken}`, "x-upsert": "false", "content-type": "application/pdf" },
    body: new Uint8Array(pdf),
  });
  if (!put.ok) throw new Error(`upload reference: ${put.status} ${await put.text()}`);
  await rpcAs(server, marketerToken, "attach_reference_file", { reference_id: ref.id, file_path: prepared.path, file_name: FILE_NAME });
  const claim = await insertAs<{ id: string }>(server, adminToken, "claims", {
    text: CLAIM_TEXT,
    variants: [token(200, "Clearerskin")],
    status: "approved",
    expires_at: "2026-12-01",
    product_id: product.id,
  });
  // An approved claim's passages are an administrator's to change.
  await insertAs(server, adminToken, "claim_references", { claim_id: claim.id, reference_id: ref.id, page: 2, passage: PASSAGE });

  // A composed asset with two versions (and the module in the second), and an uploaded one.
  const moduleHtml = `<p><span data-module-id="${mod.id}" data-module-kind="isi" data-module-title="${MODULE_TITLE}">${token(300, "Donotuseinpatientswithseverehepaticimpairment")}.</span></p>`;
  const asset = await rpcAs<{ id: string }>(server, marketerToken, "create_asset", {
    title: ASSET_TITLE,
    type: "detail_aid",
    audience: "hcp",
    channel: token(100, "Repagentriggeredemail"),
    market: token(20, "NORTHAMERICA").toUpperCase(),
    job_code: JOB_CODE,
    product_id: product.id,
    expires_at: "2026-12-10",
    change_note: token(300, "Firstdraftforcongress"),
    ...authored(`${token(400, "Zephyrimablowersnightlysymptoms")} for most adults.`),
  });
  await rpcAs(server, marketerToken, "add_asset_version", {
    asset_id: asset.id,
    change_note: token(900, "Rewrittenperthe2026label"),
    ...authored(`${token(420, "Zephyrimabreducesnightlysymptoms")} for many adults.`, moduleHtml),
  });
  const pdfAsset = await createFileAsset(server, marketerToken, {
    title: token(200, "Leavebehind"),
    bytes: samplePdf([[token(80, "Zephyrimab")], ["Dosing"]], { title: "Leave-behind" }),
    fileName: FILE_NAME,
  });

  // Audit entries with long actions, object ids and values (a member may add entries of its own).
  await restAs(server, adminToken, "audit_logs_v2", {
    method: "POST",
    body: JSON.stringify({
      action: AUDIT_ACTION,
      object_type: token(40, "congressmaterial"),
      object_id: JOB_CODE,
      meta: { note: token(400, "Reclassifiedafterlabelupdate"), job_code: JOB_CODE, recipient: longEmail("recipient") },
    }),
  });
  const [longEntry] = await restAs<{ id: number }[]>(server, adminToken, `audit_logs_v2?action=eq.${AUDIT_ACTION}&select=id`, { method: "GET" });
  if (!longEntry) throw new Error("no audit entry with the long action");
  await restAs(server, adminToken, `orgs?id=eq.${orgId}`, { method: "PATCH", body: JSON.stringify({ name: `${ORG_NAME} Worldwide` }) });
  const [entry] = await restAs<{ id: number }[]>(server, adminToken, `audit_logs_v2?action=eq.orgs.update&select=id&order=id.desc&limit=1`, {
    method: "GET",
  });
  if (!entry) throw new Error("no orgs.update audit entry");

  // A pending change of e-mail address, shown on the profile.
  const change = await fetch(`${server.url}/auth/v1/user`, {
    method: "PUT",
    headers: { apikey: server.anonKey, Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ email: longEmail("newaddress") }),
  });
  if (!change.ok) throw new Error(`change e-mail: ${change.status} ${await change.text()}`);

  return { admin, newAdmin, stray, assetId: asset.id, pdfAssetId: pdfAsset.id, referenceId: ref.id, auditEntryId: entry.id, longAuditEntryId: longEntry.id, inviteToken };
}

interface Width {
  scroll: number;
  client: number;
}

interface Overflow {
  document: Width;
  body: Width;
  /** Open dialogs and sheets wider than the viewport or scrolling sideways inside. */
  dialogs: string[];
  /** The outermost elements reaching past the right edge, to say what to fix. */
  culprits: string[];
}

/** How wide the page is against the viewport, and what sticks out. */
async function measure(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    const html = document.documentElement;
    const view = html.clientWidth;
    const describe = (el: Element) => {
      const r = el.getBoundingClientRect();
      const cls = typeof el.className === "string" ? el.className.slice(0, 120) : "";
      const text = el.textContent.trim().slice(0, 60);
      return `<${el.tagName.toLowerCase()} class="${cls}"> ${Math.round(r.left)}..${Math.round(r.right)} "${text}"`;
    };
    // Elements inside a container that clips or scrolls sideways do not widen the page.
    const clipped = (node: Node, top: Element) => {
      for (let p = node.parentElement; p && p !== top; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== "visible") return true;
      }
      return false;
    };
    // The texts under `root` reaching past `right` (unless clipped on the way),
    // with the classes of their element and the two above it: what to fix.
    const textsBeyond = (root: Element, right: number) => {
      const found: string[] = [];
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        const text = node.textContent?.trim() ?? "";
        if (!el || !text || clipped(node, root)) continue;
        range.selectNodeContents(node);
        const r = range.getBoundingClientRect();
        if (r.width === 0 || r.right <= right + 0.5) continue;
        const chain = [el, el.parentElement, el.parentElement?.parentElement]
          .map((e) => (e ? `<${e.tagName.toLowerCase()} class="${typeof e.className === "string" ? e.className.slice(0, 90) : ""}">` : ""))
          .join(" < ");
        found.push(`${Math.round(r.left)}..${Math.round(r.right)} "${text.slice(0, 50)}" in ${chain}`);
      }
      // A long word is what cannot wrap: name those first.
      const unbreakable = (line: string) => /"[^"]*\S{30}/.test(line);
      return [...found.filter(unbreakable), ...found.filter((l) => !unbreakable(l))].slice(0, 8);
    };
    const dialogs: string[] = [];
    for (const el of document.querySelectorAll('[role="dialog"], [role="alertdialog"]')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.left < -0.5 || r.right > view + 0.5 || el.scrollWidth > el.clientWidth) {
        const inner = textsBeyond(el, Math.min(r.right, view));
        dialogs.push(`${describe(el)} scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth}:\n  ${inner.join("\n  ")}`);
      }
    }
    return {
      document: { scroll: html.scrollWidth, client: html.clientWidth },
      body: { scroll: document.body.scrollWidth, client: document.body.clientWidth },
      dialogs,
      culprits: textsBeyond(document.body, view),
    };
  });
}

/** Fails when the page, or an open dialog, is wider than the viewport. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  // Let late layout (fonts, images, a query's second render) settle.
  await page.waitForTimeout(300);
  const o = await measure(page);
  const detail = `${page.url()}\n${o.culprits.join("\n")}\n${o.dialogs.join("\n")}`;
  expect(o.document.scroll, `document scrolls sideways: ${detail}`).toBeLessThanOrEqual(o.document.client);
  expect(o.body.scroll, `body scrolls sideways: ${detail}`).toBeLessThanOrEqual(o.body.client);
  expect(o.dialogs, `dialog scrolls sideways: ${detail}`).toEqual([]);
}

/** Waits until the screen has its data: no skeletons, no spinners. */
async function settled(page: Page): Promise<void> {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: /^(Loading|Checking)/ })).toHaveCount(0);
}

type Who = "admin" | "signed-out" | "new-admin" | "stray";

interface Visit {
  /** What the test's name says. */
  name: string;
  who: Who;
  url: () => string;
  /** What shows once the screen is ready (its long data, where it has any). */
  ready: (page: Page) => Locator;
  /** Something to do before measuring (open a dialog, a tab). */
  then?: (page: Page) => Promise<void>;
}

/** The Audit Log's entries. */
const auditRows = (page: Page) => page.locator("[data-entry-id]").first();

/** The Hub's assets: a list on a phone, a table on a wider screen. */
const assetList = (page: Page) => page.getByRole("list", { name: "Assets" }).or(page.getByRole("table", { name: "Assets" }));
const h1 = (name: string | RegExp) => (page: Page) => page.getByRole("heading", { level: 1, name });

/**
 * What to visit for each route: one entry per path of ROUTE_PATHS (the
 * type makes a missing one a compile error; a test below checks it at run
 * time), several where a screen has tabs, dialogs or states worth seeing.
 */
const VISITS: Record<RoutePath, Visit[]> = {
  "/insights": [{ name: "Insights (redirect)", who: "admin", url: () => "/insights", ready: h1(/Compliance/) }],
  "/compliance-intelligent": [{ name: "Compliance Intelligent (redirect)", who: "admin", url: () => "/compliance-intelligent", ready: h1(/Compliance/) }],
  "/audit-logs": [{ name: "Audit Logs (redirect)", who: "admin", url: () => "/audit-logs", ready: auditRows }],
  "/audit-trail": [{ name: "Audit Trail (redirect)", who: "admin", url: () => "/audit-trail", ready: auditRows }],
  "/audit": [{ name: "Audit (redirect)", who: "admin", url: () => "/audit", ready: auditRows }],
  "/profile": [{ name: "Profile (redirect)", who: "admin", url: () => "/profile", ready: h1("Profile") }],
  "/demo/*": [{ name: "Demo path (redirect)", who: "admin", url: () => "/demo/anything", ready: (p) => p.getByTestId("recent-activity") }],
  "/safe": [
    { name: "Safe mode, signed in", who: "admin", url: () => "/safe", ready: h1(/Safe/) },
    { name: "Safe mode, signed out", who: "signed-out", url: () => "/safe", ready: h1(/Safe/) },
  ],
  "/gate": [{ name: "Gate, signed out", who: "signed-out", url: () => "/gate", ready: (p) => p.locator("h1, h2").first() }],
  "/login": [{ name: "Sign in, signed out", who: "signed-out", url: () => "/login", ready: (p) => p.getByRole("button", { name: "Sign In" }) }],
  "/signup": [
    { name: "Sign up, signed out", who: "signed-out", url: () => "/signup", ready: (p) => p.getByText("Join Fairbalance") },
    {
      name: "Sign up with an invitation for a long e-mail address, signed out",
      who: "signed-out",
      url: () => `/signup?invite=${world.inviteToken}`,
      ready: (p) => p.getByLabel("Email"),
      then: async (page) => {
        await expect(page.getByLabel("Email")).toHaveValue(longEmail("invitee"));
      },
    },
  ],
  "/forgot-password": [
    {
      name: "Forgot password, after sending a link to a long address, signed out",
      who: "signed-out",
      url: () => "/forgot-password",
      ready: (p) => p.getByLabel("Email"),
      then: async (page) => {
        await page.getByLabel("Email").fill(ADMIN_EMAIL);
        await page.getByRole("button", { name: /Send/ }).click();
        await expect(page.getByText("Check Your Email")).toBeVisible();
      },
    },
  ],
  "/reset-password": [{ name: "Reset password, signed out", who: "signed-out", url: () => "/reset-password", ready: (p) => p.getByText("Set New Password") }],
  "/logout": [{ name: "Signed out", who: "admin", url: () => "/logout", ready: (p) => p.getByRole("heading", { name: "Signed Out" }) }],
  "/health": [
    { name: "Health, signed in", who: "admin", url: () => "/health", ready: h1(/Health|Fairbalance/) },
    { name: "Health, signed out", who: "signed-out", url: () => "/health", ready: h1(/Health|Fairbalance/) },
  ],
  "/": [
    { name: "Command Center", who: "admin", url: () => "/", ready: (p) => p.getByTestId("recent-activity").getByText(ADMIN_NAME).first() },
    {
      name: "Command Center, account menu open",
      who: "admin",
      url: () => "/",
      ready: (p) => p.getByTestId("recent-activity"),
      then: async (page) => {
        await page.getByRole("button", { name: /Account menu/ }).click();
        await expect(page.getByTestId("user-menu-name")).toBeVisible();
      },
    },
    { name: "Onboarding wizard (admin without a workspace)", who: "new-admin", url: () => "/", ready: (p) => p.getByRole("heading").first() },
    { name: "No workspace (member without one)", who: "stray", url: () => "/", ready: (p) => p.getByRole("heading").first() },
  ],
  "/review": [{ name: "Review", who: "admin", url: () => "/review", ready: h1(/Review/) }],
  "/settings": [
    { name: "Settings", who: "admin", url: () => "/settings", ready: (p) => p.getByRole("list", { name: "Products & ISI" }) },
    {
      name: "Settings, editing a product",
      who: "admin",
      url: () => "/settings",
      ready: (p) => p.getByRole("list", { name: "Products & ISI" }),
      then: async (page) => {
        await page.getByRole("button", { name: /^Edit / }).first().click();
        await expect(page.getByRole("dialog")).toBeVisible();
      },
    },
  ],
  "/users": [
    { name: "Users", who: "admin", url: () => "/users", ready: (p) => p.getByText(longEmail("legal")).first() },
    {
      name: "Users, inviting someone",
      who: "admin",
      url: () => "/users",
      ready: (p) => p.getByText(longEmail("legal")).first(),
      then: async (page) => {
        await page.getByRole("button", { name: /Invite/ }).first().click();
        await expect(page.getByRole("dialog")).toBeVisible();
        await page.getByRole("dialog").getByLabel("E-mail address").fill(longEmail("another"));
      },
    },
    {
      name: "Users, changing a member's role",
      who: "admin",
      url: () => "/users",
      ready: (p) => p.getByText(longEmail("legal")).first(),
      then: async (page) => {
        await page.getByRole("button", { name: `Actions for ${MARKETER_NAME}` }).click();
        await page.getByRole("menuitem", { name: /Change role/ }).click();
        await expect(page.getByRole("dialog")).toBeVisible();
      },
    },
  ],
  "/content": [
    { name: "Content Hub, assets", who: "admin", url: () => "/content", ready: assetList },
    {
      name: "Content Hub, filters open",
      who: "admin",
      url: () => "/content",
      ready: (p) => p.getByRole("list", { name: "Assets" }),
      then: async (page) => {
        await page.getByRole("button", { name: "Filters" }).click();
        await expect(page.getByRole("combobox", { name: "Product" })).toBeVisible();
      },
    },
    { name: "Content Hub, modules", who: "admin", url: () => "/content?tab=modules", ready: (p) => p.getByRole("list", { name: "Modules" }) },
    { name: "Content Hub, claims", who: "admin", url: () => "/content?tab=claims", ready: (p) => p.getByRole("list", { name: "Claims" }) },
    { name: "Content Hub, references", who: "admin", url: () => "/content?tab=references", ready: (p) => p.getByRole("list", { name: "References" }) },
    {
      name: "Content Hub, search results",
      who: "admin",
      url: () => "/content?q=adults",
      ready: (p) => p.getByRole("list", { name: "Search results" }),
    },
    {
      name: "Content Hub, a claim with its linked passage",
      who: "admin",
      url: () => "/content?tab=claims",
      ready: (p) => p.getByRole("list", { name: "Claims" }),
      then: async (page) => {
        await page.getByRole("list", { name: "Claims" }).getByRole("button").first().click();
        await expect(page.getByRole("list", { name: "Linked passages" })).toBeVisible();
      },
    },
    {
      name: "Content Hub, a reference",
      who: "admin",
      url: () => "/content?tab=references",
      ready: (p) => p.getByRole("list", { name: "References" }),
      then: async (page) => {
        await page.getByRole("list", { name: "References" }).getByRole("button").first().click();
        await expect(page.getByRole("dialog")).toBeVisible();
      },
    },
    {
      name: "Content Hub, a module",
      who: "admin",
      url: () => "/content?tab=modules",
      ready: (p) => p.getByRole("list", { name: "Modules" }),
      then: async (page) => {
        await page.getByRole("list", { name: "Modules" }).getByRole("button").first().click();
        await expect(page.getByRole("dialog")).toBeVisible();
      },
    },
    {
      name: "Content Hub, new asset",
      who: "admin",
      url: () => "/content?new=1",
      ready: (p) => p.getByRole("dialog", { name: "New asset" }),
    },
  ],
  "/content-hub": [{ name: "Content Hub (second path)", who: "admin", url: () => "/content-hub", ready: assetList }],
  "/content/references/:id": [
    {
      name: "Reference PDF",
      who: "admin",
      url: () => `/content/references/${world.referenceId}`,
      ready: (p) => p.getByRole("img", { name: /^Page 1 of / }),
    },
    {
      name: "Reference PDF at a claim passage",
      who: "admin",
      url: () => `/content/references/${world.referenceId}?page=2&quote=${encodeURIComponent(PASSAGE)}`,
      ready: (p) => p.getByRole("img", { name: /^Page 2 of / }),
    },
  ],
  "/assets/:id": [
    { name: "Asset, written version", who: "admin", url: () => `/assets/${world.assetId}`, ready: (p) => p.getByTestId("authored-content") },
    {
      name: "Asset, version history",
      who: "admin",
      url: () => `/assets/${world.assetId}`,
      ready: (p) => p.getByTestId("authored-content"),
      then: async (page) => {
        await page.getByRole("tab", { name: /Versions/ }).click();
        await expect(page.getByRole("tabpanel")).toBeVisible();
      },
    },
    {
      name: "Asset, modules used",
      who: "admin",
      url: () => `/assets/${world.assetId}`,
      ready: (p) => p.getByTestId("authored-content"),
      then: async (page) => {
        await page.getByRole("tab", { name: "Modules" }).click();
        await expect(page.getByRole("list", { name: "Modules used" })).toBeVisible();
      },
    },
    {
      name: "Asset, editing details",
      who: "admin",
      url: () => `/assets/${world.assetId}`,
      ready: (p) => p.getByTestId("authored-content"),
      then: async (page) => {
        await page.getByRole("button", { name: "Edit details" }).click();
        await expect(page.getByRole("dialog")).toBeVisible();
      },
    },
    {
      name: "Asset, new version by editing the text",
      who: "admin",
      url: () => `/assets/${world.assetId}`,
      ready: (p) => p.getByTestId("authored-content"),
      then: async (page) => {
        await page.getByRole("button", { name: "New version" }).click();
        await page.getByRole("menuitem", { name: "Edit the text" }).click();
        await expect(page.getByRole("textbox", { name: "Version text" })).toContainText("Zephyrimabreduces");
      },
    },
    { name: "Asset, compare view", who: "admin", url: () => `/assets/${world.assetId}?compare=1,2`, ready: (p) => p.getByTestId("compare-view") },
    {
      name: "Asset, uploaded PDF",
      who: "admin",
      url: () => `/assets/${world.pdfAssetId}`,
      ready: (p) => p.locator('[data-page-number="1"][data-rendered="true"] canvas'),
    },
    { name: "Asset not found", who: "admin", url: () => "/assets/00000000-0000-4000-8000-000000000000", ready: h1(/not found/i) },
  ],
  "/guidelines": [{ name: "Guidelines", who: "admin", url: () => "/guidelines", ready: h1(/Guidelines/) }],
  "/compliance-intel": [{ name: "Compliance Intel", who: "admin", url: () => "/compliance-intel", ready: h1(/Compliance/) }],
  "/audit-log": [
    { name: "Audit Log", who: "admin", url: () => "/audit-log", ready: auditRows },
    {
      name: "Audit Log, filters open",
      who: "admin",
      url: () => "/audit-log",
      ready: auditRows,
      then: async (page) => {
        await page.getByRole("button", { name: "Filters" }).click();
        await expect(page.getByLabel("Period")).toBeVisible();
      },
    },
    {
      name: "Audit Log, an entry with long values open",
      who: "admin",
      url: () => `/audit-log?entry=${world.longAuditEntryId}`,
      ready: (p) => p.getByRole("dialog").getByRole("heading", { name: /Audit entry #\d+/ }),
    },
    {
      name: "Audit Log, a change of organisation name open",
      who: "admin",
      url: () => `/audit-log?entry=${world.auditEntryId}`,
      ready: (p) => p.getByRole("dialog").getByRole("heading", { name: /Audit entry #\d+/ }),
    },
  ],
  "/account": [{ name: "Account", who: "admin", url: () => "/account", ready: h1("Account") }],
  "/account/profile": [{ name: "Profile", who: "admin", url: () => "/account/profile", ready: h1("Profile") }],
  "/account/settings": [{ name: "Account settings", who: "admin", url: () => "/account/settings", ready: (p) => p.getByRole("list", { name: "Products & ISI" }) }],
  "/security": [{ name: "Security", who: "admin", url: () => "/security", ready: h1("Security") }],
  "/diagnostics": [{ name: "Diagnostics", who: "admin", url: () => "/diagnostics", ready: (p) => p.getByRole("table", { name: "Outbox, newest first" }) }],
  "/pilot-checklist": [{ name: "Pilot checklist", who: "admin", url: () => "/pilot-checklist", ready: h1(/Pilot/) }],
  "/pilot-runbook": [{ name: "Pilot runbook", who: "admin", url: () => "/pilot-runbook", ready: h1(/Pilot|Runbook/i) }],
  "*": [{ name: "Page not found", who: "admin", url: () => NOT_FOUND, ready: h1("404") }],
};

test("every route of the router has a visit", () => {
  const missing = ROUTE_PATHS.filter((p) => !(VISITS[p] as Visit[] | undefined)?.length);
  expect(missing).toEqual([]);
  expect(Object.keys(VISITS).sort()).toEqual([...ROUTE_PATHS].sort());
});

/** Opens the visit's screen as its member and waits until it has its data. */
async function open(page: Page, server: Server, visit: Visit): Promise<void> {
  const member = { admin: world.admin, "new-admin": world.newAdmin, stray: world.stray, "signed-out": null }[visit.who];
  if (member) await signInFast(page, server, { email: member.email, password: PASSWORD });
  await page.goto(visit.url());
  await expect(visit.ready(page)).toBeVisible();
  await settled(page);
  await visit.then?.(page);
  await settled(page);
}

/** The visit of `path` called `name`. */
function visitNamed(path: RoutePath, name: string): Visit {
  const visit = VISITS[path].find((v) => v.name === name);
  if (!visit) throw new Error(`no visit "${name}" of ${path}`);
  return visit;
}

test.describe("no sideways scrolling at 390 px with long data", () => {
  test.use({ viewport: PHONE });

  test.beforeAll(async ({ server }) => {
    test.setTimeout(120_000);
    world = await seed(server);
  });

  test("screenshots of screens with long data at 390 and 1440 px, neither wider than the window", async ({ browser, server }) => {
    test.setTimeout(300_000);
    const shots: [string, RoutePath, string][] = [
      ["command-center", "/", "Command Center"],
      ["asset", "/assets/:id", "Asset, written version"],
      ["asset-versions", "/assets/:id", "Asset, version history"],
      ["asset-pdf", "/assets/:id", "Asset, uploaded PDF"],
      ["hub-assets", "/content", "Content Hub, assets"],
      ["claim", "/content", "Content Hub, a claim with its linked passage"],
      ["audit-entry", "/audit-log", "Audit Log, an entry with long values open"],
      ["users", "/users", "Users"],
      ["account", "/account", "Account"],
      ["profile", "/account/profile", "Profile"],
      ["settings", "/settings", "Settings"],
      ["diagnostics", "/diagnostics", "Diagnostics"],
    ];
    for (const width of [PHONE.width, 1440]) {
      for (const [file, path, name] of shots) {
        // A page of its own per screen: signing in is once per tab.
        const page = await browser.newPage({ baseURL: server.url, viewport: { width, height: width === PHONE.width ? PHONE.height : 900 } });
        const visit = visitNamed(path, name);
        await open(page, server, visit);
        await expectNoSidewaysScroll(page);
        await page.screenshot({ path: `${SHOTS}/${file}-${width}.png`, fullPage: !visit.then });
        await page.close();
      }
    }
  });

  for (const path of ROUTE_PATHS) {
    for (const visit of VISITS[path]) {
      test(`${path}: ${visit.name}`, async ({ page, server }) => {
        await open(page, server, visit);
        await expectNoSidewaysScroll(page);
      });
    }
  }
});
