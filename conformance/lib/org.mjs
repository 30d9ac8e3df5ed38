// Organisations and their members as the suites arrange them through
// supabase-js: a confirmed, signed-in member; an organisation with its
// creator as admin; a member of it with a role, by invitation.
import assert from 'node:assert/strict';
import { confirmedUser, signedIn, decodeJwt } from './server.mjs';

/**
 * A confirmed, signed-in user: { email, password, client, session, uid }.
 * `who` is their full name, or the user metadata to sign up with; without
 * it the user has no name.
 */
export async function member(srv, who) {
  const data = typeof who === 'string' ? { full_name: who } : who;
  const u = await confirmedUser(srv, { data });
  const { client, session } = await signedIn(srv, u.email, u.password);
  return { ...u, client, session, uid: decodeJwt(session.access_token).payload.sub };
}

/** An organisation named `name` whose creator (`adminName`, Ada Admin unless given) is its admin. */
export async function onboard(srv, name, adminName = 'Ada Admin') {
  const m = await member(srv, adminName);
  const { data: org, error } = await m.client.from('orgs').insert({ name }).select().single();
  assert.equal(error, null, JSON.stringify(error));
  let r = await m.client.from('profiles_v2').update({ org_id: org.id }).eq('id', m.uid);
  assert.equal(r.error, null, JSON.stringify(r.error));
  r = await m.client.from('profiles_v2').update({ role: 'admin' }).eq('id', m.uid);
  assert.equal(r.error, null, JSON.stringify(r.error));
  return { ...m, org };
}

/** A member of admin's organisation with `role`, by invitation. */
export async function invited(srv, admin, role, name) {
  const m = await member(srv, name);
  const { data: inv, error } = await admin.client.rpc('create_invite', { email: m.email, role });
  assert.equal(error, null, JSON.stringify(error));
  const ok = await m.client.rpc('accept_invite', { token: inv.token });
  assert.equal(ok.data?.success, true, JSON.stringify(ok));
  return m;
}

/** The data of a supabase-js result, failing on its error. */
export function ok(r) {
  assert.equal(r.error, null, JSON.stringify(r.error));
  return r.data;
}
