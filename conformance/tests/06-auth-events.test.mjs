// onAuthStateChange: the exact sequence of events supabase-js emits for
// sign-in → token refresh → user update → sign-out.
import assert from 'node:assert/strict';
import { perBackend, confirmedUser, sleep } from '../lib/server.mjs';

perBackend((ctx) => {
  const { it } = ctx;

  it('INITIAL_SESSION, SIGNED_IN, TOKEN_REFRESHED, USER_UPDATED, SIGNED_OUT', async () => {
    const srv = ctx.srv;
    const u = await confirmedUser(srv);
    const c = srv.client();
    const seen = [];
    const { data: { subscription } } = c.auth.onAuthStateChange((event, session) => {
      seen.push({ event, session });
    });
    // INITIAL_SESSION is emitted once the client has initialized
    for (let i = 0; i < 100 && seen.length === 0; i++) await sleep(10);

    const si = await c.auth.signInWithPassword({ email: u.email, password: u.password });
    assert.equal(si.error, null);
    const rf = await c.auth.refreshSession();
    assert.equal(rf.error, null);
    const up = await c.auth.updateUser({ data: { theme: 'dark' } });
    assert.equal(up.error, null);
    const so = await c.auth.signOut();
    assert.equal(so.error, null);
    await sleep(50);
    subscription.unsubscribe();

    assert.deepEqual(seen.map((x) => x.event), ['INITIAL_SESSION', 'SIGNED_IN', 'TOKEN_REFRESHED', 'USER_UPDATED', 'SIGNED_OUT']);
    const [initial, signedIn, refreshed, updated, signedOut] = seen;
    assert.equal(initial.session, null);
    assert.equal(signedIn.session.access_token, si.data.session.access_token);
    assert.equal(signedIn.session.user.id, u.id);
    assert.equal(refreshed.session.refresh_token, rf.data.session.refresh_token);
    assert.notEqual(refreshed.session.refresh_token, si.data.session.refresh_token);
    assert.equal(updated.session.user.user_metadata.theme, 'dark');
    assert.equal(updated.session.refresh_token, rf.data.session.refresh_token);
    assert.equal(signedOut.session, null);

    // the refresh token is dead after sign-out
    const after = await srv.authFetch('/token?grant_type=refresh_token', { method: 'POST', body: { refresh_token: rf.data.session.refresh_token } });
    assert.equal(after.status, 400);
  });

  it('a client created with an existing session emits INITIAL_SESSION with it', async () => {
    const srv = ctx.srv;
    const u = await confirmedUser(srv);
    const a = srv.client();
    const { data } = await a.auth.signInWithPassword({ email: u.email, password: u.password });
    const b = srv.client();
    const set = await b.auth.setSession({ access_token: data.session.access_token, refresh_token: data.session.refresh_token });
    assert.equal(set.error, null);
    const seen = [];
    const { data: { subscription } } = b.auth.onAuthStateChange((event, session) => seen.push({ event, session }));
    for (let i = 0; i < 100 && seen.length === 0; i++) await sleep(10);
    subscription.unsubscribe();
    assert.equal(seen[0]?.event, 'INITIAL_SESSION');
    assert.equal(seen[0].session.user.id, u.id);
    await b.auth.signOut();
  });
});
