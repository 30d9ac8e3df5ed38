// Starts the real Fairbalance binary for a conformance suite and builds
// supabase-js clients against it.
//
//   FAIRBALANCE_BIN     the binary (default ../bin/fairbalance, relative to this folder)
//   TEST_DATABASE_URL   when set, every suite also runs against PostgreSQL, in a
//                       fresh schema that is dropped afterwards
import { spawn, execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import pg from 'pg';
import { describe, it, before, after } from 'node:test';

const here = dirname(fileURLToPath(import.meta.url));
const folder = resolve(here, '..');

export const BIN = process.env.FAIRBALANCE_BIN
  ? resolve(process.env.FAIRBALANCE_BIN)
  : resolve(folder, '..', 'bin', 'fairbalance');

/** The backends every suite runs against: always sqlite, postgres when TEST_DATABASE_URL is set. */
export const BACKENDS = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

const execFileP = promisify(execFile);
const STDERR_KEEP = 200; // lines of server stderr kept for failure reports
const START_TIMEOUT_MS = 30_000;

/** A random lowercase token, for unique e-mails and schema names. */
export function rand(n = 10) {
  return randomBytes(n).toString('hex').slice(0, n);
}

/** A unique e-mail address. */
export function uniqueEmail(prefix = 'u') {
  return `${prefix}-${rand(12)}@example.com`;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function withSearchPath(url, schema) {
  const u = new URL(url);
  u.searchParams.set('search_path', schema);
  return u.toString();
}

async function pgAdmin(fn) {
  const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * Starts a server for one backend ('sqlite' or 'postgres') and returns a handle:
 *   { backend, url, anonKey, serviceKey, adminHeaders, client(), admin(), mail(to),
 *     waitMail(to, pred), authFetch(path, opts), stop(), stderrTail() }
 */
export async function startServer(backend = 'sqlite', extraArgs = []) {
  if (!existsSync(BIN)) {
    throw new Error(`server binary not found at ${BIN}: build it (go build -o bin/fairbalance ./cmd/fairbalance) or set FAIRBALANCE_BIN`);
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'fairbalance-conformance-'));
  // The keys file is created on first use, so the keys are known before the server starts.
  let keys;
  try {
    const { stdout } = await execFileP(BIN, ['keys', '--json', '--data-dir', dataDir]);
    keys = JSON.parse(stdout);
  } catch (err) {
    await rm(dataDir, { recursive: true, force: true });
    throw new Error(`${BIN} keys --json: ${err.message}`);
  }
  let schema = null;
  const args = [
    'serve',
    '--addr', '127.0.0.1:0',
    '--data-dir', dataDir,
    '--rate-limits=false',
    '--mail-min-interval', '1s',
    '--access-log=false',
    '--log-format', 'json',
    ...extraArgs,
  ];
  if (backend === 'postgres') {
    try {
      if (!process.env.TEST_DATABASE_URL) throw new Error('postgres backend needs TEST_DATABASE_URL');
      schema = `t_${rand(12)}`;
      await pgAdmin((c) => c.query(`CREATE SCHEMA ${schema}`));
    } catch (err) {
      await rm(dataDir, { recursive: true, force: true });
      throw err;
    }
    args.push('--database-url', withSearchPath(process.env.TEST_DATABASE_URL, schema));
  } else if (backend !== 'sqlite') {
    await rm(dataDir, { recursive: true, force: true });
    throw new Error(`unknown backend ${backend}`);
  }

  // The server's environment must not carry FAIRBALANCE_* settings from the caller.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('FAIRBALANCE_')));
  // CONFORMANCE_S3_ENDPOINT (e.g. from `go run ./bench/s3fake`) keeps the
  // files in that S3 store (bucket CONFORMANCE_S3_BUCKET, "fairbalance" by
  // default), under a prefix of this server's own.
  if (process.env.CONFORMANCE_S3_ENDPOINT) {
    args.push('--s3-endpoint', process.env.CONFORMANCE_S3_ENDPOINT, '--s3-bucket', process.env.CONFORMANCE_S3_BUCKET || 'fairbalance',
      '--s3-path-style', '--s3-access-key', 'conformance', '--s3-prefix', `conformance-${rand(8)}/`);
    env.FAIRBALANCE_S3_SECRET_KEY = 'conformance';
  }
  const child = spawn(BIN, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const lines = [];
  let partial = '';
  let exited = null;
  let onAddr;
  const addrP = new Promise((res) => { onAddr = res; });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop();
    for (const line of parts) {
      lines.push(line);
      if (lines.length > STDERR_KEEP) lines.shift();
      try {
        const rec = JSON.parse(line);
        if (rec.msg === 'fairbalance serving' && rec.addr) onAddr(rec.addr);
      } catch { /* not JSON */ }
    }
  });
  const exitP = new Promise((res) => child.on('exit', (code, signal) => { exited = { code, signal }; res(exited); }));
  // never leave a server behind, even when the test process ends abruptly
  const killOnExit = () => { if (!exited) child.kill('SIGKILL'); };
  process.on('exit', killOnExit);
  exitP.then(() => process.off('exit', killOnExit));

  const stderrTail = () => [...lines, partial].filter(Boolean).slice(-40).join('\n');
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (!exited) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exitP;
      clearTimeout(t);
    }
    if (schema) {
      await pgAdmin((c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)).catch((e) => {
        console.error(`could not drop schema ${schema}: ${e.message}`);
      });
    }
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    let timer;
    const addr = await Promise.race([
      addrP,
      exitP.then((e) => { throw new Error(`server exited during start (${JSON.stringify(e)})`); }),
      new Promise((_, rej) => { timer = setTimeout(() => rej(new Error('server did not report its address in time')), START_TIMEOUT_MS); }),
    ]).finally(() => clearTimeout(timer));
    const url = `http://${addr}`;
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (exited) throw new Error(`server exited during start (${JSON.stringify(exited)})`);
      try {
        const r = await fetch(`${url}/api/health`);
        if (r.status === 200) break;
      } catch { /* not listening yet */ }
      if (Date.now() > deadline) throw new Error('server did not become healthy in time');
      await sleep(50);
    }
    return makeHandle({ backend, url, keys, stop, stderrTail, exitedRef: () => exited });
  } catch (err) {
    console.error(`fairbalance (${backend}) failed to start: ${err.message}\nserver stderr (tail):\n${stderrTail().replace(/^/gm, '  ')}`);
    await stop();
    throw err;
  }
}

function makeHandle({ backend, url, keys, stop, stderrTail, exitedRef }) {
  const anonKey = keys.anon_key;
  const serviceKey = keys.service_role_key;
  const adminHeaders = { apikey: serviceKey, Authorization: `Bearer ${serviceKey}` };

  /** A fresh user-side client (anon key), with no stored session shared with any other client. */
  const client = (opts = {}) => createClient(url, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, ...(opts.auth || {}) },
    realtime: { transport: WebSocket },
    ...(opts.fetch ? { global: { fetch: opts.fetch } } : {}),
  });
  /** A client with the service_role key, for auth.admin.* */
  const admin = () => createClient(url, serviceKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket },
  });

  /** The outbox for one address, newest first. */
  const mail = async (to, limit = 20) => {
    const r = await fetch(`${url}/api/admin/mail?to=${encodeURIComponent(to)}&limit=${limit}`, { headers: adminHeaders });
    if (r.status !== 200) throw new Error(`GET /api/admin/mail: ${r.status} ${await r.text()}`);
    return r.json();
  };

  /**
   * Waits for the newest e-mail to `to` matching `pred` (e.g. by kind) and
   * returns it with the parsed `link` (the /auth/v1/verify URL) and `code` (6 digits).
   */
  const waitMail = async (to, pred = () => true, { timeout = 10_000 } = {}) => {
    const deadline = Date.now() + timeout;
    for (;;) {
      const list = await mail(to);
      const m = list.find(pred);
      if (m) return { ...m, ...parseMail(m) };
      if (Date.now() > deadline) throw new Error(`no matching e-mail to ${to} within ${timeout} ms; outbox: ${JSON.stringify(list.map((x) => ({ kind: x.kind, subject: x.subject })))}`);
      await sleep(50);
    }
  };

  /** A raw request to the identity service with the anon key (as auth-js sends it). */
  const authFetch = (path, { method = 'GET', body, token, headers = {}, raw = false } = {}) => fetch(`${url}/auth/v1${path}`, {
    method,
    headers: {
      apikey: anonKey,
      Authorization: `Bearer ${token || anonKey}`,
      'X-Supabase-Api-Version': '2024-01-01',
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
  });

  return {
    backend, url, anonKey, serviceKey, adminHeaders,
    client, admin, mail, waitMail, authFetch, stop, stderrTail,
    get exited() { return exitedRef(); },
  };
}

/** Extracts the verify link and the 6-digit code from an e-mail's text. */
export function parseMail(m) {
  const text = m.text || '';
  const lm = text.match(/https?:\/\/\S+\/auth\/v1\/verify\?\S+/);
  const link = lm ? lm[0].replace(/[)>.,]+$/, '') : null;
  const cm = text.match(/(?<![0-9A-Za-z])(\d{6})(?![0-9A-Za-z])/);
  const code = cm ? cm[1] : null;
  let tokenHash = null;
  let type = null;
  if (link) {
    const u = new URL(link);
    tokenHash = u.searchParams.get('token');
    type = u.searchParams.get('type');
  }
  return { link, code, tokenHash, type };
}

/** Parses a URL fragment (#a=b&c=d) into an object. */
export function fragmentParams(location) {
  const i = location.indexOf('#');
  return i < 0 ? {} : Object.fromEntries(new URLSearchParams(location.slice(i + 1)));
}

/** Decodes a JWT without verifying it: { header, payload }. */
export function decodeJwt(jwt) {
  const [h, p] = jwt.split('.');
  const dec = (s) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
  return { header: dec(h), payload: dec(p) };
}

/**
 * Registers `fn(ctx)` once per backend inside a describe block named after
 * the backend. `ctx.srv` is the running server; `ctx.it(name, fn)` declares a
 * test whose failure also prints the tail of the server's stderr.
 */
export function perBackend(fn) {
  for (const backend of BACKENDS) {
    describe(backend, () => {
      const ctx = { srv: null };
      let failed = false;
      let startError = null;
      ctx.it = (name, a, b) => {
        const [opts, body] = typeof a === 'function' ? [{}, a] : [a, b];
        return it(name, opts, async (tc) => {
          // a server that did not start fails every test (rather than cancelling them)
          if (startError) throw startError;
          try {
            await body(tc);
          } catch (err) {
            if (!opts.todo) failed = true;
            throw err;
          }
        });
      };
      before(async () => {
        try {
          ctx.srv = await startServer(backend);
        } catch (err) {
          startError = err;
        }
      });
      after(async () => {
        if (!ctx.srv) return;
        if (failed || ctx.srv.exited) {
          console.error(`fairbalance (${backend}) stderr tail:\n${ctx.srv.stderrTail().replace(/^/gm, '  ')}`);
        }
        await ctx.srv.stop();
      });
      fn(ctx);
    });
  }
}

/** A strong password that satisfies the server's policy. */
export function strongPassword() {
  return `Pw-${rand(10)}-Aa9!`;
}

/** Creates a confirmed e-mail user through the admin API: { id, email, password, user }. */
export async function confirmedUser(srv, { data, email = uniqueEmail(), password = strongPassword() } = {}) {
  const { data: res, error } = await srv.admin().auth.admin.createUser({
    email, password, email_confirm: true, user_metadata: data,
  });
  if (error) throw error;
  return { id: res.user.id, email, password, user: res.user };
}

/** Exchanges a refresh token with a raw request: { status, body, headers }. */
export async function refreshRaw(srv, refreshToken) {
  const r = await srv.authFetch('/token?grant_type=refresh_token', { method: 'POST', body: { refresh_token: refreshToken } });
  const text = await r.text();
  let body;
  try { body = JSON.parse(text); } catch { body = text; }
  return { status: r.status, body, headers: r.headers };
}

/** A client signed in with a password, and its session. */
export async function signedIn(srv, email, password) {
  const c = srv.client();
  const { data, error } = await c.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return { client: c, session: data.session };
}

/** Wraps fetch to record every request URL a client makes. */
export function recordingFetch() {
  const calls = [];
  const f = (input, init) => {
    const u = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    calls.push({ url: u, method: (init && init.method) || 'GET' });
    return fetch(input, init);
  };
  return { fetch: f, calls };
}
