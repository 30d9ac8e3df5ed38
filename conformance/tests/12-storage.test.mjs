// Storage (/storage/v1) through the unmodified supabase-js client: buckets,
// upload, download, list, listV2, move, copy, signed URLs, remove, and the refusals
// (another organisation, a type outside the bucket's list, the size limit).
import assert from 'node:assert/strict';
import { perBackend, rand } from '../lib/server.mjs';
import { member, onboard } from '../lib/org.mjs';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

function pdfBlob(extra = 0) {
  return new Blob([PDF, Buffer.alloc(extra, 0x20)], { type: 'application/pdf' });
}

perBackend((ctx) => {
  const { it } = ctx;

  it('buckets, upload, download, list, move, copy, signed URLs and remove', async () => {
    const a = await onboard(ctx.srv, `Storage ${rand(4)}`, 'Storage Tester');
    const bucket = `docs-${rand(6).toLowerCase()}`;
    const st = a.client.storage;

    let r = await st.createBucket(bucket, { public: false, fileSizeLimit: 1024 * 1024, allowedMimeTypes: ['application/pdf'] });
    assert.equal(r.error, null, JSON.stringify(r.error));
    r = await st.getBucket(bucket);
    assert.equal(r.error, null);
    assert.equal(r.data.id, bucket);
    assert.equal(r.data.file_size_limit, 1024 * 1024);
    r = await st.listBuckets();
    assert.deepEqual(r.data.map((b) => b.id), [bucket]);

    const files = st.from(bucket);
    r = await files.upload('reports/q1 summary.pdf', pdfBlob(), { cacheControl: '120' });
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.equal(r.data.path, 'reports/q1 summary.pdf');
    assert.equal(r.data.fullPath, `${bucket}/reports/q1 summary.pdf`);
    r = await files.upload('reports/q1 summary.pdf', pdfBlob());
    assert.equal(r.error?.statusCode, '409');
    r = await files.upload('reports/q1 summary.pdf', PDF, { upsert: true, contentType: 'application/pdf' });
    assert.equal(r.error, null, JSON.stringify(r.error));

    r = await files.download('reports/q1 summary.pdf');
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.deepEqual(Buffer.from(await r.data.arrayBuffer()), PDF);
    r = await files.exists('reports/q1 summary.pdf');
    assert.equal(r.data, true);
    r = await files.exists('reports/none.pdf');
    assert.equal(r.data, false);
    r = await files.info('reports/q1 summary.pdf');
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.equal(r.data.size, PDF.length);
    assert.equal(r.data.contentType, 'application/pdf');

    r = await files.move('reports/q1 summary.pdf', 'archive/q1.pdf');
    assert.equal(r.error, null, JSON.stringify(r.error));
    r = await files.copy('archive/q1.pdf', 'top.pdf');
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.equal(r.data.path, `${bucket}/top.pdf`);

    r = await files.list();
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.deepEqual(r.data.map((e) => e.name), ['archive', 'top.pdf']);
    assert.equal(r.data[0].id, null);
    assert.equal(r.data[1].metadata.size, PDF.length);
    r = await files.list('archive');
    assert.deepEqual(r.data.map((e) => e.name), ['q1.pdf']);

    r = await files.createSignedUrl('archive/q1.pdf', 60);
    assert.equal(r.error, null, JSON.stringify(r.error));
    let res = await fetch(r.data.signedUrl);
    assert.equal(res.status, 200);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), PDF);
    res = await fetch(r.data.signedUrl.replace('archive/q1.pdf', 'top.pdf'));
    assert.equal(res.status, 400);
    r = await files.createSignedUrls(['top.pdf', 'missing.pdf'], 60);
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.equal(r.data[0].error, null);
    assert.ok(r.data[0].signedUrl);
    assert.ok(r.data[1].error);

    r = await files.createSignedUploadUrl('signed/up.pdf');
    assert.equal(r.error, null, JSON.stringify(r.error));
    r = await files.uploadToSignedUrl('signed/up.pdf', r.data.token, pdfBlob());
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.equal(r.data.fullPath, `${bucket}/signed/up.pdf`);

    r = await st.deleteBucket(bucket);
    assert.equal(r.error?.statusCode, '409');
    r = await files.remove(['archive/q1.pdf', 'top.pdf', 'signed/up.pdf', 'not-there.pdf']);
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.equal(r.data.length, 3);
    r = await files.download('top.pdf');
    assert.ok(r.error);
    r = await st.deleteBucket(bucket);
    assert.equal(r.error, null, JSON.stringify(r.error));
  });

  it('listV2: cursor pages, folders with the delimiter, sort by time', async () => {
    const a = await onboard(ctx.srv, `Storage L ${rand(4)}`, 'Storage Tester');
    const b = await onboard(ctx.srv, `Storage M ${rand(4)}`, 'Storage Tester');
    const bucket = `list-${rand(6).toLowerCase()}`;
    let r = await a.client.storage.createBucket(bucket);
    assert.equal(r.error, null, JSON.stringify(r.error));
    const files = a.client.storage.from(bucket);
    const names = ['p/a1.pdf', 'p/a2.pdf', 'p/a3.pdf', 'p/a4.pdf', 'p/a5.pdf', 'p/sub/x.pdf', 'p/sub/y.pdf', 'q.pdf'];
    for (const n of names) {
      r = await files.upload(n, pdfBlob());
      assert.equal(r.error, null, JSON.stringify(r.error));
    }
    const under = names.filter((n) => n.startsWith('p/'));

    // Three pages of three, by name; names are full keys.
    const pages = [];
    let cursor;
    for (;;) {
      r = await files.listV2({ prefix: 'p/', limit: 3, cursor });
      assert.equal(r.error, null, JSON.stringify(r.error));
      assert.deepEqual(r.data.folders, []);
      pages.push(r.data.objects.map((o) => o.name));
      if (!r.data.hasNext) {
        assert.equal(r.data.nextCursor, undefined);
        break;
      }
      assert.equal(typeof r.data.nextCursor, 'string');
      assert.equal(r.data.nextCursorKey, r.data.objects.at(-1).name);
      cursor = r.data.nextCursor;
    }
    assert.deepEqual(pages, [under.slice(0, 3), under.slice(3, 6), under.slice(6)]);

    // Folders with the delimiter: names end in "/"; objects keep their metadata.
    r = await files.listV2({ with_delimiter: true });
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.deepEqual(r.data, { hasNext: false, folders: [{ name: 'p/' }], objects: r.data.objects });
    assert.deepEqual(r.data.objects.map((o) => o.name), ['q.pdf']);
    r = await files.listV2({ prefix: 'p/', with_delimiter: true, limit: 4 });
    assert.deepEqual(r.data.objects.map((o) => o.name), ['p/a1.pdf', 'p/a2.pdf', 'p/a3.pdf', 'p/a4.pdf']);
    assert.equal(r.data.hasNext, true);
    const o = r.data.objects[0];
    assert.match(o.id, /^[0-9a-f-]{36}$/);
    assert.equal(o.key, 'a1.pdf');
    assert.equal(o.metadata.size, PDF.length);
    assert.equal(o.metadata.mimetype, 'application/pdf');
    assert.ok(Date.parse(o.created_at) && Date.parse(o.updated_at));
    r = await files.listV2({ prefix: 'p/', with_delimiter: true, limit: 4, cursor: r.data.nextCursor });
    assert.deepEqual(r.data.objects.map((o) => o.name), ['p/a5.pdf']);
    assert.deepEqual(r.data.folders, [{ name: 'p/sub/' }]);
    assert.equal(r.data.hasNext, false);

    // By creation time, newest first, across pages (the cursor keeps the sort).
    r = await files.listV2({ prefix: 'p/', limit: 4, sortBy: { column: 'created_at', order: 'desc' } });
    assert.equal(r.error, null, JSON.stringify(r.error));
    const newest = [...under].reverse();
    assert.deepEqual(r.data.objects.map((o) => o.name), newest.slice(0, 4));
    r = await files.listV2({ prefix: 'p/', limit: 4, cursor: r.data.nextCursor });
    assert.deepEqual(r.data.objects.map((o) => o.name), newest.slice(4));
    assert.equal(r.data.hasNext, false);

    // Refusals: a broken cursor, another organisation.
    r = await files.listV2({ cursor: 'not a cursor' });
    assert.equal(r.error?.statusCode, '400');
    r = await b.client.storage.from(bucket).listV2({});
    assert.equal(r.error?.statusCode, '404');
  });

  it('refusals: another organisation, a type outside the list, the size limit', async () => {
    const a = await onboard(ctx.srv, `Storage A ${rand(4)}`, 'Storage Tester');
    const b = await onboard(ctx.srv, `Storage B ${rand(4)}`, 'Storage Tester');
    const bucket = `secret-${rand(6).toLowerCase()}`;
    let r = await a.client.storage.createBucket(bucket, { fileSizeLimit: 1000, allowedMimeTypes: ['application/pdf'] });
    assert.equal(r.error, null, JSON.stringify(r.error));
    r = await a.client.storage.from(bucket).upload('a.pdf', pdfBlob());
    assert.equal(r.error, null, JSON.stringify(r.error));

    // Another organisation neither sees, reads, signs nor writes.
    const other = b.client.storage;
    r = await other.getBucket(bucket);
    assert.equal(r.error?.statusCode, '404');
    r = await other.listBuckets();
    assert.deepEqual(r.data, []);
    r = await other.from(bucket).download('a.pdf');
    assert.ok(r.error);
    r = await other.from(bucket).createSignedUrl('a.pdf', 60);
    assert.ok(r.error);
    r = await other.from(bucket).upload('b.pdf', pdfBlob());
    assert.equal(r.error?.statusCode, '404');
    r = await other.from(bucket).remove(['a.pdf']);
    assert.ok(r.error);
    r = await a.client.storage.from(bucket).download('a.pdf');
    assert.equal(r.error, null, 'the object survived');

    // A type outside the list, whatever the declared type.
    const html = new Blob(['<html><script>alert(1)</script></html>'], { type: 'application/pdf' });
    r = await a.client.storage.from(bucket).upload('x.pdf', html);
    assert.equal(r.error?.statusCode, '415');
    const png = new Blob([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')], { type: 'image/png' });
    r = await a.client.storage.from(bucket).upload('x.png', png);
    assert.equal(r.error?.statusCode, '415');

    // The bucket's size limit.
    r = await a.client.storage.from(bucket).upload('big.pdf', pdfBlob(2000));
    assert.equal(r.error?.statusCode, '413');
    r = await a.client.storage.from(bucket).list();
    assert.deepEqual(r.data.map((e) => e.name), ['a.pdf']);

    // No token at all: private objects stay private.
    const res = await fetch(`${ctx.srv.url}/storage/v1/object/public/${bucket}/a.pdf`);
    assert.equal(res.status, 400);
    assert.equal((await res.json()).statusCode, '404');
  });
});
