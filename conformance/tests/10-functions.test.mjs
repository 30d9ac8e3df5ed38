// The three server functions through supabase-js's functions.invoke:
// open status calls, admin-only settings, demo data, and error objects.
import assert from 'node:assert/strict';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { perBackend, confirmedUser, signedIn, decodeJwt } from '../lib/server.mjs';

async function admin(srv) {
  const u = await confirmedUser(srv);
  const { client, session } = await signedIn(srv, u.email, u.password);
  const uid = decodeJwt(session.access_token).payload.sub;
  const { data: org } = await client.from('orgs').insert({ name: 'Theta Pharma' }).select().single();
  await client.from('profiles_v2').update({ org_id: org.id }).eq('id', uid);
  const r = await client.from('profiles_v2').update({ role: 'admin' }).eq('id', uid);
  assert.equal(r.error, null, JSON.stringify(r.error));
  return { ...u, client };
}

perBackend((ctx) => {
  const { it } = ctx;

  it('db-recovery status calls are open', async () => {
    const c = ctx.srv.client();
    const { data, error } = await c.functions.invoke('db-recovery', { body: { action: 'GET_USER_COUNT' } });
    assert.equal(error, null);
    assert.equal(data.success, true);
    assert.equal(typeof data.count, 'number');
    const st = await c.functions.invoke('db-recovery', { body: { action: 'GET_DB_STATUS' } });
    assert.equal(st.data.backend, ctx.srv.backend === 'postgres' ? 'postgres' : 'sqlite');
    assert.equal(st.data.healthy, true);
  });

  it('security-manager: administrators only; block indexing takes effect', async () => {
    const a = await admin(ctx.srv);
    const m = await confirmedUser(ctx.srv);
    const { client: member } = await signedIn(ctx.srv, m.email, m.password);
    const refused = await member.functions.invoke('security-manager', { body: { action: 'GET_SETTINGS' } });
    assert.ok(refused.error instanceof FunctionsHttpError, `got ${refused.error?.name}`);
    assert.equal(refused.error.context.status, 403);
    const body = await refused.error.context.json();
    assert.equal(body.success, false);

    const got = await a.client.functions.invoke('security-manager', { body: { action: 'GET_SETTINGS' } });
    assert.equal(got.error, null, JSON.stringify(got.error));
    assert.equal(got.data.settings.block_indexing, false);
    assert.equal('preview_passcode_hash' in got.data.settings, false);
    const upd = await a.client.functions.invoke('security-manager', { body: { action: 'UPDATE_SETTINGS', settings: { block_indexing: true } } });
    assert.equal(upd.error, null, JSON.stringify(upd.error));
    const robots = await fetch(`${ctx.srv.url}/robots.txt`);
    assert.match(await robots.text(), /Disallow: \//);
    assert.match(robots.headers.get('x-robots-tag') ?? '', /noindex/);
    await a.client.functions.invoke('security-manager', { body: { action: 'UPDATE_SETTINGS', settings: { block_indexing: false } } });
  });

  it('demo-data-manager: check, seed and remove exactly the demo data', async () => {
    const a = await admin(ctx.srv);
    let r = await ctx.srv.client().functions.invoke('demo-data-manager', { body: { action: 'CHECK_DEMO_DATA' } });
    assert.equal(r.data.hasDemo, false);
    const denied = await ctx.srv.client().functions.invoke('demo-data-manager', { body: { action: 'SEED_DEMO_DATA' } });
    assert.ok(denied.error instanceof FunctionsHttpError);
    r = await a.client.functions.invoke('demo-data-manager', { body: { action: 'SEED_DEMO_DATA' } });
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.deepEqual([r.data.success, r.data.details.organizations, r.data.details.users], [true, 1, 7]);
    const before = await ctx.srv.admin().auth.admin.listUsers({ page: 1, perPage: 1000 });
    r = await a.client.functions.invoke('demo-data-manager', { body: { action: 'REMOVE_DEMO_DATA' } });
    assert.equal(r.data.message, 'All demo data has been successfully removed');
    const after = await ctx.srv.admin().auth.admin.listUsers({ page: 1, perPage: 1000 });
    assert.equal(after.data.users.length, before.data.users.length - 7);
    assert.ok(after.data.users.some((u) => u.email === a.email), 'a real account was removed');
    r = await ctx.srv.client().functions.invoke('demo-data-manager', { body: { action: 'CHECK_DEMO_DATA' } });
    assert.equal(r.data.hasDemo, false);
  });

  it('unknown functions and actions are FunctionsHttpError with a JSON body', async () => {
    const c = ctx.srv.client();
    const nf = await c.functions.invoke('no-such-function', { body: {} });
    assert.ok(nf.error instanceof FunctionsHttpError);
    assert.equal(nf.error.context.status, 404);
    const bad = await c.functions.invoke('db-recovery', { body: { action: 'DROP_EVERYTHING' } });
    assert.equal(bad.error.context.status, 400);
    assert.equal((await bad.error.context.json()).success, false);
  });
});
