import { secondFactorDue } from "./assurance";
import { embeddedConfig, gateClosedAtLoad } from "./config";
import { readStoredSession, type StoredSession } from "./supabase";

/**
 * Requests for a signed-in visitor's first screen, started at boot — before
 * the app's code, supabase-js and the session check have loaded — with the
 * stored session's token and the anon key the page carries. Each is handed,
 * once, to the query that asks for it; that query falls back to its usual
 * request when the early one failed, so errors are reported the usual way.
 * The server decides what the token may read, exactly as for any request.
 */

// A load not taken within this time (the visitor was sent to sign in or to
// the gate first) is dropped rather than shown stale.
const TTL_MS = 15_000;
// A token about to expire is left to supabase-js, which refreshes it first.
const MIN_VALIDITY_S = 60;

const loads = new Map<string, { promise: Promise<unknown>; at: number }>();

/**
 * The stored session when its access token stays valid for at least a
 * minute (its `expires_at` says so), else null.
 */
export function freshStoredSession(now: number = Date.now()): StoredSession | null {
  const session = readStoredSession();
  if (!session?.expires_at || session.expires_at - MIN_VALIDITY_S <= now / 1000) return null;
  return session;
}

/**
 * The headers of an API request as the stored session, or null without a
 * fresh session and the page's config — and null when the server is known
 * to refuse the request: the passcode gate is closed to this browser, or the
 * session has yet to answer its authenticator challenge (the first screen is
 * then the gate or the code step, which need no data).
 */
export function earlyHeaders(): Record<string, string> | null {
  const session = freshStoredSession();
  const config = embeddedConfig();
  if (!session || !config || gateClosedAtLoad() || secondFactorDue(session)) return null;
  return { apikey: config.anonKey, Authorization: `Bearer ${session.access_token}` };
}

/** An HTTP failure of an early request; the query that takes it asks again the usual way. */
export class EarlyLoadError extends Error {
  readonly status: number;
  constructor(status: number) {
    super(`early load: HTTP ${status}`);
    this.status = status;
    this.name = "EarlyLoadError";
  }
}

/**
 * Starts GET `path` (same origin) as the stored session and keeps its
 * parsed JSON answer under `key`. Returns the load, or null when there is
 * no fresh session (nothing started).
 *
 * `priority` is the request's fetch priority: over HTTP/1.1 the browser has
 * six connections per host and a cold start queues dozens of script chunks
 * on them, so what the first screen waits for goes first ("high", the
 * default) and what it shows later ("low") goes after the scripts.
 */
export function startEarly<T>(key: string, path: string, priority: RequestPriority = "high"): Promise<T> | null {
  const headers = earlyHeaders();
  if (!headers) return null;
  const promise = fetch(path, { priority, headers: { ...headers, Accept: "application/json" } }).then(async (res) => {
    if (!res.ok) throw new EarlyLoadError(res.status);
    return (await res.json()) as T;
  });
  // Unhandled until taken: a failure is reported by the query that retries it, not here.
  promise.catch(() => undefined);
  loads.set(key, { promise, at: performance.now() });
  return promise;
}

/** The load started under `key`, handed out once; undefined when there is none or it is too old. */
export function takeEarly<T>(key: string): Promise<T> | undefined {
  const entry = loads.get(key);
  loads.delete(key);
  if (!entry || performance.now() - entry.at > TTL_MS) return undefined;
  return entry.promise as Promise<T>;
}

/**
 * The early load under `key` when there is one, falling back to `load()`
 * when there is none or it failed.
 */
export function earlyOr<T>(key: string, load: () => Promise<T>): Promise<T> {
  const early = takeEarly<T>(key);
  return early ? early.catch(load) : load();
}

/** The profile columns every signed-in screen needs (the shell waits for them). */
export const PROFILE_COLUMNS = "id,org_id,role,full_name,avatar_url";

/** The early-load key and REST path of member `userId`'s profile. */
export const profileLoad = {
  key: (userId: string) => `profile:${userId}`,
  path: (userId: string) => `/rest/v1/profiles_v2?select=${encodeURIComponent(PROFILE_COLUMNS)}&id=eq.${encodeURIComponent(userId)}`,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` could be a row id at all (an asset address with anything else is simply not found). */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/**
 * The columns of an asset's versions that the version list and the viewers
 * need; the extracted text and the editor JSON are loaded per version when
 * compared or edited.
 */
export const VERSION_COLUMNS =
  "id, org_id, asset_id, number, kind, content_html, file_bucket, file_path, file_name, mimetype, file_size, sha256, page_count, change_note, submitted_at, created_at, created_by, updated_at";

/**
 * The early loads of an asset's page — the asset, its versions (newest
 * first), and the product and member names it shows — by key and REST path.
 * The boot script starts them; the entities' queries take them (they live
 * here, free of the query library, so the boot script stays small).
 */
export const assetPageLoads = {
  asset: { key: (id: string) => `asset:${id}`, path: (id: string) => `/rest/v1/assets?select=*&id=eq.${id}` },
  versions: {
    key: (assetId: string) => `versions:${assetId}`,
    path: (assetId: string) =>
      `/rest/v1/asset_versions?select=${encodeURIComponent(VERSION_COLUMNS.replaceAll(" ", ""))}&asset_id=eq.${assetId}&order=number.desc`,
  },
  productNames: { key: "products:summary", path: "/rest/v1/products?select=id,brand_name,established_name&order=brand_name.asc" },
  people: { key: "members:people", path: "/rest/v1/members?select=id,full_name,email&order=full_name.asc" },
};
