// Error objects as supabase-js builds them from the server's answers, and the
// raw error shapes behind them.
import assert from 'node:assert/strict';
import { AuthApiError, AuthWeakPasswordError, isAuthApiError, isAuthWeakPasswordError } from '@supabase/supabase-js';
import { perBackend, confirmedUser, uniqueEmail, strongPassword } from '../lib/server.mjs';

perBackend((ctx) => {
  const { it } = ctx;

  it('wrong password and unknown user → AuthApiError invalid_credentials, 400', async () => {
    const srv = ctx.srv;
    const u = await confirmedUser(srv);
    for (const creds of [
      { email: u.email, password: `${u.password}x` },
      { email: uniqueEmail('nobody'), password: strongPassword() },
    ]) {
      const { data, error } = await srv.client().auth.signInWithPassword(creds);
      assert.equal(data.session, null);
      assert.equal(data.user, null);
      assert.ok(error instanceof AuthApiError, `AuthApiError, got ${error?.name}`);
      assert.ok(isAuthApiError(error));
      assert.equal(error.name, 'AuthApiError');
      assert.equal(error.code, 'invalid_credentials');
      assert.equal(error.status, 400);
      assert.equal(error.message, 'Invalid login credentials');
    }
  });

  it('weak password at sign-up → AuthWeakPasswordError with reasons, 422', async () => {
    const srv = ctx.srv;
    const email = uniqueEmail('weak');
    const { data, error } = await srv.client().auth.signUp({ email, password: '123' });
    assert.equal(data.user, null);
    assert.equal(data.session, null);
    assert.ok(error instanceof AuthWeakPasswordError, `AuthWeakPasswordError, got ${error?.name}`);
    assert.ok(isAuthWeakPasswordError(error));
    assert.equal(error.code, 'weak_password');
    assert.equal(error.status, 422);
    assert.ok(Array.isArray(error.reasons) && error.reasons.length > 0, `reasons: ${error.reasons}`);
    assert.ok(error.reasons.includes('length'), `reasons: ${error.reasons}`);
    // nothing was created, nothing was sent
    assert.deepEqual(await srv.mail(email), []);

    // the raw answer
    const r = await srv.authFetch('/signup', { method: 'POST', body: { email, password: '123' } });
    assert.equal(r.status, 422);
    const body = await r.json();
    assert.equal(body.code, 'weak_password');
    assert.ok(body.weak_password.reasons.includes('length'));
  });

  it('weak password in updateUser → AuthWeakPasswordError', async () => {
    const srv = ctx.srv;
    const u = await confirmedUser(srv);
    const c = srv.client();
    await c.auth.signInWithPassword({ email: u.email, password: u.password });
    const { error } = await c.auth.updateUser({ password: '1' });
    assert.ok(error instanceof AuthWeakPasswordError, `AuthWeakPasswordError, got ${error?.name}`);
    assert.equal(error.status, 422);
    assert.ok(error.reasons.includes('length'));
    await c.auth.signOut();
  });

  it('malformed JSON → 400 bad_json (new and legacy error shapes)', async () => {
    const srv = ctx.srv;
    const r = await srv.authFetch('/token?grant_type=password', { method: 'POST', body: '{"email": "a@example.com", ', raw: true });
    assert.equal(r.status, 400);
    assert.equal(r.headers.get('x-supabase-api-version'), '2024-01-01');
    const body = await r.json();
    assert.equal(body.code, 'bad_json');
    assert.equal(typeof body.message, 'string');
    assert.ok(body.message.startsWith('Could not parse request body as JSON'), body.message);

    // without X-Supabase-Api-Version the legacy shape: { code: <status>, error_code, msg }
    const legacy = await fetch(`${srv.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: srv.anonKey, Authorization: `Bearer ${srv.anonKey}`, 'Content-Type': 'application/json' },
      body: 'not json',
    });
    assert.equal(legacy.status, 400);
    const lb = await legacy.json();
    assert.equal(lb.code, 400);
    assert.equal(lb.error_code, 'bad_json');
    assert.equal(typeof lb.msg, 'string');
  });

  it('other errors: missing or wrong token, missing API key, unknown grant, session missing after sign-out', async () => {
    const srv = ctx.srv;
    // a non-Bearer Authorization header
    const basic = await fetch(`${srv.url}/auth/v1/user`, {
      headers: { apikey: srv.anonKey, Authorization: 'Basic Zm9vOmJhcg==', 'X-Supabase-Api-Version': '2024-01-01' },
    });
    assert.equal(basic.status, 401);
    assert.equal((await basic.json()).code, 'no_authorization');
    // the anon key as the Bearer token (also what the gateway makes of a request with no
    // Authorization header): a JWT without sub
    for (const headers of [{ Authorization: `Bearer ${srv.anonKey}` }, {}]) {
      const r = await fetch(`${srv.url}/auth/v1/user`, { headers: { apikey: srv.anonKey, 'X-Supabase-Api-Version': '2024-01-01', ...headers } });
      assert.equal(r.status, 403);
      assert.equal((await r.json()).code, 'bad_jwt');
    }
    // no API key at all
    const noKey = await fetch(`${srv.url}/auth/v1/user`);
    assert.equal(noKey.status, 401);
    assert.equal((await noKey.json()).message, 'No API key found in request');

    const grant = await srv.authFetch('/token?grant_type=magic', { method: 'POST', body: {} });
    assert.equal(grant.status, 400);
    assert.equal((await grant.json()).code, 'invalid_credentials');

    const u = await confirmedUser(srv);
    const a = srv.client();
    const { data } = await a.auth.signInWithPassword({ email: u.email, password: u.password });
    // a global sign-out from another client ends this session too
    const b = srv.client();
    await b.auth.signInWithPassword({ email: u.email, password: u.password });
    await b.auth.signOut({ scope: 'global' });
    const gu = await a.auth.getUser();
    assert.equal(gu.data.user, null);
    assert.equal(gu.error?.name, 'AuthSessionMissingError');
    const raw = await srv.authFetch('/user', { token: data.session.access_token });
    assert.equal(raw.status, 403);
    assert.equal((await raw.json()).code, 'session_not_found');
  });

  it('sign-up of an already confirmed address returns an obfuscated user, no session', async () => {
    const srv = ctx.srv;
    const u = await confirmedUser(srv);
    const { data, error } = await srv.client().auth.signUp({ email: u.email, password: strongPassword() });
    assert.equal(error, null);
    assert.equal(data.session, null);
    assert.ok(data.user);
    assert.notEqual(data.user.id, u.id);
    assert.deepEqual(data.user.identities, []);
  });
});
