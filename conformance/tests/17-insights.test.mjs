// Compliance Intelligence (issue 17) through the unmodified supabase-js
// client: compliance_insights after real rounds (one approved at round 1,
// one rejected), for every product and for one, any member may read it;
// bad dates are 400 naming the field, another organisation's product 404.
import assert from 'node:assert/strict';
import { perBackend, rand } from '../lib/server.mjs';
import { invited, ok, onboard } from '../lib/org.mjs';

const ISI = 'IMPORTANT SAFETY INFORMATION: Zelvora can cause liver problems.';

perBackend((ctx) => {
  const { it } = ctx;

  it('first pass, rejections and workload after real rounds; filters and refusals', async () => {
    const admin = await onboard(ctx.srv, `Insights ${rand(4)}`);
    const marketer = await invited(ctx.srv, admin, 'marketer', 'Mara Marketer');
    const reviewers = {
      reviewer_medical: await invited(ctx.srv, admin, 'reviewer_medical', 'Dr. Mei Medical'),
      reviewer_legal: await invited(ctx.srv, admin, 'reviewer_legal', 'Lou Legal'),
      reviewer_regulatory: await invited(ctx.srv, admin, 'reviewer_regulatory', 'Rae Regulatory'),
    };
    const viewer = await invited(ctx.srv, admin, 'viewer', 'Vic Viewer');
    const product = ok(await admin.client.from('products').insert({ brand_name: 'Zelvora', isi_text: ISI }).select().single());
    const other = ok(await admin.client.from('products').insert({ brand_name: 'Corvanta', isi_text: ISI }).select().single());
    const html = `<p>Zelvora lowers LDL-C.</p><p>${ISI}</p>`;
    const submit = async (title, productId) => {
      const asset = ok(await marketer.client.rpc('create_asset', { title, type: 'email', audience: 'hcp', channel: 'Email', market: 'US', product_id: productId, content_html: html }));
      const round = ok(await marketer.client.rpc('submit_for_review', { asset_id: asset.id }));
      return Object.fromEntries(round.steps.map((s) => [s.role, s.id]));
    };

    const approved = await submit('Approved at once', product.id);
    for (const role of Object.keys(reviewers)) ok(await reviewers[role].client.rpc('decide_step', { step_id: approved[role], decision: 'approved', comment: 'Fine', password: reviewers[role].password }));
    const rejected = await submit('Rejected', other.id);
    ok(await reviewers.reviewer_legal.client.rpc('decide_step', { step_id: rejected.reviewer_legal, decision: 'rejected', comment: 'Comparative claim without a study.', password: reviewers.reviewer_legal.password }));

    const all = ok(await viewer.client.rpc('compliance_insights', {}));
    assert.deepEqual(all.first_pass, { approved: 1, first_pass: 1, rate: 1 });
    assert.equal(all.cycle_time.approved, 1);
    assert.ok(all.cycle_time.median_hours >= 0);
    assert.deepEqual(all.rounds_per_asset.map((b) => [b.rounds, b.assets]), [[1, 1], [2, 0], [3, 0], [4, 0]]);
    assert.deepEqual(all.reasons.decisions, [{ role: 'reviewer_legal', decision: 'rejected', count: 1 }]);
    assert.equal(all.reasons.recent_rejections[0].comment, 'Comparative claim without a study.');
    assert.deepEqual(all.workload.map((w) => [w.role, w.completed_steps, w.open_steps]), [
      ['reviewer_medical', 1, 0], ['reviewer_legal', 2, 0], ['reviewer_regulatory', 1, 0]]);
    assert.equal(all.overdue_total, 0);
    assert.deepEqual(all.expiring.map((e) => e.days), [30, 60, 90]);
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(all.to, today);
    assert.equal(all.product_id, null);

    // One product: the rejection is the other product's.
    const one = ok(await admin.client.rpc('compliance_insights', { product_id: product.id, from: '2022-01-01', to: today }));
    assert.equal(one.product_id, product.id);
    assert.equal(one.from, '2022-01-01');
    assert.deepEqual(one.reasons.decisions, []);
    assert.equal(one.first_pass.approved, 1);

    // Refusals: 400 naming the field; another organisation's product is not found.
    let r = await viewer.client.rpc('compliance_insights', { from: '2026-02-30' });
    assert.equal(r.status, 400);
    assert.ok(r.error.fields.from, JSON.stringify(r.error));
    r = await viewer.client.rpc('compliance_insights', { from: '2026-03-01', to: '2026-01-01' });
    assert.equal(r.status, 400);
    assert.ok(r.error.fields.from, JSON.stringify(r.error));
    const elsewhere = await onboard(ctx.srv, `Elsewhere ${rand(4)}`);
    const theirs = ok(await elsewhere.client.from('products').insert({ brand_name: 'Theirs', isi_text: ISI }).select().single());
    r = await viewer.client.rpc('compliance_insights', { product_id: theirs.id });
    assert.equal(r.status, 404);
    assert.ok(r.error.fields.product_id, JSON.stringify(r.error));
    // The other organisation sees none of this organisation's rounds.
    const theirView = ok(await elsewhere.client.rpc('compliance_insights', {}));
    assert.equal(theirView.first_pass.approved, 0);
  });
});
