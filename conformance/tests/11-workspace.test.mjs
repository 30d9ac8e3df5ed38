// The workspace screens' data through the unmodified supabase-js client:
// members, invitations (list, resend, revoke), member deactivation,
// notification preferences, sessions, audit-chain verification, CSV
// export, diagnostics, the pilot checklist and avatar validation.
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { BACKENDS, startServer, perBackend, signedIn, decodeJwt, refreshRaw } from '../lib/server.mjs';
import { member, onboard, invited as join } from '../lib/org.mjs';

const DEMO_REFUSAL = 'Demo mode: writes disabled. This is a read-only preview.';

perBackend((ctx) => {
  const { it } = ctx;

  it('members: the directory of one\'s own organisation, with filters and counts', async () => {
    const a = await onboard(ctx.srv, 'Kappa Pharma', 'Admin Kappa Pharma');
    const med = await join(ctx.srv, a, 'reviewer_medical', 'Mia Medical');
    await join(ctx.srv, a, 'reviewer_legal', 'Lou Legal');
    const b = await onboard(ctx.srv, 'Lambda Bio', 'Admin Lambda Bio');

    const { data, error, count } = await med.client.from('members').select('*', { count: 'exact' }).order('full_name');
    assert.equal(error, null, JSON.stringify(error));
    assert.equal(count, 3);
    assert.deepEqual(data.map((m) => m.full_name), ['Admin Kappa Pharma', 'Lou Legal', 'Mia Medical']);
    assert.deepEqual(Object.keys(data[0]).sort(), ['avatar_url', 'created_at', 'deactivated_at', 'email', 'full_name', 'id', 'last_sign_in_at', 'mfa_enabled', 'org_id', 'role']);
    const me = data.find((m) => m.id === med.uid);
    assert.equal(me.email, med.email);
    assert.equal(me.role, 'reviewer_medical');
    assert.equal(me.org_id, a.org.id);
    assert.ok(me.last_sign_in_at);
    assert.equal(me.deactivated_at, null);
    const reviewers = await med.client.from('members').select('email').like('role', 'reviewer_*').order('email');
    assert.equal(reviewers.data.length, 2);
    const single = await med.client.from('members').select('role').eq('id', a.uid).single();
    assert.deepEqual(single.data, { role: 'admin' });
    // Nothing of another organisation; nothing for the anon key; no writes.
    const theirs = await b.client.from('members').select('id');
    assert.deepEqual(theirs.data.map((m) => m.id), [b.uid]);
    const peek = await b.client.from('members').select('id').eq('id', med.uid);
    assert.deepEqual(peek.data, []);
    const anon = await ctx.srv.client().from('members').select('*');
    assert.equal(anon.error.code, '42501');
    assert.equal(anon.status, 401);
    const write = await a.client.from('members').update({ full_name: 'x' }).eq('id', med.uid);
    assert.equal(write.error.code, '42501');
  });

  it('invitations: admins list, resend (e-mailed link, new token) and revoke them', async () => {
    const a = await onboard(ctx.srv, 'Mu Health', 'Admin Mu Health');
    const viewer = await join(ctx.srv, a, 'viewer', 'Vic Viewer');
    const email = `invitee-${Date.now()}@example.com`;
    const { data: inv } = await a.client.rpc('create_invite', { email, role: 'marketer' });

    let { data: list, error } = await a.client.from('invites').select('*').eq('status', 'pending');
    assert.equal(error, null, JSON.stringify(error));
    assert.deepEqual(list.map((i) => i.email), [email]);
    assert.deepEqual(Object.keys(list[0]).sort(), ['accepted_at', 'created_at', 'email', 'expires_at', 'id', 'invited_by', 'role', 'status']);
    assert.equal(list[0].invited_by, a.uid);
    const accepted = await a.client.from('invites').select('email, accepted_at').eq('status', 'accepted');
    assert.deepEqual(accepted.data.map((i) => i.email), [viewer.email]);
    assert.ok(accepted.data[0].accepted_at);
    // Other members get no rows.
    const notAdmin = await viewer.client.from('invites').select('*');
    assert.equal(notAdmin.error, null);
    assert.deepEqual(notAdmin.data, []);

    // Resend: a fresh token in an e-mailed link; the old token is dead.
    const { data: again, error: resendError } = await a.client.rpc('resend_invite', { invite_id: inv.id });
    assert.equal(resendError, null, JSON.stringify(resendError));
    assert.equal(again.id, inv.id);
    assert.notEqual(again.token, inv.token);
    assert.ok(Date.parse(again.expires_at) > Date.now() + 6.9 * 24 * 3600 * 1000);
    const mail = await ctx.srv.waitMail(email, (m) => m.kind === 'org_invite');
    assert.ok(mail.text.includes(`${ctx.srv.url}/signup?invite=${again.token}`), mail.text);
    assert.match(mail.subject, /Mu Health/);
    const old = await ctx.srv.client().rpc('get_invite', { token: inv.token });
    assert.equal(old.error.message, 'Invalid invite token');
    const fresh = await ctx.srv.client().rpc('get_invite', { token: again.token });
    assert.deepEqual(fresh.data, { email, role: 'marketer' });

    // Revoke: the row says so and the token no longer works.
    const { data: revoked } = await a.client.rpc('revoke_invite', { invite_id: inv.id });
    assert.equal(revoked.status, 'revoked');
    const gone = await ctx.srv.client().rpc('get_invite', { token: again.token });
    assert.equal(gone.error.message, 'Invalid invite token');
    const twice = await a.client.rpc('revoke_invite', { invite_id: inv.id });
    assert.equal(twice.error.code, 'P0001');
    assert.equal(twice.status, 400);
    // Only administrators, only their organisation, only well-formed ids.
    const refused = await viewer.client.rpc('revoke_invite', { invite_id: inv.id });
    assert.equal(refused.error.code, '42501');
    assert.equal(refused.status, 403);
    const b = await onboard(ctx.srv, 'Nu Labs', 'Admin Nu Labs');
    const foreign = await b.client.rpc('resend_invite', { invite_id: inv.id });
    assert.equal(foreign.error.message, 'Invitation not found');
    const bad = await a.client.rpc('revoke_invite', { invite_id: 'not-a-uuid' });
    assert.equal(bad.error.code, '22P02');
    assert.equal(bad.status, 400);

    const { data: trail } = await a.client.from('audit_logs_v2').select('action, object_id').in('action', ['invite_created', 'invite_resent', 'invite_revoked']).eq('object_id', inv.id).order('id');
    assert.deepEqual(trail.map((e) => e.action), ['invite_created', 'invite_resent', 'invite_revoked']);
  });

  it('deactivation ends every session and refuses sign-in until reactivated', async () => {
    const a = await onboard(ctx.srv, 'Xi Therapeutics', 'Admin Xi Therapeutics');
    const m = await join(ctx.srv, a, 'marketer', 'Max Marketer');
    const { data: row, error } = await a.client.rpc('deactivate_member', { user_id: m.uid });
    assert.equal(error, null, JSON.stringify(error));
    assert.equal(row.id, m.uid);
    assert.ok(row.deactivated_at);
    // Sign-in: GoTrue's banned-user answer.
    const signIn = await ctx.srv.client().auth.signInWithPassword({ email: m.email, password: m.password });
    assert.equal(signIn.error?.code, 'user_banned');
    assert.equal(signIn.error?.status, 400);
    // The refresh token is dead and the access token reaches no data.
    const refresh = await refreshRaw(ctx.srv, m.session.refresh_token);
    assert.equal(refresh.status, 400);
    const data = await m.client.from('orgs').select('*');
    assert.equal(data.error.code, '42501');
    // Not oneself; not twice; not by a non-admin.
    const self = await a.client.rpc('deactivate_member', { user_id: a.uid });
    assert.equal(self.error.code, 'P0001');
    const twice = await a.client.rpc('deactivate_member', { user_id: m.uid });
    assert.equal(twice.error.message, 'This member is already deactivated');
    const direct = await a.client.from('profiles_v2').update({ deactivated_at: null }).eq('id', m.uid);
    assert.equal(direct.error.code, '42501');
    // Reactivation lets them back in.
    const back = await a.client.rpc('reactivate_member', { user_id: m.uid });
    assert.equal(back.data.deactivated_at, null);
    const again = await ctx.srv.client().auth.signInWithPassword({ email: m.email, password: m.password });
    assert.equal(again.error, null);
    const { data: trail } = await a.client.from('audit_logs_v2').select('action').eq('object_id', m.uid).in('action', ['member_deactivated', 'member_reactivated']).order('id');
    assert.deepEqual(trail.map((e) => e.action), ['member_deactivated', 'member_reactivated']);
    // A role change through profiles_v2 is in the trail too, before and after.
    await a.client.from('profiles_v2').update({ role: 'viewer' }).eq('id', m.uid);
    const { data: change } = await a.client.from('audit_logs').select('action, before_json, after_json').eq('entity_id', m.uid).eq('action', 'profiles_v2.update').order('id', { ascending: false }).limit(1).single();
    assert.equal(change.before_json[0].role, 'marketer');
    assert.equal(change.after_json[0].role, 'viewer');
  });

  it('notification preferences: one row per user, created by upsert', async () => {
    const a = await onboard(ctx.srv, 'Omicron Rx', 'Admin Omicron Rx');
    const m = await join(ctx.srv, a, 'reviewer_regulatory', 'Rae Regulatory');
    let r = await m.client.from('notification_preferences').select('*').maybeSingle();
    assert.equal(r.error, null);
    assert.equal(r.data, null); // no row yet: the defaults apply
    r = await m.client.from('notification_preferences').upsert({ weekly_digest: true }).select().single();
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.deepEqual({ ...r.data, updated_at: undefined }, {
      user_id: m.uid, review_assigned: true, review_decision: true, comment_mention: true, due_reminders: true, asset_expiring: true, weekly_digest: true, signing_locked: true, updated_at: undefined,
    });
    r = await m.client.from('notification_preferences').upsert({ user_id: m.uid, comment_mention: false }, { onConflict: 'user_id' }).select('comment_mention, weekly_digest').single();
    assert.deepEqual(r.data, { comment_mention: false, weekly_digest: true });
    // Nobody else's row, either way.
    const theirs = await a.client.from('notification_preferences').select('*');
    assert.deepEqual(theirs.data, []);
    const forge = await a.client.from('notification_preferences').upsert({ user_id: m.uid, weekly_digest: false });
    assert.equal(forge.error.code, '42501');
    const still = await m.client.from('notification_preferences').select('weekly_digest').single();
    assert.equal(still.data.weekly_digest, true);
  });

  it('sessions: list one\'s own, the current one marked; revoke one', async () => {
    const u = await member(ctx.srv);
    const other = await signedIn(ctx.srv, u.email, u.password);
    const { data: list, error } = await u.client.rpc('list_sessions');
    assert.equal(error, null, JSON.stringify(error));
    assert.equal(list.length, 2);
    const currentId = decodeJwt(u.session.access_token).payload.session_id;
    assert.equal(list[0].id, currentId);
    assert.equal(list[0].current, true);
    assert.equal(list[1].current, false);
    assert.deepEqual(Object.keys(list[0]).sort(), ['aal', 'created_at', 'current', 'id', 'ip', 'not_after', 'refreshed_at', 'updated_at', 'user_agent']);
    assert.equal(list[0].ip, '127.0.0.1');
    // Another user cannot end it.
    const stranger = await member(ctx.srv);
    const refused = await stranger.client.rpc('revoke_session', { session_id: list[1].id });
    assert.equal(refused.error.message, 'Session not found');
    const { data: done } = await u.client.rpc('revoke_session', { session_id: list[1].id });
    assert.deepEqual(done, { id: list[1].id, revoked: true, current: false });
    const refresh = await refreshRaw(ctx.srv, other.session.refresh_token);
    assert.equal(refresh.status, 400);
    const after = await u.client.rpc('list_sessions');
    assert.deepEqual(after.data.map((s) => s.id), [currentId]);
    const anon = await ctx.srv.client().rpc('list_sessions');
    assert.equal(anon.error.code, '42501');
  });

  it('verify_audit_chain, pilot_status and diagnostics', async () => {
    const a = await onboard(ctx.srv, 'Pi Devices', 'Admin Pi Devices');
    const v = await join(ctx.srv, a, 'viewer', 'Val Viewer');
    const { data: check, error } = await v.client.rpc('verify_audit_chain');
    assert.equal(error, null, JSON.stringify(error));
    assert.equal(check.ok, true);
    assert.ok(check.checked >= 5);
    assert.equal(check.head_id, check.checked);
    assert.equal(check.first_broken_id, null);
    assert.ok(Date.parse(check.verified_at));
    const { data: pilot } = await v.client.rpc('pilot_status');
    assert.equal(pilot.total, 10);
    const byKey = Object.fromEntries(pilot.steps.map((s) => [s.key, s]));
    assert.equal(byKey.org_created.done, true);
    assert.equal(byKey.audit_verified.done, true);
    assert.equal(byKey.reviewers_joined.done, false);
    assert.match(byKey.reviewers_joined.detail, /medical reviewer/);
    // Products and assets exist: their steps wait for real rows, not for a release.
    assert.equal(byKey.first_asset.done, false);
    assert.match(byKey.first_asset.detail, /^No asset yet/);
    assert.equal(byKey.first_review.done, false);
    assert.match(byKey.first_review.detail, /^Available when/);
    assert.equal(pilot.done_count, pilot.steps.filter((s) => s.done).length);

    const { data: diag } = await v.client.rpc('diagnostics');
    assert.equal(diag.database, ctx.srv.backend);
    assert.equal(diag.storage, 'disk');
    assert.equal(diag.realtime, 'not configured');
    assert.equal(diag.mail_sender, 'log');
    assert.ok(diag.migration >= 4);
    assert.equal(diag.outbox, undefined);
    const { data: adminDiag } = await a.client.rpc('diagnostics');
    assert.ok(Array.isArray(adminDiag.outbox));
    for (const m of adminDiag.outbox) {
      assert.deepEqual(Object.keys(m).sort(), ['attempts', 'created_at', 'id', 'kind', 'last_error', 'sent_at', 'status', 'subject', 'to']);
    }
    // A GET works too (read-only functions).
    const get = await v.client.rpc('pilot_status', {}, { get: true });
    assert.equal(get.error, null);
  });

  it('CSV export of the audit trail, with formula cells neutralised', async () => {
    const a = await onboard(ctx.srv, 'Rho Medical', 'Admin Rho Medical');
    await a.client.from('audit_logs_v2').insert({ action: '=HYPERLINK("http://evil.example")', object_type: 'note, with comma', meta: { a: 1 } });
    const { data, error, status } = await a.client.from('audit_logs_v2').select('id, action, object_type, meta').order('id').csv();
    assert.equal(error, null, JSON.stringify(error));
    assert.equal(status, 200);
    const lines = data.split('\r\n');
    assert.equal(lines[0], 'id,action,object_type,meta');
    assert.equal(lines.at(-1), '');
    assert.ok(lines.includes(`${lines.length - 2},"'=HYPERLINK(""http://evil.example"")","note, with comma","{""a"":1}"`), data);
    // The row policy and the filters hold; counts come in Content-Range.
    const r = await fetch(`${ctx.srv.url}/rest/v1/audit_logs?select=action&action=eq.orgs.insert`, {
      headers: { apikey: ctx.srv.anonKey, Authorization: `Bearer ${a.session.access_token}`, Accept: 'text/csv', Prefer: 'count=exact' },
    });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type'), /^text\/csv/);
    assert.equal(r.headers.get('content-range'), '0-0/1');
    assert.equal(await r.text(), 'action\r\norgs.insert\r\n');
    const anon = await ctx.srv.client().from('audit_logs_v2').select('*').csv();
    assert.equal(anon.error.code, '42501');
    const badCol = await a.client.from('audit_logs_v2').select('nope').csv();
    assert.equal(badCol.error.code, '42703');
  });

  it('avatar_url: https, or a PNG/JPEG/WebP data URL that is what it says', async () => {
    const m = await member(ctx.srv);
    // A 1×1 PNG.
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    let r = await m.client.from('profiles_v2').update({ avatar_url: `data:image/png;base64,${png}` }).eq('id', m.uid);
    assert.equal(r.error, null, JSON.stringify(r.error));
    r = await m.client.from('profiles_v2').update({ avatar_url: 'https://cdn.example.com/me.jpg' }).eq('id', m.uid);
    assert.equal(r.error, null);
    for (const bad of ['http://cdn.example.com/me.jpg', 'javascript:alert(1)', `data:image/jpeg;base64,${png}`, 'data:image/svg+xml;base64,PHN2Zy8+']) {
      r = await m.client.from('profiles_v2').update({ avatar_url: bad }).eq('id', m.uid);
      assert.equal(r.error?.code, '23514', bad);
      assert.equal(r.status, 400);
      assert.ok(r.error.message.length > 10);
    }
    const { data } = await m.client.from('profiles_v2').select('avatar_url').eq('id', m.uid).single();
    assert.equal(data.avatar_url, 'https://cdn.example.com/me.jpg');
  });
});

for (const backend of BACKENDS) {
  describe(`${backend}: workspace calls of a demo session`, () => {
    let srv;
    before(async () => { srv = await startServer(backend, ['--preview']); });
    after(async () => { await srv?.stop(); });

    it('reads, verifies without recording, and is refused every write', async () => {
      const r = await fetch(`${srv.url}/api/preview/session`, {
        method: 'POST', headers: { apikey: srv.anonKey, 'Content-Type': 'application/json' }, body: JSON.stringify({ role: 'admin' }),
      });
      const body = await r.json();
      const c = srv.client();
      await c.auth.setSession({ access_token: body.access_token, refresh_token: body.refresh_token });
      const { data: members } = await c.from('members').select('role');
      assert.equal(members.length, 7);
      const before = await c.from('audit_logs_v2').select('id', { count: 'exact', head: true });
      const v = await c.rpc('verify_audit_chain');
      assert.equal(v.data.ok, true);
      const after = await c.from('audit_logs_v2').select('id', { count: 'exact', head: true });
      assert.equal(after.count, before.count);
      for (const res of [
        await c.from('notification_preferences').upsert({ weekly_digest: true }),
        await c.rpc('deactivate_member', { user_id: members.length ? '00000000-0000-4000-8000-0000000d0007' : '' }),
        await c.rpc('revoke_session', { session_id: '00000000-0000-4000-8000-000000000000' }),
      ]) {
        assert.equal(res.error?.message, DEMO_REFUSAL);
        assert.equal(res.status, 403);
      }
    });
  });
}
