// Compliance checks (issue 17) through the unmodified supabase-js client:
// check_text on the HCP e-mail returns findings whose offsets
// count code points (an accented name and an emoji come first), its
// refusals in PostgREST's shape (400 with the field, 4xx for another
// organisation's product), the rule tables read-only through REST, and a
// saved organisation rule that check_text honours at once.
import assert from 'node:assert/strict';
import { perBackend, rand } from '../lib/server.mjs';
import { invited, ok, onboard } from '../lib/org.mjs';

const EMAIL = 'Dear Dr. Müller 👋,\n\nZelvora is the best treatment for your patients. Guaranteed results with no side effects. Better than lisinopril.\n\nImportant safety information: Zelvora can cause liver problems.';

/** s[start, end) counted in code points. */
const slice = (s, start, end) => Array.from(s).slice(start, end).join('');

perBackend((ctx) => {
  const { it } = ctx;

  it('check_text: findings in code points, refusals, read-only rule tables, a saved rule honoured', async () => {
    const admin = await onboard(ctx.srv, `Compliance ${rand(4)}`);
    const viewer = await invited(ctx.srv, admin, 'viewer', 'Vic Viewer');
    const product = ok(await admin.client.from('products').insert({ brand_name: 'Zelvora', established_name: 'rosulitide',
      indications: 'Adults with primary hyperlipidaemia', launch_date: '2025-06-01' }).select().single());

    const { findings } = ok(await viewer.client.rpc('check_text', { text: EMAIL, product_id: product.id, asset_type: 'email',
      audience: 'hcp', channel: 'Email', market: 'US', as_of: '2026-03-02' }));
    assert.ok(findings.length >= 3, JSON.stringify(findings));
    for (const f of findings) {
      assert.deepEqual(Object.keys(f).sort(), ['end', 'guidance', 'message', 'quote', 'rule', 'rule_version', 'severity', 'start']);
      assert.equal(slice(EMAIL, f.start, f.end), f.quote, `${f.rule} [${f.start}, ${f.end})`);
      assert.ok(['info', 'warning', 'critical'].includes(f.severity));
    }
    const rules = new Set(findings.map((f) => f.rule));
    for (const rule of ['superlative', 'comparative']) assert.ok(rules.has(rule), `${rule} in ${[...rules]}`);
    // "the best" starts after the emoji: in UTF-16 units it would be one further.
    const best = findings.find((f) => f.rule === 'superlative' && /best/i.test(f.quote));
    assert.ok(best, JSON.stringify(findings));
    assert.ok(best.start < EMAIL.indexOf(best.quote), 'offsets count code points, not UTF-16 units');
    assert.equal(best.start, Array.from(EMAIL.slice(0, EMAIL.indexOf(best.quote))).length);

    // Refusals: 400 naming the field; another organisation's product is not found.
    let r = await viewer.client.rpc('check_text', { text: 'x', asset_type: 'billboard', audience: 'everyone', as_of: 'tomorrow' });
    assert.equal(r.status, 400);
    assert.deepEqual(Object.keys(r.error.fields).sort(), ['as_of', 'asset_type', 'audience']);
    r = await viewer.client.rpc('check_text', { text: 'a'.repeat(1024 * 1024 + 1) });
    assert.equal(r.status, 400);
    assert.ok(r.error.fields.text, JSON.stringify(r.error));
    const other = await onboard(ctx.srv, `Elsewhere ${rand(4)}`);
    const theirs = ok(await other.client.from('products').insert({ brand_name: 'Theirs' }).select().single());
    r = await viewer.client.rpc('check_text', { text: 'x', product_id: theirs.id });
    assert.ok(r.status >= 400 && r.status < 500, String(r.status));
    assert.ok(r.error.fields.product_id, JSON.stringify(r.error));

    // The rule tables are read through REST and written only through the functions.
    const saved = ok(await admin.client.rpc('save_compliance_rule', { code: 'house-cure', title: 'Cures', kind: 'phrases',
      phrases: ['cures', 'cure for'], severity: 'critical', message: 'Nothing cures.', guidance: 'Say what the study showed.' }));
    assert.equal(saved.version, 1);
    const seen = ok(await viewer.client.from('compliance_rules').select('code, kind, phrases, severity, version'));
    assert.deepEqual(seen, [{ code: 'house-cure', kind: 'phrases', phrases: ['cures', 'cure for'], severity: 'critical', version: 1 }]);
    r = await admin.client.from('compliance_rules').insert({ code: 'direct', title: 'x', kind: 'phrases', severity: 'info', message: 'x' });
    assert.ok(r.status === 401 || r.status === 403, String(r.status));
    r = await admin.client.from('compliance_rules').update({ severity: 'info' }).eq('id', saved.id).select();
    assert.ok(r.error || r.data.length === 0, JSON.stringify(r));
    r = await viewer.client.rpc('save_compliance_rule', { code: 'house-x', title: 'x', kind: 'phrases', phrases: ['x'], severity: 'info', message: 'x' });
    assert.equal(r.status, 403);
    r = await admin.client.rpc('save_compliance_rule', { code: 'bad-re', title: 'x', kind: 'regex', pattern: '(unclosed', severity: 'info', message: 'x' });
    assert.equal(r.status, 400);
    assert.ok(r.error.fields.pattern, JSON.stringify(r.error));
    ok(await viewer.client.from('compliance_rule_versions').select('version'));
    ok(await viewer.client.from('guideline_documents').select('id'));

    // The saved rule applies to check_text at once, and its new version too.
    let out = ok(await viewer.client.rpc('check_text', { text: 'Zelvora cures high cholesterol.' }));
    let cure = out.findings.filter((f) => f.rule === 'house-cure');
    assert.deepEqual(cure.map((f) => [f.quote, f.severity, f.rule_version, f.start, f.end]), [['cures', 'critical', 1, 8, 13]]);
    ok(await admin.client.rpc('save_compliance_rule', { id: saved.id, code: 'house-cure', title: 'Cures', kind: 'phrases',
      phrases: ['cures'], severity: 'warning', message: 'Nothing cures.' }));
    out = ok(await viewer.client.rpc('check_text', { text: 'Zelvora cures high cholesterol.' }));
    cure = out.findings.filter((f) => f.rule === 'house-cure');
    assert.deepEqual(cure.map((f) => [f.severity, f.rule_version]), [['warning', 2]]);

    const list = ok(await viewer.client.rpc('compliance_rule_list'));
    assert.ok(list.builtins.some((b) => b.code === 'superlative' && b.enabled === true), JSON.stringify(list.builtins));
    assert.deepEqual(list.rules.map((x) => [x.code, x.version]), [['house-cure', 2]]);
  });
});
