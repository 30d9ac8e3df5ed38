// The data API (/rest/v1) through the unmodified supabase-js client: the
// spec's onboarding calls, row policies across organisations, filters,
// counting, singular responses and PostgREST's error objects.
import assert from 'node:assert/strict';
import { perBackend, confirmedUser, signedIn, decodeJwt } from '../lib/server.mjs';

async function member(srv, data) {
  const u = await confirmedUser(srv, { data });
  const { client, session } = await signedIn(srv, u.email, u.password);
  return { ...u, client, uid: decodeJwt(session.access_token).payload.sub };
}

// Onboarding as the spec's data calls do it: create an organisation, join
// it, become its admin.
async function onboard(srv, name) {
  const m = await member(srv, { first_name: 'Ada', last_name: name });
  const { data: org, error } = await m.client.from('orgs').insert({ name }).select().single();
  assert.equal(error, null, JSON.stringify(error));
  assert.equal(org.name, name);
  let r = await m.client.from('profiles_v2').update({ org_id: org.id }).eq('id', m.uid);
  assert.equal(r.error, null, JSON.stringify(r.error));
  assert.equal(r.status, 204);
  r = await m.client.from('profiles_v2').update({ role: 'admin', full_name: `Ada ${name}` }).eq('id', m.uid);
  assert.equal(r.error, null, JSON.stringify(r.error));
  return { ...m, org };
}

perBackend((ctx) => {
  const { it } = ctx;

  it('onboarding: insert org returning the row, join it, first admin, read back', async () => {
    const a = await onboard(ctx.srv, 'Acme Pharma');
    const { data: me, error } = await a.client.from('profiles_v2').select('org_id, role').eq('id', a.uid).single();
    assert.equal(error, null);
    assert.deepEqual(me, { org_id: a.org.id, role: 'admin' });
    const { data: admins } = await a.client.from('profiles_v2').select('id, role').eq('role', 'admin');
    assert.deepEqual(admins.map((p) => p.id), [a.uid]);
    const { data: named } = await a.client.from('profiles_v2').select('full_name, role, avatar_url').eq('id', a.uid).maybeSingle();
    assert.equal(named.full_name, 'Ada Acme Pharma');
    // Embedding one level: the organisation of a profile and the members of an organisation.
    const { data: withOrg } = await a.client.from('profiles_v2').select('id, orgs(name)').eq('id', a.uid).single();
    assert.deepEqual(withOrg.orgs, { name: 'Acme Pharma' });
    const { data: orgs } = await a.client.from('orgs').select('name, members:profiles_v2(full_name)');
    assert.deepEqual(orgs, [{ name: 'Acme Pharma', members: [{ full_name: 'Ada Acme Pharma' }] }]);
  });

  it('one organisation never sees or changes another', async () => {
    const a = await onboard(ctx.srv, 'Alpha Bio');
    const b = await onboard(ctx.srv, 'Beta Med');
    const { data: seen } = await b.client.from('orgs').select('id');
    assert.deepEqual(seen.map((o) => o.id), [b.org.id]);
    const single = await b.client.from('orgs').select('*').eq('id', a.org.id).single();
    assert.equal(single.error.code, 'PGRST116');
    assert.equal(single.status, 406);
    const { data: profiles } = await b.client.from('profiles_v2').select('id').eq('id', a.uid);
    assert.deepEqual(profiles, []);
    // Writing another organisation's rows affects nothing.
    const upd = await b.client.from('profiles_v2').update({ full_name: 'Hijacked' }).eq('id', a.uid).select();
    assert.equal(upd.error, null);
    assert.deepEqual(upd.data, []);
    const { data: still } = await a.client.from('profiles_v2').select('full_name').eq('id', a.uid).single();
    assert.equal(still.full_name, 'Ada Alpha Bio');
    // Joining someone else's organisation by writing the column is refused.
    const c = await member(ctx.srv);
    const join = await c.client.from('profiles_v2').update({ org_id: a.org.id }).eq('id', c.uid);
    assert.equal(join.error?.code, '42501');
    assert.equal(join.status, 403);
    // Nobody raises their own role once admins exist.
    const raise = await c.client.from('profiles_v2').update({ role: 'admin' }).eq('id', c.uid);
    assert.equal(raise.error?.code, '42501');
    // The anon key reaches nothing of any organisation.
    const anon = await ctx.srv.client().from('orgs').select('*');
    assert.equal(anon.error?.code, '42501');
    assert.equal(anon.status, 401);
  });

  it('filters, ordering, paging and exact counts', async () => {
    const a = await onboard(ctx.srv, 'Gamma Health');
    const svc = ctx.srv.admin();
    // Members of the organisation, created with the service role (full rights).
    for (const [i, role] of ['marketer', 'viewer', 'reviewer_legal', 'viewer'].entries()) {
      const u = await confirmedUser(ctx.srv, { data: { full_name: `Member ${i}` } });
      const r = await svc.from('profiles_v2').update({ org_id: a.org.id, role }).eq('id', u.id);
      assert.equal(r.error, null, JSON.stringify(r.error));
    }
    const c = a.client.from('profiles_v2');
    let r = await c.select('full_name', { count: 'exact' }).eq('role', 'viewer').order('full_name', { ascending: false });
    assert.deepEqual(r.data.map((p) => p.full_name), ['Member 3', 'Member 1']);
    assert.equal(r.count, 2);
    r = await a.client.from('profiles_v2').select('full_name', { count: 'exact' }).order('full_name').range(1, 2);
    assert.equal(r.count, 5);
    assert.equal(r.status, 206);
    assert.deepEqual(r.data.map((p) => p.full_name), ['Member 0', 'Member 1']);
    r = await a.client.from('profiles_v2').select('role').in('role', ['marketer', 'reviewer_legal']).order('role');
    assert.deepEqual(r.data, [{ role: 'marketer' }, { role: 'reviewer_legal' }]);
    r = await a.client.from('profiles_v2').select('full_name').or('role.eq.admin,full_name.ilike.*ber 2');
    assert.deepEqual(r.data.map((p) => p.full_name).sort(), ['Ada Gamma Health', 'Member 2']);
    r = await a.client.from('profiles_v2').select('full_name').not('role', 'in', '(viewer,admin)').order('full_name');
    assert.deepEqual(r.data.map((p) => p.full_name), ['Member 0', 'Member 2']);
    const head = await a.client.from('profiles_v2').select('*', { count: 'exact', head: true });
    assert.equal(head.count, 5);
    assert.equal(head.data, null);
  });

  it("PostgREST's errors", async () => {
    const a = await onboard(ctx.srv, 'Delta Labs');
    let r = await a.client.from('no_such_table').select('*');
    assert.equal(r.error.code, 'PGRST205');
    assert.equal(r.status, 404);
    r = await a.client.from('orgs').select('id, nope');
    assert.equal(r.error.code, '42703');
    assert.equal(r.status, 400);
    r = await a.client.from('profiles_v2').delete();
    assert.equal(r.error.code, '21000');
    r = await a.client.from('profiles_v2').update({ full_name: 'x' });
    assert.equal(r.error.code, '21000');
    r = await a.client.from('orgs').insert({ name: 'Another' });
    assert.equal(r.error.code, '42501'); // one organisation per member
    r = await a.client.from('profiles_v2').update({ no_column: 1 }).eq('id', a.uid);
    assert.equal(r.error.code, 'PGRST204');
    r = await a.client.from('profiles_v2').select('*').eq('created_at', 'not a time');
    assert.equal(r.error.code, '22P02');
    r = await a.client.from('profiles_v2').select('*').filter('role', 'bogus', 'x');
    assert.equal(r.error.code, 'PGRST100');
    r = await a.client.from('profiles_v2').update({ role: 'emperor' }).eq('id', a.uid);
    assert.equal(r.error.code, '23514');
    // A filter value is never SQL.
    r = await a.client.from('profiles_v2').select('id').eq('full_name', "x' OR '1'='1");
    assert.deepEqual(r.data, []);
  });

  it('invitations: create_invite, get_invite, accept_invite', async () => {
    const a = await onboard(ctx.srv, 'Epsilon Rx');
    const invitee = await confirmedUser(ctx.srv);
    const { data: inv, error } = await a.client.rpc('create_invite', { email: invitee.email, role: 'reviewer_medical' });
    assert.equal(error, null, JSON.stringify(error));
    assert.equal(inv.role, 'reviewer_medical');
    assert.ok(inv.token.length >= 32);
    // Anyone holding the token may read only the e-mail and the role.
    const look = await ctx.srv.client().rpc('get_invite', { token: inv.token });
    assert.deepEqual(look.data, { email: invitee.email, role: 'reviewer_medical' });
    const bad = await ctx.srv.client().rpc('get_invite', { token: 'nope' });
    assert.equal(bad.error.message, 'Invalid invite token');
    // Invitations are listed only to the organisation's administrators,
    // and never with their token.
    const list = await ctx.srv.client().from('invites').select('*');
    assert.equal(list.error.code, '42501');
    const mine = await a.client.from('invites').select('*');
    assert.equal(mine.error, null);
    assert.deepEqual(mine.data.map((i) => i.email), [invitee.email]);
    assert.ok(mine.data.every((i) => !Object.keys(i).some((k) => k.includes('token'))));
    // Someone else cannot use the invitation.
    const other = await member(ctx.srv);
    const wrong = await other.client.rpc('accept_invite', { token: inv.token });
    assert.equal(wrong.data.success, false);
    // The invitee joins with the invitation's role, once.
    const { client } = await signedIn(ctx.srv, invitee.email, invitee.password);
    const ok = await client.rpc('accept_invite', { token: inv.token });
    assert.deepEqual(ok.data, { success: true, error: null, role: 'reviewer_medical' });
    const { data: me } = await client.from('profiles_v2').select('org_id, role').eq('id', invitee.id).single();
    assert.deepEqual(me, { org_id: a.org.id, role: 'reviewer_medical' });
    const again = await client.rpc('accept_invite', { token: inv.token });
    assert.deepEqual(again.data, { success: false, error: 'Invalid invite token' });
    // Only administrators invite; unknown functions are PostgREST's 404.
    const refused = await client.rpc('create_invite', { email: 'x@example.com', role: 'viewer' });
    assert.equal(refused.error.code, '42501');
    const missing = await client.rpc('no_such_function', {});
    assert.equal(missing.error.code, 'PGRST202');
  });

  it("onboarding audit entries, written as the spec's client writes them", async () => {
    const a = await onboard(ctx.srv, 'Zeta Care');
    const rows = [
      { action: 'organization_created', actor_id: a.uid, org_id: a.org.id, object_type: 'organization', object_id: a.org.id, meta: { organization_name: 'Zeta Care', industry: 'pharma' } },
      { action: 'user_invited', actor_id: a.uid, org_id: a.org.id, object_type: 'user_invite', meta: { invited_email: 'x@example.com', invited_role: 'marketer', invitation_method: 'onboarding_wizard' } },
      { action: 'onboarding_completed', actor_id: a.uid, org_id: a.org.id, meta: { completed_steps: ['organization_setup', 'user_invites'] } },
    ];
    for (const row of rows) {
      const { error } = await a.client.from('audit_logs_v2').insert(row);
      assert.equal(error, null, JSON.stringify(error));
    }
    // A forged actor or organisation in the body is replaced by the caller's.
    const other = await onboard(ctx.srv, 'Eta Pharma');
    await a.client.from('audit_logs_v2').insert({ action: 'forged', actor_id: other.uid, org_id: other.org.id });
    const { data } = await a.client.from('audit_logs_v2').select('action, actor_id, org_id, meta').order('id', { ascending: false }).limit(4);
    assert.deepEqual(data.map((e) => e.action), ['forged', 'onboarding_completed', 'user_invited', 'organization_created']);
    for (const e of data) {
      assert.equal(e.actor_id, a.uid);
      assert.equal(e.org_id, a.org.id);
    }
    assert.deepEqual(data[3].meta, { industry: 'pharma', organization_name: 'Zeta Care' });
    // The other organisation's trail holds only its own onboarding.
    const { data: theirs } = await other.client.from('audit_logs_v2').select('action, actor_id');
    assert.deepEqual(theirs.map((e) => e.action).sort(), ['orgs.insert', 'profiles_v2.update', 'profiles_v2.update']);
    assert.ok(theirs.every((e) => e.actor_id === other.uid));
    // The older shape reads the same trail; nothing in it can be changed.
    const { data: old } = await a.client.from('audit_logs').select('action, actor_user_id, entity_type').eq('action', 'organization_created').single();
    assert.deepEqual(old, { action: 'organization_created', actor_user_id: a.uid, entity_type: 'organization' });
    const upd = await a.client.from('audit_logs_v2').update({ action: 'rewritten' }).eq('action', 'forged');
    assert.equal(upd.error.code, '42501');
    const del = await a.client.from('audit_logs').delete().eq('action', 'forged');
    assert.equal(del.error.code, '42501');
  });

  it('client entries are marked client-reported and may not use the server\'s actions', async () => {
    const a = await onboard(ctx.srv, 'Theta Labs');
    const { data: mine, error } = await a.client.from('audit_logs_v2').insert({ action: 'demo_role_switched', meta: { role: 'viewer' } }).select('action, client_reported').single();
    assert.equal(error, null, JSON.stringify(error));
    assert.deepEqual(mine, { action: 'demo_role_switched', client_reported: true });
    for (const [table, action] of [['audit_logs_v2', 'asset_approved'], ['audit_logs_v2', 'product_created'], ['audit_logs', 'orgs.update'], ['audit_logs', 'audit_chain_verified']]) {
      const res = await a.client.from(table).insert({ action });
      assert.equal(res.status, 403, `${table} ${action}`);
      assert.equal(res.error.code, '42501');
      assert.match(res.error.message, new RegExp(`"${action.replace('.', '\\.')}" is recorded only by the server`));
    }
    const { data: server } = await a.client.from('audit_logs_v2').select('action, client_reported').eq('action', 'orgs.insert').single();
    assert.deepEqual(server, { action: 'orgs.insert', client_reported: false });
  });
});
