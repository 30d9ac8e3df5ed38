// Password recovery: resetPasswordForEmail → e-mail → verifyOtp (token_hash, or
// e-mail + 6-digit code) → updateUser({ password }) → sign-in with the new password.
import assert from 'node:assert/strict';
import { perBackend, confirmedUser, strongPassword, uniqueEmail, decodeJwt } from '../lib/server.mjs';

perBackend((ctx) => {
  const { it } = ctx;

  async function requestRecovery(srv, email) {
    const c = srv.client();
    const { data, error } = await c.auth.resetPasswordForEmail(email);
    assert.equal(error, null);
    assert.deepEqual(data, {});
    const mail = await srv.waitMail(email, (m) => m.kind === 'recovery');
    assert.equal(mail.type, 'recovery');
    assert.ok(mail.tokenHash);
    assert.match(mail.code, /^\d{6}$/);
    return mail;
  }

  async function changePasswordAndCheck(srv, c, u) {
    const newPassword = strongPassword();
    const up = await c.auth.updateUser({ password: newPassword });
    assert.equal(up.error, null);
    assert.equal(up.data.user.id, u.id);

    const fresh = srv.client();
    const ok = await fresh.auth.signInWithPassword({ email: u.email, password: newPassword });
    assert.equal(ok.error, null);
    assert.equal(ok.data.user.id, u.id);
    const old = await srv.client().auth.signInWithPassword({ email: u.email, password: u.password });
    assert.equal(old.data.session, null);
    assert.equal(old.error?.name, 'AuthApiError');
    assert.equal(old.error.code, 'invalid_credentials');
    assert.equal(old.error.status, 400);
    await fresh.auth.signOut();
  }

  it("verifyOtp({ token_hash, type: 'recovery' }) from the recovery link", async () => {
    const srv = ctx.srv;
    const u = await confirmedUser(srv);
    const mail = await requestRecovery(srv, u.email);

    const c = srv.client();
    const events = [];
    c.auth.onAuthStateChange((event) => events.push(event));
    const v = await c.auth.verifyOtp({ token_hash: mail.tokenHash, type: 'recovery' });
    assert.equal(v.error, null);
    assert.ok(v.data.session, 'a session');
    assert.equal(v.data.user.id, u.id);
    const claims = decodeJwt(v.data.session.access_token).payload;
    assert.equal(claims.sub, u.id);
    assert.equal(claims.amr[0].method, 'otp', JSON.stringify(claims.amr));
    assert.ok(events.includes('PASSWORD_RECOVERY'), `events: ${events}`);

    // the hash is single use
    const again = await srv.client().auth.verifyOtp({ token_hash: mail.tokenHash, type: 'recovery' });
    assert.equal(again.error?.code, 'otp_expired');
    assert.equal(again.error?.status, 403);

    await changePasswordAndCheck(srv, c, u);
  });

  it("verifyOtp({ email, token: <6-digit code>, type: 'recovery' })", async () => {
    const srv = ctx.srv;
    const u = await confirmedUser(srv);
    const mail = await requestRecovery(srv, u.email);

    // a wrong code is refused
    const wrong = String((Number(mail.code) + 1) % 1_000_000).padStart(6, '0');
    const bad = await srv.client().auth.verifyOtp({ email: u.email, token: wrong, type: 'recovery' });
    assert.equal(bad.error?.code, 'otp_expired');
    assert.equal(bad.error?.status, 403);

    const c = srv.client();
    const v = await c.auth.verifyOtp({ email: u.email, token: mail.code, type: 'recovery' });
    assert.equal(v.error, null);
    assert.ok(v.data.session);
    assert.equal(v.data.user.id, u.id);

    await changePasswordAndCheck(srv, c, u);
  });

  it('the recovery link (GET /verify) signs in through the redirect', async () => {
    const srv = ctx.srv;
    const u = await confirmedUser(srv);
    const mail = await requestRecovery(srv, u.email);
    const res = await fetch(mail.link, { redirect: 'manual' });
    assert.equal(res.status, 303);
    const frag = new URLSearchParams(res.headers.get('location').split('#')[1]);
    assert.equal(frag.get('type'), 'recovery');
    assert.ok(frag.get('access_token'));
    assert.ok(frag.get('refresh_token'));
    // the client adopts the tokens from the link
    const c = srv.client();
    const s = await c.auth.setSession({ access_token: frag.get('access_token'), refresh_token: frag.get('refresh_token') });
    assert.equal(s.error, null);
    assert.equal(s.data.user.id, u.id);
    await changePasswordAndCheck(srv, c, u);
  });

  // Contract 2.5, POST /verify: "200 Session (amr `otp`)".
  it('POST /verify issues a session whose amr method is otp', async () => {
    const srv = ctx.srv;
    const u = await confirmedUser(srv);
    const mail = await requestRecovery(srv, u.email);
    const v = await srv.client().auth.verifyOtp({ token_hash: mail.tokenHash, type: 'recovery' });
    assert.equal(v.error, null);
    assert.equal(decodeJwt(v.data.session.access_token).payload.amr[0].method, 'otp');
  });

  it('resetPasswordForEmail for an unknown address succeeds and sends nothing', async () => {
    const srv = ctx.srv;
    const email = uniqueEmail('nobody');
    const { data, error } = await srv.client().auth.resetPasswordForEmail(email);
    assert.equal(error, null);
    assert.deepEqual(data, {});
    assert.deepEqual(await srv.mail(email), []);
  });
});
