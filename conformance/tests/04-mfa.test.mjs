// TOTP MFA through the client: enroll → challenge → verify (aal2) →
// getAuthenticatorAssuranceLevel → listFactors → unenroll.
import assert from 'node:assert/strict';
import * as OTPAuth from 'otpauth';
import { perBackend, confirmedUser, signedIn, refreshRaw, decodeJwt } from '../lib/server.mjs';

function totpFor(secret) {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
}

perBackend((ctx) => {
  const { it } = ctx;

  it('enroll → challenge → verify → aal2 → listFactors → unenroll', async () => {
    const srv = ctx.srv;
    const u = await confirmedUser(srv);
    const a = await signedIn(srv, u.email, u.password);
    const b = await signedIn(srv, u.email, u.password); // another aal1 session of the same user
    const c = a.client;

    // AAL before any factor
    const aal0 = await c.auth.mfa.getAuthenticatorAssuranceLevel();
    assert.equal(aal0.error, null);
    assert.equal(aal0.data.currentLevel, 'aal1');
    assert.equal(aal0.data.nextLevel, 'aal1');

    // enroll
    const en = await c.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Authenticator app' });
    assert.equal(en.error, null);
    const factorId = en.data.id;
    assert.match(factorId, /^[0-9a-f-]{36}$/);
    assert.equal(en.data.type, 'totp');
    assert.equal(en.data.friendly_name, 'Authenticator app');
    assert.match(en.data.totp.secret, /^[A-Z2-7]+=*$/);
    assert.ok(en.data.totp.uri.startsWith('otpauth://totp/'), en.data.totp.uri);
    const uri = new URL(en.data.totp.uri);
    assert.equal(uri.searchParams.get('secret'), en.data.totp.secret);
    assert.equal(uri.searchParams.get('algorithm'), 'SHA1');
    assert.equal(uri.searchParams.get('digits'), '6');
    assert.equal(uri.searchParams.get('period'), '30');
    assert.ok(decodeURIComponent(uri.pathname).includes(u.email), en.data.totp.uri);
    assert.ok(en.data.totp.qr_code.startsWith('data:image/svg+xml;utf-8,<svg'), en.data.totp.qr_code.slice(0, 60));
    const totp = totpFor(en.data.totp.secret);

    // an unverified factor is listed in `all` only
    const lf0 = await c.auth.mfa.listFactors();
    assert.equal(lf0.error, null);
    assert.equal(lf0.data.all.length, 1);
    assert.equal(lf0.data.all[0].status, 'unverified');
    assert.equal(lf0.data.totp.length, 0);

    // a wrong code is refused
    const ch0 = await c.auth.mfa.challenge({ factorId });
    assert.equal(ch0.error, null);
    const good = totp.generate();
    const wrong = String((Number(good) + 500_000) % 1_000_000).padStart(6, '0');
    const bad = await c.auth.mfa.verify({ factorId, challengeId: ch0.data.id, code: wrong });
    assert.equal(bad.error?.code, 'mfa_verification_failed');
    assert.equal(bad.error?.status, 422);

    // challenge and verify with the right code
    const ch = await c.auth.mfa.challenge({ factorId });
    assert.equal(ch.error, null);
    assert.match(ch.data.id, /^[0-9a-f-]{36}$/);
    assert.equal(ch.data.type, 'totp');
    assert.ok(ch.data.expires_at > Date.now() / 1000, `expires_at ${ch.data.expires_at}`);
    const events = [];
    const { data: { subscription } } = c.auth.onAuthStateChange((event) => events.push(event));
    const firstCode = totp.generate();
    const v = await c.auth.mfa.verify({ factorId, challengeId: ch.data.id, code: firstCode });
    assert.equal(v.error, null);
    assert.ok(v.data.access_token && v.data.refresh_token);
    const claims = decodeJwt(v.data.access_token).payload;
    assert.equal(claims.aal, 'aal2');
    assert.equal(claims.amr[0].method, 'totp');
    assert.ok(claims.amr.some((x) => x.method === 'password'));
    assert.ok(events.includes('MFA_CHALLENGE_VERIFIED'), `events: ${events}`);
    subscription.unsubscribe();

    // the client now holds the aal2 session
    const aal = await c.auth.mfa.getAuthenticatorAssuranceLevel();
    assert.equal(aal.error, null);
    assert.equal(aal.data.currentLevel, 'aal2');
    assert.equal(aal.data.nextLevel, 'aal2');
    assert.equal(aal.data.currentAuthenticationMethods[0].method, 'totp');

    const lf = await c.auth.mfa.listFactors();
    assert.equal(lf.error, null);
    assert.equal(lf.data.all.length, 1);
    assert.equal(lf.data.totp.length, 1);
    assert.equal(lf.data.totp[0].id, factorId);
    assert.equal(lf.data.totp[0].status, 'verified');
    assert.equal(lf.data.totp[0].factor_type, 'totp');
    assert.equal(lf.data.totp[0].friendly_name, 'Authenticator app');

    // the other aal1 session of the user was ended by the verification
    const other = await refreshRaw(srv, b.session.refresh_token);
    assert.equal(other.status, 400, JSON.stringify(other.body));

    // a new password sign-in is aal1 with aal2 available, and can step up
    const d = await signedIn(srv, u.email, u.password);
    const aalD = await d.client.auth.mfa.getAuthenticatorAssuranceLevel();
    assert.equal(aalD.data.currentLevel, 'aal1');
    assert.equal(aalD.data.nextLevel, 'aal2');
    const enD = await d.client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'second' });
    assert.equal(enD.error?.code, 'insufficient_aal');
    assert.equal(enD.error?.status, 403);
    const unD = await d.client.auth.mfa.unenroll({ factorId });
    assert.equal(unD.error?.code, 'insufficient_aal');
    assert.equal(unD.error?.status, 422);
    // a code of the next time step (within the ±1 step window), distinct from the first one
    const nextCode = totp.generate({ timestamp: Date.now() + 30_000 });
    assert.notEqual(nextCode, firstCode);
    const cv = await d.client.auth.mfa.challengeAndVerify({ factorId, code: nextCode });
    assert.equal(cv.error, null);
    assert.equal(decodeJwt(cv.data.access_token).payload.aal, 'aal2');

    // unenroll from an aal2 session
    const un = await c.auth.mfa.unenroll({ factorId });
    assert.equal(un.error, null);
    assert.equal(un.data.id, factorId);
    const lf2 = await c.auth.mfa.listFactors();
    assert.equal(lf2.error, null);
    assert.equal(lf2.data.all.length, 0);
    assert.equal(lf2.data.totp.length, 0);
    const gu = await c.auth.getUser();
    assert.equal(gu.data.user.factors, undefined, 'factors omitted when empty');

    // the session that used the factor is aal1 after the next refresh
    const r = await c.auth.refreshSession();
    assert.equal(r.error, null);
    assert.equal(decodeJwt(r.data.session.access_token).payload.aal, 'aal1');
    const aal3 = await c.auth.mfa.getAuthenticatorAssuranceLevel();
    assert.equal(aal3.data.currentLevel, 'aal1');
    assert.equal(aal3.data.nextLevel, 'aal1');

    await c.auth.signOut();
  });
});
