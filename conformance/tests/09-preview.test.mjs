// Preview and demo sessions: issued by the server only while the operator
// enables preview, confined to the demo organisation, and read-only.
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { BACKENDS, startServer, perBackend } from '../lib/server.mjs';

const DEMO_REFUSAL = 'Demo mode: writes disabled. This is a read-only preview.';

async function previewSession(srv, role) {
  const r = await fetch(`${srv.url}/api/preview/session`, {
    method: 'POST', headers: { apikey: srv.anonKey, 'Content-Type': 'application/json' }, body: JSON.stringify({ role }),
  });
  return { status: r.status, body: await r.json() };
}

for (const backend of BACKENDS) {
  describe(`${backend} with preview enabled`, () => {
    let srv;
    before(async () => { srv = await startServer(backend, ['--preview']); });
    after(async () => { await srv?.stop(); });

    it('issues a read-only session of the demo organisation', async () => {
      const { status, body } = await previewSession(srv, 'marketer');
      assert.equal(status, 200, `${JSON.stringify(body)}\nserver stderr (tail):\n${srv.stderrTail()}`);
      const c = srv.client();
      const { error } = await c.auth.setSession({ access_token: body.access_token, refresh_token: body.refresh_token });
      assert.equal(error, null);
      const { data: orgs } = await c.from('orgs').select('id, name');
      assert.equal(orgs.length, 1);
      assert.equal(orgs[0].name, 'Demo Pharma');
      assert.match(orgs[0].id, /^00000000-/);
      const { data: members } = await c.from('profiles_v2').select('role').order('role');
      assert.deepEqual(members.map((m) => m.role).sort(), ['admin', 'marketer', 'owner', 'reviewer_legal', 'reviewer_medical', 'reviewer_regulatory', 'viewer']);
      // Every write is refused with the spec's message.
      const upd = await c.from('orgs').update({ name: 'Hacked' }).eq('id', orgs[0].id);
      assert.equal(upd.status, 403);
      assert.equal(upd.error.message, DEMO_REFUSAL);
      const me = await c.auth.updateUser({ data: { x: 1 } });
      assert.equal(me.error?.message, DEMO_REFUSAL);
      const inv = await c.rpc('create_invite', { email: 'x@example.com', role: 'viewer' });
      assert.equal(inv.error?.message, DEMO_REFUSAL);
      // Demo role switches are the one thing recorded: in the audit trail.
      const sw = await c.from('audit_logs_v2').insert({ action: 'demo_role_switched', meta: { role: 'viewer' } });
      assert.equal(sw.error, null, JSON.stringify(sw.error));
      const other = await c.from('audit_logs_v2').insert({ action: 'asset.deleted' });
      assert.equal(other.error?.message, DEMO_REFUSAL);
      // Demo members have no password anyone knows.
      const pw = await srv.client().auth.signInWithPassword({ email: 'marketer@demo.example.com', password: 'Password1' });
      assert.equal(pw.error?.code, 'invalid_credentials');
    });

    it('PRIVATE site access closes the preview', async () => {
      const svc = srv.admin();
      let r = await svc.functions.invoke('security-manager', { body: { action: 'UPDATE_SETTINGS', settings: { site_access_mode: 'PRIVATE' } } });
      assert.equal(r.error, null, JSON.stringify(r.error));
      const closed = await previewSession(srv, 'viewer');
      assert.equal(closed.status, 403);
      assert.equal(closed.body.error_code, 'site_private');
      r = await svc.functions.invoke('security-manager', { body: { action: 'UPDATE_SETTINGS', settings: { site_access_mode: 'PUBLIC' } } });
      assert.equal(r.error, null);
      assert.equal((await previewSession(srv, 'viewer')).status, 200);
    });

    it('demo data is seeded once', async () => {
      await previewSession(srv, 'viewer');
      const { body } = await previewSession(srv, 'admin');
      const c = srv.client();
      await c.auth.setSession({ access_token: body.access_token, refresh_token: body.refresh_token });
      const { data } = await c.from('profiles_v2').select('id');
      assert.equal(data.length, 7);
    });
  });
}

perBackend((ctx) => {
  ctx.it('without preview enabled, no demo session is issued', async () => {
    const { status, body } = await previewSession(ctx.srv, 'admin');
    assert.equal(status, 404);
    assert.equal(body.error_code, 'preview_disabled');
  });
});
