// auth.admin.* with the service_role key: createUser, listUsers paging,
// getUserById, updateUserById, deleteUser, inviteUserByEmail, generateLink.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  perBackend, uniqueEmail, strongPassword, confirmedUser, signedIn, fragmentParams, decodeJwt,
} from '../lib/server.mjs';

perBackend((ctx) => {
  const { it } = ctx;

  it('createUser ×7 and listUsers({ page, perPage }) paging as supabase-js parses it', async () => {
    const srv = ctx.srv;
    const admin = srv.admin().auth.admin;
    const before = await admin.listUsers();
    assert.equal(before.error, null);
    const base = before.data.total;

    const created = [];
    for (let i = 0; i < 7; i++) {
      const email = uniqueEmail(`page${i}`);
      const { data, error } = await admin.createUser({
        email, password: strongPassword(), email_confirm: true, user_metadata: { n: i },
      });
      assert.equal(error, null);
      assert.equal(data.user.email, email);
      assert.ok(data.user.email_confirmed_at, 'email_confirm sets email_confirmed_at');
      assert.deepEqual(data.user.app_metadata, { provider: 'email', providers: ['email'] });
      assert.deepEqual(data.user.user_metadata, { n: i });
      created.push(data.user.id);
    }

    const total = base + 7;
    const perPage = 3;
    const last = Math.ceil(total / perPage);
    assert.ok(last <= 9, 'page numbers stay single-digit (client link-parsing quirk)');
    const seen = new Set();
    for (let page = 1; page <= last; page++) {
      const { data, error } = await admin.listUsers({ page, perPage });
      assert.equal(error, null);
      assert.equal(data.total, total, `total on page ${page}`);
      assert.equal(data.lastPage, last, `lastPage on page ${page}`);
      assert.equal(data.nextPage, page < last ? page + 1 : null, `nextPage on page ${page}`);
      assert.equal(data.aud, 'authenticated');
      const expected = page < last ? perPage : total - perPage * (last - 1);
      assert.equal(data.users.length, expected, `users on page ${page}`);
      for (const u of data.users) {
        assert.ok(!seen.has(u.id), `user ${u.id} listed twice`);
        seen.add(u.id);
      }
    }
    for (const id of created) assert.ok(seen.has(id), `created user ${id} listed`);
    assert.equal(seen.size, total);

    // a page past the end is empty
    const past = await admin.listUsers({ page: last + 1, perPage });
    assert.equal(past.error, null);
    assert.equal(past.data.users.length, 0);

    // no parameters: one page of everything
    const all = await admin.listUsers();
    assert.equal(all.data.users.length, total);
    assert.equal(all.data.nextPage, null);
    assert.equal(all.data.lastPage, 1);

    // the raw headers: X-Total-Count, a Link whose first query parameter is page, both CORS-exposed
    // to the site's origin (CORS answers only the site and the redirect allow-list)
    const origin = new URL(srv.url).origin;
    const r = await fetch(`${srv.url}/auth/v1/admin/users?page=1&per_page=${perPage}`, { headers: { ...srv.adminHeaders, Origin: origin } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('x-total-count'), String(total));
    const link = r.headers.get('link');
    assert.match(link, /<[^>]*\?page=2&per_page=3>; rel="next"/);
    assert.match(link, new RegExp(`<[^>]*\\?page=${last}&per_page=3>; rel="last"`));
    const exposed = (r.headers.get('access-control-expose-headers') || '').toLowerCase();
    assert.ok(exposed.includes('x-total-count') && exposed.includes('link'), `exposed: ${exposed}`);

    for (const id of created) assert.equal((await admin.deleteUser(id)).error, null);
  });

  it('getUserById, updateUserById (metadata, password, ban), deleteUser', async () => {
    const srv = ctx.srv;
    const admin = srv.admin().auth.admin;
    const u = await confirmedUser(srv, { data: { team: 'a' } });

    const g = await admin.getUserById(u.id);
    assert.equal(g.error, null);
    assert.equal(g.data.user.id, u.id);
    assert.equal(g.data.user.email, u.email);
    assert.deepEqual(g.data.user.user_metadata, { team: 'a' });

    const missing = await admin.getUserById(randomUUID());
    assert.equal(missing.data.user, null);
    assert.equal(missing.error?.code, 'user_not_found');
    assert.equal(missing.error?.status, 404);

    // metadata and password
    const newPassword = strongPassword();
    const up = await admin.updateUserById(u.id, {
      user_metadata: { team: 'b' }, app_metadata: { plan: 'pro' }, password: newPassword,
    });
    assert.equal(up.error, null);
    assert.equal(up.data.user.user_metadata.team, 'b');
    assert.equal(up.data.user.app_metadata.plan, 'pro');
    assert.equal(up.data.user.app_metadata.provider, 'email');
    const s = await signedIn(srv, u.email, newPassword);
    const claims = decodeJwt(s.session.access_token).payload;
    assert.equal(claims.app_metadata.plan, 'pro');
    assert.equal(claims.user_metadata.team, 'b');
    const old = await srv.client().auth.signInWithPassword({ email: u.email, password: u.password });
    assert.equal(old.error?.code, 'invalid_credentials');

    // a weak password is refused
    const weak = await admin.updateUserById(u.id, { password: '123' });
    assert.equal(weak.error?.code, 'weak_password');
    assert.equal(weak.error?.status, 422);

    // ban and unban
    const ban = await admin.updateUserById(u.id, { ban_duration: '24h' });
    assert.equal(ban.error, null);
    assert.ok(ban.data.user.banned_until, 'banned_until set');
    const banned = await srv.client().auth.signInWithPassword({ email: u.email, password: newPassword });
    assert.equal(banned.error?.code, 'user_banned');
    const unban = await admin.updateUserById(u.id, { ban_duration: 'none' });
    assert.equal(unban.error, null);
    assert.equal(unban.data.user.banned_until, undefined);
    assert.equal((await srv.client().auth.signInWithPassword({ email: u.email, password: newPassword })).error, null);

    // a duplicate e-mail is refused
    const dup = await admin.createUser({ email: u.email, password: strongPassword() });
    assert.equal(dup.error?.code, 'email_exists');
    assert.equal(dup.error?.status, 422);

    // delete
    const del = await admin.deleteUser(u.id);
    assert.equal(del.error, null);
    assert.equal(del.data.user.id, u.id);
    const gone = await admin.getUserById(u.id);
    assert.equal(gone.error?.code, 'user_not_found');
    const after = await srv.client().auth.signInWithPassword({ email: u.email, password: newPassword });
    assert.equal(after.error?.code, 'invalid_credentials');
    // the deleted user's session is gone too
    const r = await srv.authFetch('/user', { token: s.session.access_token });
    assert.equal(r.status, 403);
  });

  it('inviteUserByEmail sends an invite whose link signs the user in', async () => {
    const srv = ctx.srv;
    const admin = srv.admin().auth.admin;
    const email = uniqueEmail('invite');
    const inv = await admin.inviteUserByEmail(email, { data: { invited_by: 'lead' } });
    assert.equal(inv.error, null);
    const user = inv.data.user;
    assert.equal(user.email, email);
    assert.ok(user.invited_at, 'invited_at set');
    assert.ok(user.confirmation_sent_at, 'confirmation_sent_at set');
    assert.equal(user.email_confirmed_at, undefined);
    assert.equal(user.user_metadata.invited_by, 'lead');

    const mail = await srv.waitMail(email, (m) => m.kind === 'invite');
    assert.equal(mail.type, 'invite');
    const res = await fetch(mail.link, { redirect: 'manual' });
    assert.equal(res.status, 303);
    const frag = fragmentParams(res.headers.get('location'));
    assert.equal(frag.type, 'invite');
    assert.ok(frag.access_token && frag.refresh_token);
    assert.equal(decodeJwt(frag.access_token).payload.sub, user.id);

    // the invited user sets a password with the session from the link
    const c = srv.client();
    assert.equal((await c.auth.setSession({ access_token: frag.access_token, refresh_token: frag.refresh_token })).error, null);
    const password = strongPassword();
    assert.equal((await c.auth.updateUser({ password })).error, null);
    const si = await srv.client().auth.signInWithPassword({ email, password });
    assert.equal(si.error, null);
    assert.ok(si.data.user.email_confirmed_at);

    // inviting a confirmed address is refused
    const again = await admin.inviteUserByEmail(email);
    assert.equal(again.error?.code, 'email_exists');
    assert.equal(again.error?.status, 422);
    await admin.deleteUser(user.id);
  });

  it('generateLink: signup, magiclink, recovery, invite; no e-mail is sent', async () => {
    const srv = ctx.srv;
    const admin = srv.admin().auth.admin;
    const checkProps = (data, type) => {
      const p = data.properties;
      assert.equal(p.verification_type, type);
      assert.match(p.email_otp, /^\d{6}$/);
      assert.match(p.hashed_token, /^[0-9a-f]{56}$/);
      const link = new URL(p.action_link);
      assert.equal(link.pathname, '/auth/v1/verify');
      assert.equal(link.searchParams.get('token'), p.hashed_token);
      assert.equal(link.searchParams.get('type'), type === 'email_change_current' || type === 'email_change_new' ? 'email_change' : type);
      assert.ok(p.redirect_to, 'redirect_to set');
      assert.match(data.user.id, /^[0-9a-f-]{36}$/);
    };

    // signup: creates the user; the hashed token confirms it
    const email = uniqueEmail('gen');
    const password = strongPassword();
    const su = await admin.generateLink({ type: 'signup', email, password, options: { data: { via: 'link' } } });
    assert.equal(su.error, null);
    checkProps(su.data, 'signup');
    assert.equal(su.data.user.email, email);
    assert.equal(su.data.user.user_metadata.via, 'link');
    const unconfirmed = await srv.client().auth.signInWithPassword({ email, password });
    assert.equal(unconfirmed.error?.code, 'email_not_confirmed');
    const vs = await srv.client().auth.verifyOtp({ token_hash: su.data.properties.hashed_token, type: 'signup' });
    assert.equal(vs.error, null);
    assert.equal(vs.data.user.id, su.data.user.id);
    assert.equal((await srv.client().auth.signInWithPassword({ email, password })).error, null);

    // magiclink: the e-mail OTP signs in
    const ml = await admin.generateLink({ type: 'magiclink', email });
    assert.equal(ml.error, null);
    checkProps(ml.data, 'magiclink');
    assert.equal(ml.data.user.id, su.data.user.id);
    const vm = await srv.client().auth.verifyOtp({ email, token: ml.data.properties.email_otp, type: 'email' });
    assert.equal(vm.error, null);
    assert.equal(vm.data.user.id, su.data.user.id);
    assert.ok(vm.data.session);

    // recovery: the action link redirects with a recovery session
    const rc = await admin.generateLink({ type: 'recovery', email });
    assert.equal(rc.error, null);
    checkProps(rc.data, 'recovery');
    const res = await fetch(rc.data.properties.action_link, { redirect: 'manual' });
    assert.equal(res.status, 303);
    const frag = fragmentParams(res.headers.get('location'));
    assert.equal(frag.type, 'recovery');
    assert.equal(decodeJwt(frag.access_token).payload.sub, su.data.user.id);

    // invite: a new address
    const invEmail = uniqueEmail('geninv');
    const iv = await admin.generateLink({ type: 'invite', email: invEmail });
    assert.equal(iv.error, null);
    checkProps(iv.data, 'invite');
    assert.ok(iv.data.user.invited_at);
    const vi = await srv.client().auth.verifyOtp({ token_hash: iv.data.properties.hashed_token, type: 'invite' });
    assert.equal(vi.error, null);
    assert.equal(vi.data.user.id, iv.data.user.id);

    // errors
    const unknown = await admin.generateLink({ type: 'recovery', email: uniqueEmail('nobody') });
    assert.equal(unknown.error?.code, 'user_not_found');
    assert.equal(unknown.error?.status, 404);
    const badType = await admin.generateLink({ type: 'bogus', email });
    assert.equal(badType.error?.code, 'validation_failed');
    assert.equal(badType.error?.status, 400);

    // generateLink never sends e-mail
    assert.deepEqual(await srv.mail(email), []);
    assert.deepEqual(await srv.mail(invEmail), []);
    await admin.deleteUser(su.data.user.id);
    await admin.deleteUser(iv.data.user.id);
  });

  it('admin endpoints refuse the anon key and user tokens', async () => {
    const srv = ctx.srv;
    const anon = await srv.client().auth.admin.listUsers();
    assert.equal(anon.error?.code, 'not_admin');
    assert.equal(anon.error?.status, 403);
    const u = await confirmedUser(srv);
    const s = await signedIn(srv, u.email, u.password);
    const r = await srv.authFetch('/admin/users', { token: s.session.access_token });
    assert.equal(r.status, 403);
    assert.equal((await r.json()).code, 'not_admin');
    const m = await fetch(`${srv.url}/api/admin/mail?to=${encodeURIComponent(u.email)}`, { headers: { apikey: srv.anonKey, Authorization: `Bearer ${srv.anonKey}` } });
    assert.equal(m.status, 403);
    await srv.admin().auth.admin.deleteUser(u.id);
  });
});
