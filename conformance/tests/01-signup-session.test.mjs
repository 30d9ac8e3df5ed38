// Sign-up with e-mail confirmation, the confirmation link, password sign-in,
// getUser, getClaims (local verification through the JWKS), updateUser,
// refresh-token rotation and reuse detection.
import assert from 'node:assert/strict';
import {
  perBackend, uniqueEmail, strongPassword, fragmentParams, decodeJwt, refreshRaw, recordingFetch,
} from '../lib/server.mjs';

perBackend((ctx) => {
  const { it } = ctx;
  it('sign-up → confirmation link → sign-in → getUser → getClaims → updateUser → refresh rotation and reuse detection', async () => {
    const srv = ctx.srv;
    const rec = recordingFetch();
    const c = srv.client({ fetch: rec.fetch });
    const email = uniqueEmail('signup');
    const password = strongPassword();

    // 1. sign-up with confirmation on: a user, no session
    const su = await c.auth.signUp({ email, password, options: { data: { display_name: 'Ada' } } });
    assert.equal(su.error, null);
    assert.equal(su.data.session, null);
    const user = su.data.user;
    assert.ok(user, 'signUp returns the user');
    assert.match(user.id, /^[0-9a-f-]{36}$/);
    assert.equal(user.email, email);
    assert.equal(user.aud, 'authenticated');
    assert.equal(user.email_confirmed_at, undefined);
    assert.ok(user.confirmation_sent_at, 'confirmation_sent_at is set');
    assert.deepEqual(user.user_metadata, { display_name: 'Ada' });
    assert.equal(user.identities.length, 1);
    assert.equal(user.identities[0].provider, 'email');
    assert.equal(user.is_anonymous, false);

    // before confirmation the password does not open a session
    const early = await c.auth.signInWithPassword({ email, password });
    assert.equal(early.error?.code, 'email_not_confirmed');
    assert.equal(early.error?.status, 400);

    // 2. the confirmation e-mail and its link
    const mail = await srv.waitMail(email, (m) => m.kind === 'confirmation');
    assert.equal(mail.type, 'signup');
    assert.ok(mail.tokenHash, 'link carries a token');
    assert.match(mail.code, /^\d{6}$/);
    const res = await fetch(mail.link, { redirect: 'manual' });
    assert.equal(res.status, 303);
    const location = res.headers.get('location');
    assert.ok(location.startsWith(new URL(mail.link).searchParams.get('redirect_to')), `redirects to redirect_to: ${location}`);
    const frag = fragmentParams(location);
    assert.ok(frag.access_token, 'fragment has access_token');
    assert.ok(frag.refresh_token, 'fragment has refresh_token');
    assert.equal(frag.token_type, 'bearer');
    assert.equal(frag.type, 'signup');
    assert.equal(Number(frag.expires_in), 3600);
    assert.ok(Number(frag.expires_at) > Date.now() / 1000);
    assert.equal(decodeJwt(frag.access_token).payload.sub, user.id);

    // the link works once
    const again = await fetch(mail.link, { redirect: 'manual' });
    assert.equal(again.status, 303);
    const againFrag = fragmentParams(again.headers.get('location'));
    assert.equal(againFrag.access_token, undefined);
    assert.equal(againFrag.error_code, 'otp_expired');

    // 3. password sign-in
    const si = await c.auth.signInWithPassword({ email, password });
    assert.equal(si.error, null);
    const s1 = si.data.session;
    assert.ok(s1.access_token && s1.refresh_token && s1.expires_in && s1.expires_at);
    assert.equal(s1.token_type, 'bearer');
    assert.equal(si.data.user.id, user.id);
    assert.ok(si.data.user.email_confirmed_at, 'confirmed after the link');

    // 4. getUser
    const gu = await c.auth.getUser();
    assert.equal(gu.error, null);
    assert.equal(gu.data.user.id, user.id);
    assert.equal(gu.data.user.email, email);

    // 5. getClaims verifies the ES256 token locally with the JWKS, without GET /user
    rec.calls.length = 0;
    const gc = await c.auth.getClaims();
    assert.equal(gc.error, null);
    const { claims, header } = gc.data;
    assert.equal(header.alg, 'ES256');
    assert.ok(header.kid, 'JWT header has a kid');
    assert.equal(claims.sub, user.id);
    assert.equal(claims.aud, 'authenticated');
    assert.equal(claims.aal, 'aal1');
    assert.equal(claims.role, 'authenticated');
    assert.equal(claims.email, email);
    assert.equal(claims.is_anonymous, false);
    assert.match(claims.session_id, /^[0-9a-f-]{36}$/);
    assert.equal(claims.amr[0].method, 'password');
    const paths = rec.calls.map((x) => new URL(x.url).pathname);
    assert.ok(paths.includes('/auth/v1/.well-known/jwks.json'), `JWKS fetched: ${paths}`);
    assert.ok(!paths.includes('/auth/v1/user'), `no GET /user fallback: ${paths}`);
    const jwks = await (await fetch(`${srv.url}/auth/v1/.well-known/jwks.json`)).json();
    const jwk = jwks.keys.find((k) => k.kid === header.kid);
    assert.ok(jwk, 'the kid is in the JWKS');
    assert.equal(jwk.kty, 'EC');
    assert.equal(jwk.crv, 'P-256');
    assert.equal(jwk.d, undefined, 'no private part published');

    // a token whose signature is wrong is refused locally
    const [h, p, sig] = s1.access_token.split('.');
    const bad = Buffer.from(sig, 'base64url');
    bad[0] ^= 0xff;
    const tampered = await c.auth.getClaims(`${h}.${p}.${bad.toString('base64url')}`);
    assert.ok(tampered.error, 'tampered token rejected');
    assert.equal(tampered.error.name, 'AuthInvalidJwtError');

    // 6. updateUser({ data })
    const uu = await c.auth.updateUser({ data: { display_name: 'Ada L.', team: 'qa' } });
    assert.equal(uu.error, null);
    assert.equal(uu.data.user.user_metadata.display_name, 'Ada L.');
    assert.equal(uu.data.user.user_metadata.team, 'qa');

    // 7. refreshSession rotates the refresh token; the new access token carries the new metadata
    const r2 = await c.auth.refreshSession();
    assert.equal(r2.error, null);
    const s2 = r2.data.session;
    assert.notEqual(s2.refresh_token, s1.refresh_token);
    assert.equal(decodeJwt(s2.access_token).payload.user_metadata.team, 'qa');
    assert.equal(decodeJwt(s2.access_token).payload.session_id, claims.session_id);
    const r3 = await c.auth.refreshSession();
    assert.equal(r3.error, null);
    const s3 = r3.data.session;
    assert.notEqual(s3.refresh_token, s2.refresh_token);
    assert.notEqual(s3.refresh_token, s1.refresh_token);

    // the token immediately before the active one yields the active one again
    const prev = await refreshRaw(srv, s2.refresh_token);
    assert.equal(prev.status, 200, JSON.stringify(prev.body));
    assert.equal(prev.body.refresh_token, s3.refresh_token);
    assert.ok(prev.body.access_token);
    assert.equal(prev.body.user.id, user.id);
    assert.equal(decodeJwt(prev.body.access_token).payload.session_id, claims.session_id);

    // an older token is reuse: 400 refresh_token_already_used ...
    const old = await refreshRaw(srv, s1.refresh_token);
    assert.equal(old.status, 400);
    assert.equal(old.body.code, 'refresh_token_already_used');
    assert.equal(old.body.message, 'Invalid Refresh Token: Already Used');
    assert.equal(old.headers.get('x-supabase-api-version'), '2024-01-01');
    // ... and the whole family is revoked, including the active token
    const cur = await refreshRaw(srv, s3.refresh_token);
    assert.equal(cur.status, 400);
    assert.equal(cur.body.code, 'refresh_token_already_used');
    const prevAgain = await refreshRaw(srv, s2.refresh_token);
    assert.equal(prevAgain.status, 400);
    const viaClient = await c.auth.refreshSession();
    assert.ok(viaClient.error, 'the client cannot refresh any more');
    assert.equal(viaClient.error.code, 'refresh_token_already_used');
  });

  it('an unknown refresh token is refresh_token_not_found; a malformed one is validation_failed', async () => {
    const srv = ctx.srv;
    const unknown = await refreshRaw(srv, 'abcdefghijkl234567abcdefghijkl23');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'refresh_token_not_found');
    const short = await refreshRaw(srv, 'abc');
    assert.equal(short.status, 400);
    assert.equal(short.body.code, 'validation_failed');
  });
});
