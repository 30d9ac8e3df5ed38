// The review workflow (issue 15) through the unmodified supabase-js client:
// a full round — submitted, claimed, changes requested with two change
// requests, version 2, both marked done, resubmitted, confirmed, approved
// with signatures — and the shapes of its refusals: 422 naming every unmet
// condition of the gate, 409 for an illegal move, 403 for a permission;
// assign_step, and where a signature was given.
import assert from 'node:assert/strict';
import { perBackend, rand } from '../lib/server.mjs';
import { invited, ok, onboard } from '../lib/org.mjs';

const ISI = 'Important Safety Information: Zelvora can cause serious infections.';

perBackend((ctx) => {
  const { it } = ctx;

  it('a full round with signatures; 422, 409 and 403 in PostgREST\'s shape', async () => {
    const admin = await onboard(ctx.srv, `Review ${rand(4)}`);
    const marketer = await invited(ctx.srv, admin, 'marketer', 'Mara Marketer');
    const medical = await invited(ctx.srv, admin, 'reviewer_medical', 'Dr. Mei Medical');
    const legal = await invited(ctx.srv, admin, 'reviewer_legal', 'Lou Legal');
    const regulatory = await invited(ctx.srv, admin, 'reviewer_regulatory', 'Rae Regulatory');

    const product = ok(await admin.client.from('products').insert({ brand_name: 'Zelvora', isi_text: ISI }).select().single());
    const html = `<p>Zelvora lowers LDL-C.</p><p>${ISI.toUpperCase()}</p>`;

    // 422: every unmet condition of the gate, in details and fields.
    const unready = ok(await marketer.client.rpc('create_asset', { title: 'Draft', type: 'email', audience: 'hcp', channel: 'Email', market: '', content_html: '<p>x</p>' }));
    let r = await marketer.client.rpc('review_gate', { asset_id: unready.id });
    assert.equal(ok(r).ready, false);
    assert.deepEqual(r.data.unmet.map((u) => u.code), ['product_id', 'market', 'isi']);
    r = await marketer.client.rpc('submit_for_review', { asset_id: unready.id });
    assert.equal(r.status, 422);
    assert.equal(r.error.code, 'PT422');
    assert.equal(r.error.message, 'The asset is not ready for review.');
    assert.deepEqual(Object.keys(r.error.fields).sort(), ['isi', 'market', 'product_id']);
    for (const code of ['product_id:', 'market:', 'isi:']) assert.ok(r.error.details.includes(code), r.error.details);

    // Submitted: three parallel steps, active, due in 5 business days.
    const asset = ok(await marketer.client.rpc('create_asset', { title: 'Launch e-mail', type: 'email', audience: 'hcp', channel: 'Email', market: 'US', product_id: product.id, content_html: html }));
    const round1 = ok(await marketer.client.rpc('submit_for_review', { asset_id: asset.id }));
    assert.equal(round1.status, 'open');
    assert.equal(round1.round, 1);
    assert.deepEqual(round1.steps.map((s) => [s.role, s.status, s.required]), [
      ['reviewer_medical', 'active', true], ['reviewer_legal', 'active', true], ['reviewer_regulatory', 'active', true]]);
    const step = Object.fromEntries(round1.steps.map((s) => [s.role, s]));
    assert.equal(ok(await marketer.client.from('assets').select('status').eq('id', asset.id).single()).status, 'in_review');

    // 409: submitted twice; 403: the marketer decides, legal decides medical's step.
    r = await marketer.client.rpc('submit_for_review', { asset_id: asset.id });
    assert.equal(r.status, 409);
    assert.equal(r.error.code, 'PT409');
    r = await marketer.client.rpc('decide_step', { step_id: step.reviewer_legal.id, decision: 'approved', comment: 'Mine', password: marketer.password });
    assert.equal(r.status, 403);
    assert.equal(r.error.code, '42501');
    r = await legal.client.rpc('claim_step', { step_id: step.reviewer_medical.id });
    assert.equal(r.status, 403);
    // A wrong password refuses to sign: 403, 28P01, nothing signed.
    r = await legal.client.rpc('decide_step', { step_id: step.reviewer_legal.id, decision: 'approved', comment: 'Fine', password: 'Wrong-Password-9' });
    assert.equal(r.status, 403);
    assert.equal(r.error.code, '28P01');
    assert.ok(r.error.fields.password, JSON.stringify(r.error));

    // The round: medical claims and requests two changes; the others approve.
    const claimed = ok(await medical.client.rpc('claim_step', { step_id: step.reviewer_medical.id }));
    assert.equal(claimed.claimed_by, medical.uid);
    r = await medical.client.rpc('decide_step', { step_id: step.reviewer_medical.id, decision: 'changes_requested', comment: 'Two things.', password: medical.password,
      change_requests: ['Cite the LDL-C study.', 'Move the ISI up.'] });
    const med1 = ok(r);
    assert.equal(med1.review.status, 'open');
    assert.equal(med1.step.status, 'changes_requested');
    assert.equal(med1.signature.meaning, 'review');
    assert.equal(med1.signature.signer_name, 'Dr. Mei Medical');
    assert.equal(med1.change_requests.length, 2);
    ok(await legal.client.rpc('decide_step', { step_id: step.reviewer_legal.id, decision: 'approved', comment: 'Fine', password: legal.password }));
    const last = ok(await regulatory.client.rpc('decide_step', { step_id: step.reviewer_regulatory.id, decision: 'approved_with_changes', comment: 'Fix a typo.', password: regulatory.password }));
    assert.equal(last.review.status, 'changes_requested');
    r = await regulatory.client.rpc('decide_step', { step_id: step.reviewer_regulatory.id, decision: 'approved', comment: 'Again', password: regulatory.password });
    assert.equal(r.status, 409);
    assert.equal(r.error.code, 'PT409');

    // Version 2, the change requests done, resubmitted.
    const v2 = ok(await marketer.client.rpc('add_asset_version', { asset_id: asset.id, content_html: `${html}<p>Study: NEJM 2025.</p>`, change_note: 'Round 1 changes' }));
    const crs = ok(await marketer.client.from('change_requests').select('id, text, status, role').eq('asset_id', asset.id).order('text'));
    assert.deepEqual(crs.map((c) => [c.text, c.status, c.role]), [['Cite the LDL-C study.', 'open', 'reviewer_medical'], ['Move the ISI up.', 'open', 'reviewer_medical']]);
    r = await marketer.client.rpc('submit_for_review', { asset_id: asset.id });
    assert.equal(r.status, 422);
    assert.deepEqual(Object.keys(r.error.fields), ['change_requests']);
    for (const c of crs) ok(await marketer.client.rpc('mark_change_done', { change_request_id: c.id, note: 'Done in v2' }));
    const round2 = ok(await marketer.client.rpc('submit_for_review', { asset_id: asset.id }));
    assert.equal(round2.round, 2);
    assert.equal(round2.version_id, v2.id);
    const step2 = Object.fromEntries(round2.steps.map((s) => [s.role, s]));
    // Not approved while medical's requests are unconfirmed.
    r = await medical.client.rpc('decide_step', { step_id: step2.reviewer_medical.id, decision: 'approved', comment: 'Good', password: medical.password });
    assert.equal(r.status, 409);
    for (const c of crs) assert.equal(ok(await medical.client.rpc('confirm_change', { change_request_id: c.id })).status, 'confirmed');
    for (const [who, role] of [[medical, 'reviewer_medical'], [legal, 'reviewer_legal'], [regulatory, 'reviewer_regulatory']]) {
      ok(await who.client.rpc('decide_step', { step_id: step2[role].id, decision: 'approved', comment: 'Approved.', password: who.password }));
    }
    const approved = ok(await marketer.client.from('assets').select('status, approved_version_id, expires_at').eq('id', asset.id).single());
    assert.equal(approved.status, 'approved');
    assert.equal(approved.approved_version_id, v2.id);
    assert.match(approved.expires_at, /^\d{4}-\d{2}-\d{2}$/);

    // The steps with their signatures' manifestation, embedded.
    const steps = ok(await marketer.client.from('review_steps').select('role, status, comment, signatures(signer_name, signed_at, meaning)').eq('review_id', round2.id).order('position'));
    assert.deepEqual(steps.map((s) => [s.role, s.status, s.signatures.meaning]), [
      ['reviewer_medical', 'approved', 'approval'], ['reviewer_legal', 'approved', 'approval'], ['reviewer_regulatory', 'approved', 'approval']]);
    assert.equal(steps[0].signatures.signer_name, 'Dr. Mei Medical');
    const sigs = ok(await marketer.client.from('signatures').select('id').eq('asset_id', asset.id));
    assert.equal(sigs.length, 6);
    for (const s of sigs) {
      const v = ok(await marketer.client.rpc('verify_signature', { signature_id: s.id }));
      assert.equal(v.valid, true, JSON.stringify(v));
    }

    // Notifications: own only, marked read.
    const mine = ok(await marketer.client.from('notifications').select('id, kind, user_id'));
    assert.ok(mine.some((n) => n.kind === 'round_closed'), JSON.stringify(mine));
    assert.ok(mine.every((n) => n.user_id === marketer.uid));
    assert.ok(ok(await marketer.client.rpc('mark_notifications_read', {})).updated >= 1);
    assert.equal(ok(await marketer.client.from('notifications').select('id').is('read_at', null)).length, 0);

    // The Review Center's queue.
    const queue = ok(await admin.client.rpc('review_queue', { tab: 'submitted' }));
    assert.equal(queue.counts.submitted, 0);
    const open = ok(await admin.client.rpc('review_queue', { tab: 'open' }));
    assert.equal(open.items.length, 0);

    // Withdrawal of the approved asset: admins only, with a reason.
    r = await marketer.client.rpc('withdraw_asset', { asset_id: asset.id, reason: 'Superseded.' });
    assert.equal(r.status, 403);
    assert.equal(r.error.code, '42501');
    assert.equal(ok(await admin.client.rpc('withdraw_asset', { asset_id: asset.id, reason: 'Superseded.' })).status, 'withdrawn');
    r = await admin.client.rpc('withdraw_asset', { asset_id: asset.id, reason: 'Again.' });
    assert.equal(r.status, 409);

    // The tables are read-only to clients.
    r = await admin.client.from('reviews').update({ status: 'approved' }).eq('id', round2.id);
    assert.equal(r.error?.code, '42501');
    r = await medical.client.from('signatures').delete().eq('asset_id', asset.id);
    assert.equal(r.error?.code, '42501');
  });

  it('assign_step by an administrator; a signature records where it was given', async () => {
    const admin = await onboard(ctx.srv, `Assign ${rand(4)}`);
    const marketer = await invited(ctx.srv, admin, 'marketer', 'Mara Marketer');
    const medical = await invited(ctx.srv, admin, 'reviewer_medical', 'Dr. Mei Medical');
    const legal = await invited(ctx.srv, admin, 'reviewer_legal', 'Lou Legal');
    const product = ok(await admin.client.from('products').insert({ brand_name: 'Zelvora', isi_text: ISI }).select().single());
    const asset = ok(await marketer.client.rpc('create_asset', { title: 'Assigned', type: 'email', audience: 'hcp', channel: 'Email', market: 'US', product_id: product.id, content_html: `<p>${ISI}</p>` }));
    const round = ok(await marketer.client.rpc('submit_for_review', { asset_id: asset.id }));
    const step = Object.fromEntries(round.steps.map((s) => [s.role, s]));

    // 403 for anyone but an administrator, 400 on user_id for someone
    // without the step's role; then assigned, and the assignee notified.
    let r = await marketer.client.rpc('assign_step', { step_id: step.reviewer_medical.id, user_id: medical.uid });
    assert.equal(r.status, 403);
    assert.equal(r.error.code, '42501');
    r = await admin.client.rpc('assign_step', { step_id: step.reviewer_medical.id, user_id: legal.uid });
    assert.equal(r.status, 400);
    assert.ok(r.error.fields.user_id, JSON.stringify(r.error));
    const assigned = ok(await admin.client.rpc('assign_step', { step_id: step.reviewer_medical.id, user_id: medical.uid }));
    assert.equal(assigned.claimed_by, medical.uid);
    const notes = ok(await medical.client.from('notifications').select('kind, step_id, emailed_at').eq('kind', 'step_assigned'));
    assert.deepEqual(notes.map((n) => [n.kind, n.step_id]), [['step_assigned', step.reviewer_medical.id]]);
    assert.ok(notes[0].emailed_at, JSON.stringify(notes));

    // The signature keeps the signer's address and user agent.
    const out = ok(await medical.client.rpc('decide_step', { step_id: step.reviewer_medical.id, decision: 'rejected', comment: 'No.', password: medical.password }));
    assert.equal(out.signature.client_ip, '127.0.0.1');
    assert.ok(out.signature.user_agent.length > 0, JSON.stringify(out.signature));
    assert.equal(ok(await marketer.client.rpc('verify_signature', { signature_id: out.signature.id })).valid, true);
    // A decided step of a closed round: 409.
    r = await admin.client.rpc('assign_step', { step_id: step.reviewer_legal.id, user_id: legal.uid });
    assert.equal(r.status, 409);
    assert.equal(r.error.code, 'PT409');
  });
});
