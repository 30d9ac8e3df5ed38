// signOut with scope 'others', 'local' and 'global' across several sessions of one user.
import assert from 'node:assert/strict';
import { perBackend, confirmedUser, signedIn, refreshRaw, decodeJwt } from '../lib/server.mjs';

perBackend((ctx) => {
  const { it } = ctx;

  // A refresh token "works" when it can be exchanged. Live clients are checked
  // through the client itself so their stored session stays current.
  async function clientRefreshes(c) {
    const { data, error } = await c.auth.refreshSession();
    return !error && !!data.session;
  }
  async function refreshFails(srv, token) {
    const r = await refreshRaw(srv, token);
    assert.equal(r.status, 400, `refresh should fail: ${JSON.stringify(r.body)}`);
    return r.body.code;
  }
  async function userStatus(srv, accessToken) {
    const r = await srv.authFetch('/user', { token: accessToken });
    return { status: r.status, body: await r.json() };
  }

  it("signOut({ scope: 'others' }) ends every other session and keeps this one", async () => {
    const srv = ctx.srv;
    const u = await confirmedUser(srv);
    const a = await signedIn(srv, u.email, u.password);
    const b = await signedIn(srv, u.email, u.password);
    const c = await signedIn(srv, u.email, u.password);
    const sessionIds = [a, b, c].map((x) => decodeJwt(x.session.access_token).payload.session_id);
    assert.equal(new Set(sessionIds).size, 3, 'three distinct sessions');

    const { error } = await a.client.auth.signOut({ scope: 'others' });
    assert.equal(error, null);
    // the local session is kept for 'others'
    const local = await a.client.auth.getSession();
    assert.ok(local.data.session, 'session kept locally');
    assert.ok(await clientRefreshes(a.client), 'this session still refreshes');
    assert.equal(await refreshFails(srv, b.session.refresh_token), 'refresh_token_not_found');
    assert.equal(await refreshFails(srv, c.session.refresh_token), 'refresh_token_not_found');
    // the other sessions' access tokens are refused by GET /user
    const bu = await userStatus(srv, b.session.access_token);
    assert.equal(bu.status, 403);
    assert.equal(bu.body.code, 'session_not_found');
    assert.equal((await userStatus(srv, (await a.client.auth.getSession()).data.session.access_token)).status, 200);
    await a.client.auth.signOut();
  });

  it("signOut({ scope: 'local' }) ends only this session", async () => {
    const srv = ctx.srv;
    const u = await confirmedUser(srv);
    const a = await signedIn(srv, u.email, u.password);
    const b = await signedIn(srv, u.email, u.password);
    const c = await signedIn(srv, u.email, u.password);

    const { error } = await b.client.auth.signOut({ scope: 'local' });
    assert.equal(error, null);
    assert.equal((await b.client.auth.getSession()).data.session, null, 'local session cleared');
    assert.equal(await refreshFails(srv, b.session.refresh_token), 'refresh_token_not_found');
    const bu = await userStatus(srv, b.session.access_token);
    assert.equal(bu.status, 403);
    assert.equal(bu.body.code, 'session_not_found');
    assert.ok(await clientRefreshes(a.client), 'first session still refreshes');
    assert.ok(await clientRefreshes(c.client), 'third session still refreshes');
    await a.client.auth.signOut();
  });

  it("signOut({ scope: 'global' }) (and the default) ends every session of the user", async () => {
    const srv = ctx.srv;
    const u = await confirmedUser(srv);
    const other = await confirmedUser(srv);
    const a = await signedIn(srv, u.email, u.password);
    const b = await signedIn(srv, u.email, u.password);
    const c = await signedIn(srv, u.email, u.password);
    const o = await signedIn(srv, other.email, other.password);

    const { error } = await c.client.auth.signOut({ scope: 'global' });
    assert.equal(error, null);
    assert.equal((await c.client.auth.getSession()).data.session, null, 'local session cleared');
    for (const x of [a, b, c]) {
      assert.equal(await refreshFails(srv, x.session.refresh_token), 'refresh_token_not_found');
      const r = await userStatus(srv, x.session.access_token);
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'session_not_found');
    }
    // another user's session is untouched
    assert.ok(await clientRefreshes(o.client), "another user's session still refreshes");

    // signOut() with no scope is global
    const d = await signedIn(srv, u.email, u.password);
    const e = await signedIn(srv, u.email, u.password);
    assert.equal((await e.client.auth.signOut()).error, null);
    assert.equal(await refreshFails(srv, d.session.refresh_token), 'refresh_token_not_found');
    assert.equal(await refreshFails(srv, e.session.refresh_token), 'refresh_token_not_found');
    assert.ok(await clientRefreshes(o.client), "another user's session still refreshes");

    // the raw endpoint answers 204 with no body, and refuses an unknown scope
    const f = await signedIn(srv, u.email, u.password);
    const bad = await srv.authFetch('/logout?scope=everything', { method: 'POST', token: f.session.access_token });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).code, 'validation_failed');
    const ok = await srv.authFetch('/logout?scope=local', { method: 'POST', token: f.session.access_token });
    assert.equal(ok.status, 204);
    assert.equal(await ok.text(), '');
    await o.client.auth.signOut();
  });
});
