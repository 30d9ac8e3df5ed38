// Annotations (issue 16) through the unmodified supabase-js client: text
// annotations located by their quotes, a reply with a
// mention that notifies, resolve and reopen by who may, the refusals in
// PostgREST's shape (400 with the field, 403, 404, 409), and a new version
// that carries the open threads forward: anchored, moved and orphaned.
import assert from 'node:assert/strict';
import { perBackend, rand } from '../lib/server.mjs';
import { invited, ok, onboard } from '../lib/org.mjs';

const ASK = '<p>Ask your doctor whether Zelvora is right for you.</p>';
const V1 = `<p>Zelvora lowers LDL-C by half in twelve weeks.</p><p>Most patients reached their goal.</p><p>Zelvora can cause liver problems.</p>${ASK}`;
// An opening line added, the goal sentence moved to the end, the liver sentence deleted.
const V2 = `<p>A new opening line.</p><p>Zelvora lowers LDL-C by half in twelve weeks.</p>${ASK}<p>Most patients reached their goal.</p>`;

perBackend((ctx) => {
  const { it } = ctx;

  it('annotate, reply with a mention, resolve and reopen; refusals; threads carried onto version 2', async () => {
    const admin = await onboard(ctx.srv, `Annotations ${rand(4)}`);
    const marketer = await invited(ctx.srv, admin, 'marketer', 'Mara Marketer');
    const medical = await invited(ctx.srv, admin, 'reviewer_medical', 'Dr. Mei Medical');
    const viewer = await invited(ctx.srv, admin, 'viewer', 'Vic Viewer');
    const asset = ok(await marketer.client.rpc('create_asset', { title: 'Annotated e-mail', type: 'email', audience: 'hcp', channel: 'Email', market: 'US', content_html: V1 }));
    const v1 = asset.current_version_id;

    // A quote is located whatever its line breaks; the server keeps offsets.
    const stays = ok(await medical.client.rpc('create_annotation', {
      version_id: v1, category: 'claim_needs_reference', body: 'Which study? @Mara Marketer',
      target: { type: 'text', exact: 'lowers LDL-C by\nhalf', prefix: 'Zelvora ' },
    }));
    assert.equal(stays.anchor_status, 'anchored');
    assert.equal(stays.state, 'open');
    assert.equal(stays.thread_id, stays.id);
    assert.equal(stays.author_name, 'Dr. Mei Medical');
    assert.equal(stays.target.exact, 'lowers LDL-C by half');
    assert.deepEqual([stays.target.start, stays.target.end], [8, 28]);
    const moves = ok(await medical.client.rpc('create_annotation', { version_id: v1, category: 'fair_balance', body: 'Balance this.', target: { type: 'text', exact: 'Most patients reached their goal.' } }));
    const goes = ok(await marketer.client.rpc('create_annotation', { version_id: v1, category: 'editorial', body: 'Reword.', target: { type: 'text', exact: 'can cause liver problems' } }));

    // The mention reached the marketer.
    const notes = ok(await marketer.client.from('notifications').select('kind, title, asset_id').eq('kind', 'mentioned'));
    assert.deepEqual(notes.map((n) => [n.title, n.asset_id]), [['Dr. Mei Medical mentioned you on Annotated e-mail', asset.id]]);

    // Refusals: 400 naming the field, 403 for a viewer, 404 for no such version, 409 for a move twice.
    let r = await medical.client.rpc('create_annotation', { version_id: v1, category: 'editorial', body: 'x', target: { type: 'text', exact: 'not in the text' } });
    assert.equal(r.status, 400);
    assert.ok(r.error.fields.target, JSON.stringify(r.error));
    r = await medical.client.rpc('create_annotation', { version_id: v1, category: 'spelling', body: '', target: { type: 'text', exact: 'Zelvora' } });
    assert.equal(r.status, 400);
    assert.deepEqual(Object.keys(r.error.fields).sort(), ['body', 'category']);
    r = await viewer.client.rpc('create_annotation', { version_id: v1, category: 'editorial', body: 'x', target: { type: 'text', exact: 'Zelvora' } });
    assert.equal(r.status, 403);
    assert.equal(r.error.code, '42501');
    r = await medical.client.rpc('create_annotation', { version_id: '00000000-0000-4000-8000-000000000000', category: 'editorial', body: 'x', target: { type: 'text', exact: 'Zelvora' } });
    assert.equal(r.status, 404);
    r = await marketer.client.rpc('resolve_annotation', { annotation_id: stays.id });
    assert.equal(r.status, 403, 'the marketer did not write the thread and is no reviewer');
    ok(await medical.client.rpc('resolve_annotation', { annotation_id: stays.id }));
    r = await medical.client.rpc('resolve_annotation', { annotation_id: stays.id });
    assert.equal(r.status, 409);
    assert.equal(r.error.code, 'PT409');
    assert.equal(ok(await medical.client.rpc('reopen_annotation', { annotation_id: stays.id })).state, 'open');

    // A reply; the viewer reads the threads.
    const reply = ok(await marketer.client.rpc('reply_annotation', { annotation_id: moves.id, body: 'Will do.' }));
    assert.equal(reply.author_name, 'Mara Marketer');
    let list = ok(await viewer.client.rpc('version_annotations', { version_id: v1 }));
    assert.deepEqual(list.map((a) => a.id), [stays.id, moves.id, goes.id]);
    assert.deepEqual(list[1].replies.map((x) => x.body), ['Will do.']);

    // Version 2: the open threads are carried forward and re-anchored.
    const v2 = ok(await marketer.client.rpc('add_asset_version', { asset_id: asset.id, content_html: V2, change_note: 'Reordered' }));
    list = ok(await viewer.client.rpc('version_annotations', { version_id: v2.id }));
    const byThread = Object.fromEntries(list.map((a) => [a.thread_id, a]));
    assert.equal(byThread[stays.id].anchor_status, 'anchored');
    assert.equal(byThread[moves.id].anchor_status, 'moved');
    assert.equal(byThread[goes.id].anchor_status, 'orphaned');
    assert.equal(byThread[goes.id].target.exact, 'can cause liver problems');
    assert.equal(v2.plain_text.slice(byThread[moves.id].target.start, byThread[moves.id].target.end), 'Most patients reached their goal.');
    assert.deepEqual(byThread[moves.id].replies.map((x) => x.body), ['Will do.']);
    // The tables are readable, never writable, through the data API.
    const rows = ok(await viewer.client.from('annotations').select('thread_id, version_id, anchor_status').eq('version_id', v2.id));
    assert.equal(rows.length, 3);
    r = await admin.client.from('annotations').update({ body: 'Edited' }).eq('id', stays.id);
    assert.ok(r.error, 'nobody edits a comment through the data API');
  });
});
