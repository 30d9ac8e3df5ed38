import { accessToken, createFileAsset, rpcAs } from "../e2e/support/content-api";
import { signInFast, test } from "../e2e/support/fixtures";
import { fillerPages, samplePdf } from "../e2e/support/sample-pdf";

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }

test("profile", async ({ arrange, browser, server }) => {
  const { orgId } = await arrange.workspace();
  const reviewer = await arrange.member({ role: "reviewer_medical", orgId, fullName: "Dr. Mei Medical" });
  const marketer = await arrange.member({ role: "marketer", orgId });
  const mToken = await accessToken(server, marketer);
  const asset = await createFileAsset(server, mToken, { title: "Two hundred comments", bytes: samplePdf(fillerPages(100), { title: "Bench" }), fileName: "bench.pdf" });
  const token = await accessToken(server, reviewer);
  for (let p = 1; p <= 100; p++) {
    await rpcAs(server, token, "create_annotation", { version_id: asset.current_version_id, category: "claim_needs_reference", body: `Line 3 of page ${p}.`, target: { type: "text", exact: `Page ${p}, line 3:` } });
    await rpcAs(server, token, "create_annotation", { version_id: asset.current_version_id, category: "regulatory", body: `Box ${p}.`, target: { type: "region", page: p, x: 0.1, y: 0.5, width: 0.6, height: 0.1 } });
  }
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signInFast(page, server, reviewer);
  await page.goto("/");
  const cdp = await context.newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await cdp.send("Profiler.start");
  await page.goto(`/assets/${asset.id}`);
  await page.getByTestId("thread").nth(199).waitFor({ state: "attached", timeout: 60_000 });
  await page.waitForTimeout(500);
  const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: { nodes: Node[]; samples: number[]; timeDeltas: number[] } };
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((id, i) => {
    const n = byId.get(id);
    if (!n) return;
    const key = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop() ?? ""}:${n.callFrame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log("total ms", Math.round(total));
  for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(Math.round(v), k);
  await context.close();
});
