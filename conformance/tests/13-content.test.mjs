// The content model (issue 5) through the unmodified supabase-js client:
// products as an admin, assets composed and uploaded (prepare_upload, then
// uploadToSignedUrl), versions, embeds, claims quoting reference pages,
// and the refusals (a viewer, another organisation, a client-chosen path).
import assert from 'node:assert/strict';
import { perBackend, rand } from '../lib/server.mjs';
import { member, onboard, invited } from '../lib/org.mjs';

// A PDF with one page per text (Helvetica), with a correct cross-reference table.
function makePdf(pages) {
  const objs = [];
  const n = pages.length;
  // 1 catalog, 2 pages, 3 font, then per page: page object, content stream.
  const kids = pages.map((_, i) => `${4 + 2 * i} 0 R`).join(' ');
  objs.push('<< /Type /Catalog /Pages 2 0 R >>');
  objs.push(`<< /Type /Pages /Kids [${kids}] /Count ${n} >>`);
  objs.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  pages.forEach((text, i) => {
    const lines = text.split('\n').map((l, j) => `BT /F1 12 Tf 72 ${720 - 16 * j} Td (${l.replace(/[()\\]/g, '\\$&')}) Tj ET`).join('\n');
    objs.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`);
    objs.push(`<< /Length ${Buffer.byteLength(lines)} >>\nstream\n${lines}\nendstream`);
  });
  let out = '%PDF-1.4\n';
  const offsets = [];
  objs.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const PDF = makePdf([
  'Zelvora reduced symptoms\nby 42 percent in adults.',
  'Page two holds the\nprimary endpoint result.',
  'Third page: references.',
]);

// prepare_upload then uploadToSignedUrl, as the web app does (with progress, by XHR).
async function uploadFile(client, bucket, name, body, type) {
  const prep = await client.rpc('prepare_upload', { bucket, file_name: name, content_type: type, size: body.length });
  assert.equal(prep.error, null, JSON.stringify(prep.error));
  const { path, token, signed_url: signedUrl } = prep.data;
  assert.ok(signedUrl.startsWith(`/storage/v1/object/upload/sign/${bucket}/${path}?token=`), signedUrl);
  const up = await client.storage.from(bucket).uploadToSignedUrl(path, token, new Blob([body], { type }), { contentType: type });
  assert.equal(up.error, null, JSON.stringify(up.error));
  return path;
}

perBackend((ctx) => {
  const { it } = ctx;

  it('products, composed and uploaded assets, versions, embeds, claims with reference passages; refusals', async () => {
    const admin = await onboard(ctx.srv, `Content ${rand(4)}`, 'Admin');
    const marketer = await invited(ctx.srv, admin, 'marketer', 'Mara Marketer');
    const viewer = await invited(ctx.srv, admin, 'viewer', 'Vic Viewer');

    // Products: admins write, everyone reads.
    let r = await admin.client.from('products').insert({ brand_name: 'Zelvora', established_name: 'zelvorumab', markets: ['US', 'EU'], isi_text: 'Serious infections.' }).select().single();
    assert.equal(r.error, null, JSON.stringify(r.error));
    const product = r.data;
    assert.equal(product.org_id, admin.org.id);
    assert.deepEqual(product.markets, ['US', 'EU']);
    r = await admin.client.from('products').insert({ brand_name: 'zelvora' });
    assert.equal(r.error?.code, '23505');
    r = await marketer.client.from('products').insert({ brand_name: 'Other' });
    assert.equal(r.error?.code, '42501');
    r = await viewer.client.from('products').select('brand_name');
    assert.deepEqual(r.data, [{ brand_name: 'Zelvora' }]);

    // A module, then an asset composed with it.
    r = await marketer.client.from('modules').insert({ kind: 'isi', title: 'Zelvora ISI', body: 'Serious infections.', product_id: product.id }).select().single();
    assert.equal(r.error, null, JSON.stringify(r.error));
    const module = r.data;
    const html = `<h2>Launch</h2><p>Hello <em>doctor</em><script>alert(1)</script></p><p><span data-module-id="${module.id}" data-module-kind="isi">Serious infections.</span></p>`;
    r = await marketer.client.rpc('create_asset', {
      title: 'Launch e-mail', type: 'email', product_id: product.id, audience: 'hcp', channel: 'email', market: 'US',
      content_html: html, content_json: { type: 'doc', content: [] },
    });
    assert.equal(r.error, null, JSON.stringify(r.error));
    const composed = r.data;
    assert.equal(composed.job_code, 'FB-US-0001');
    assert.equal(composed.status, 'draft');
    assert.equal(composed.current_version_number, 1);
    // Values outside the domain's vocabularies are refused as the CHECK
    // constraints would refuse them; the first refused field speaks.
    r = await marketer.client.rpc('create_asset', { title: 'Poster', type: 'poster', audience: 'public', channel: 'print', market: 'US', content_html: '<p>x</p>' });
    assert.equal(r.status, 400);
    assert.equal(r.error?.code, '23514');
    assert.equal(r.error?.message, 'The type must be one of: email, web_page, detail_aid, social_post, banner, print, video_script, other.');
    r = await marketer.client.from('modules').update({ status: 'published' }).eq('id', module.id);
    assert.equal(r.status, 400);
    assert.equal(r.error?.code, '23514');
    // A status but draft is a decision: not the marketer's (403, 42501).
    r = await marketer.client.from('modules').update({ status: 'approved' }).eq('id', module.id);
    assert.equal(r.status, 403);
    assert.equal(r.error?.code, '42501');
    assert.equal(r.error?.message, 'Only a reviewer or an administrator may set a module to approved.');
    // Statuses move along the domain's transition tables.
    r = await admin.client.from('modules').update({ status: 'retired' }).eq('id', module.id);
    assert.equal(r.error, null, JSON.stringify(r.error));
    r = await admin.client.from('modules').update({ status: 'approved' }).eq('id', module.id);
    assert.equal(r.error?.code, 'P0001');
    assert.equal(r.error?.message, 'The module is retired and cannot become approved.');

    r = await viewer.client.from('asset_versions').select('number, kind, content_html, plain_text, page_count').eq('asset_id', composed.id).single();
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.equal(r.data.kind, 'authored');
    assert.ok(!r.data.content_html.includes('script'), r.data.content_html);
    assert.ok(r.data.content_html.includes(`data-module-id="${module.id}"`), r.data.content_html);
    assert.equal(r.data.plain_text, 'Launch\nHello doctor\nSerious infections.');
    r = await viewer.client.from('version_modules').select('module_id').eq('asset_id', composed.id);
    assert.deepEqual(r.data, [{ module_id: module.id }]);

    // An uploaded PDF asset: pages extracted by the server.
    const path = await uploadFile(marketer.client, 'asset-files', 'Deck.pdf', PDF, 'application/pdf');
    assert.ok(path.startsWith(`${admin.org.id}/`) && path.endsWith('.pdf'), path);
    r = await marketer.client.rpc('create_asset', {
      title: 'Detail aid', type: 'detail_aid', audience: 'hcp', channel: 'rep', market: 'EU', file_path: path, file_name: 'Deck.pdf',
    });
    assert.equal(r.error, null, JSON.stringify(r.error));
    const uploaded = r.data;
    assert.equal(uploaded.job_code, 'FB-EU-0002');

    // A second version, then the asset with its product, owner and versions.
    r = await marketer.client.rpc('add_asset_version', { asset_id: uploaded.id, content_html: '<p>Now composed</p>', change_note: 'Rewritten' });
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.equal(r.data.number, 2);
    r = await viewer.client.from('assets')
      .select('id, job_code, current_version_number, products(brand_name), owner:profiles_v2!owner_id(full_name), asset_versions(number, kind, page_count, file_name, page_texts)')
      .eq('id', uploaded.id).single();
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.equal(r.data.current_version_number, 2);
    assert.equal(r.data.products, null);
    assert.equal(r.data.owner.full_name, 'Mara Marketer');
    const versions = r.data.asset_versions.sort((a, b) => a.number - b.number);
    assert.deepEqual(versions.map((v) => [v.number, v.kind, v.page_count]), [[1, 'file', 3], [2, 'authored', 1]]);
    assert.equal(versions[0].file_name, 'Deck.pdf');
    assert.match(versions[0].page_texts[1], /primary endpoint/);

    // The file: readable by members, through a signed URL too.
    const files = viewer.client.storage.from('asset-files');
    r = await files.download(path);
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.deepEqual(Buffer.from(await r.data.arrayBuffer()), PDF);
    r = await files.createSignedUrl(path, 60);
    assert.equal(r.error, null, JSON.stringify(r.error));
    const signed = r.data.signedUrl;
    assert.equal((await fetch(signed)).status, 200);

    // Client-chosen paths are refused in product buckets.
    r = await marketer.client.storage.from('asset-files').upload(`${admin.org.id}/mine.pdf`, new Blob([PDF], { type: 'application/pdf' }));
    assert.equal(r.error?.statusCode, '400');
    assert.equal(r.error?.message, 'Object paths in this bucket are generated by the server');

    // A reference with its PDF, a claim quoting page 2.
    r = await marketer.client.from('references').insert({ title: 'Pivotal study', citation: 'Doe J. 2024', kind: 'clinical_study' }).select().single();
    assert.equal(r.error, null, JSON.stringify(r.error));
    const ref = r.data;
    const refPath = await uploadFile(marketer.client, 'reference-files', 'study.pdf', PDF, 'application/pdf');
    r = await marketer.client.rpc('attach_reference_file', { reference_id: ref.id, file_path: refPath, file_name: 'study.pdf' });
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.equal(r.data.page_count, 3);
    // A refused form names every refused field, as supabase-js hands the body on.
    r = await marketer.client.from('claims').insert({ text: '   ', expires_at: 'soon' }).select().single();
    assert.equal(r.error?.code, '23514');
    assert.deepEqual(Object.keys(r.error?.fields ?? {}).sort(), ['expires_at', 'text'], JSON.stringify(r.error));
    r = await marketer.client.from('claims').insert({ text: 'Zelvora reduces symptoms by 42%', product_id: product.id, variants: ['42% fewer symptoms'] }).select().single();
    assert.equal(r.error, null, JSON.stringify(r.error));
    const claim = r.data;
    r = await marketer.client.from('claim_references').insert({ claim_id: claim.id, reference_id: ref.id, page: 2, passage: 'the primary  endpoint' });
    assert.equal(r.error, null, JSON.stringify(r.error));
    r = await marketer.client.from('claim_references').insert({ claim_id: claim.id, reference_id: ref.id, page: 1, passage: 'the primary endpoint' });
    assert.equal(r.error?.code, '23514');
    assert.equal(r.error?.message, 'The quoted passage was not found on page 1 of the reference.');
    r = await viewer.client.from('claims').select('text, products(brand_name), claim_references(page, passage)').eq('id', claim.id).single();
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.equal(r.data.products.brand_name, 'Zelvora');
    assert.deepEqual(r.data.claim_references, [{ page: 2, passage: 'the primary  endpoint' }]);

    r = await viewer.client.rpc('content_counts');
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.equal(r.data.assets, 2);
    assert.equal(r.data.by_status.draft, 2);

    // A viewer reads but does not write.
    r = await viewer.client.rpc('create_asset', { title: 'No', type: 'email', audience: 'hcp', channel: 'email', market: 'US', content_html: '<p>x</p>' });
    assert.equal(r.error?.code, '42501');
    r = await viewer.client.rpc('prepare_upload', { bucket: 'asset-files', file_name: 'a.pdf', content_type: 'application/pdf', size: 100 });
    assert.equal(r.error?.code, '42501');
    r = await viewer.client.from('claims').insert({ text: 'Nope' });
    assert.equal(r.error?.code, '42501');

    // Another organisation sees nothing and reaches nothing.
    const stranger = await onboard(ctx.srv, `Rival ${rand(4)}`, 'Admin');
    for (const table of ['products', 'assets', 'asset_versions', 'modules', 'claims', 'claim_references', 'references', 'version_modules']) {
      r = await stranger.client.from(table).select('*');
      assert.equal(r.error, null, `${table}: ${JSON.stringify(r.error)}`);
      assert.deepEqual(r.data, [], table);
    }
    r = await stranger.client.rpc('add_asset_version', { asset_id: uploaded.id, content_html: '<p>x</p>', change_note: 'x' });
    assert.equal(r.error?.code, 'P0002');
    r = await stranger.client.from('assets').update({ title: 'Hijacked' }).eq('id', uploaded.id).select();
    assert.deepEqual(r.data, []);
    r = await stranger.client.storage.from('asset-files').download(path);
    assert.notEqual(r.error, null);
    r = await stranger.client.storage.from('asset-files').createSignedUrl(path, 60);
    assert.notEqual(r.error, null);
    r = await stranger.client.storage.from('asset-files').list(admin.org.id);
    assert.deepEqual(r.data ?? [], []);
    r = await stranger.client.rpc('create_asset', { title: 'Theirs', type: 'other', audience: 'hcp', channel: 'x', market: 'US', file_path: path });
    assert.equal(r.error?.code, 'P0001');
  });

  it('a version submitted for review is never changed or deleted, not even with the service key, nor is its file', async () => {
    const admin = await onboard(ctx.srv, `Frozen ${rand(4)}`, 'Admin');
    const marketer = await invited(ctx.srv, admin, 'marketer', 'Mara Marketer');
    const product = (await admin.client.from('products').insert({ brand_name: 'Zelvora' }).select().single()).data;
    const path = await uploadFile(marketer.client, 'asset-files', 'Deck.pdf', PDF, 'application/pdf');
    let r = await marketer.client.rpc('create_asset', {
      title: 'Deck', type: 'other', audience: 'hcp', channel: 'rep', market: 'US', product_id: product.id, file_path: path, file_name: 'Deck.pdf',
    });
    assert.equal(r.error, null, JSON.stringify(r.error));
    const asset = r.data;
    r = await marketer.client.rpc('submit_for_review', { asset_id: asset.id });
    assert.equal(r.error, null, JSON.stringify(r.error));
    const version = (await marketer.client.from('asset_versions').select('*').eq('asset_id', asset.id).single()).data;
    assert.ok(version.submitted_at);

    const service = ctx.srv.admin();
    const refused = 'Version 1 was submitted for review: it can never be changed or deleted, as its review and signatures are bound to its exact content.';
    for (const attempt of [
      () => service.from('asset_versions').delete().eq('id', version.id),
      () => service.from('asset_versions').update({ change_note: 'Rewritten' }).eq('id', version.id),
      () => service.from('asset_versions').upsert({ ...version, change_note: 'Merged' }),
    ]) {
      r = await attempt();
      assert.equal(r.status, 409, JSON.stringify(r));
      assert.equal(r.error.code, 'PT409');
      assert.equal(r.error.message, refused);
    }
    r = await service.from('assets').delete().eq('id', asset.id);
    assert.equal(r.status, 409);
    assert.equal(r.error.message, 'The asset has a version submitted for review, which can never be deleted; archive the asset instead.');

    const files = service.storage.from('asset-files');
    r = await files.remove([path]);
    assert.equal(r.error?.message, 'This file belongs to a version submitted for review and can never be removed');
    r = await files.upload(path, new Blob([makePdf(['Other bytes'])], { type: 'application/pdf' }), { upsert: true });
    assert.equal(r.error?.message, 'This file belongs to a version submitted for review and can never be replaced');
    r = await files.move(path, `${path}.moved`);
    assert.equal(r.error?.message, 'This file belongs to a version submitted for review and can never be moved');

    // Nothing changed: the row, and the bytes its hash and signatures hold.
    assert.deepEqual((await marketer.client.from('asset_versions').select('*').eq('id', version.id).single()).data, version);
    r = await marketer.client.storage.from('asset-files').download(path);
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.deepEqual(Buffer.from(await r.data.arrayBuffer()), PDF);
  });
});
