import type { SupabaseClient } from "@supabase/supabase-js";
import { getConfig } from "./config";
import type { Database } from "./database.types";
import { reportRefusal } from "./session-end";

/** Where supabase-js keeps the session (local storage, as the spec says). */
export const AUTH_STORAGE_KEY = "fairbalance.auth";

/** Fired on `window` when the server refuses a request for want of the gate cookie. */
export const GATE_REQUIRED_EVENT = "fairbalance:gate-required";

export type Client = SupabaseClient<Database>;

let client: Promise<Client> | undefined;
const created = new Set<(client: Client) => void>();

/**
 * Returns the app-wide Supabase client, creating it on first use. The Go
 * server implements the Supabase APIs on its own origin, so the client
 * points at `window.location.origin`; the anon key comes from
 * `GET /api/config`. The library is loaded on demand so screens that do not
 * need it (the sign-in screen before submit) stay small. A failed attempt is
 * not cached: the next call retries.
 */
export function getSupabase(): Promise<Client> {
  client ??= createSupabase().then(
    (c) => {
      for (const listener of created) listener(c);
      return c;
    },
    (error: unknown) => {
      client = undefined;
      throw error;
    },
  );
  return client;
}

/** Calls `listener` once the client exists (at once if it already does). */
export function onSupabaseCreated(listener: (client: Client) => void): () => void {
  created.add(listener);
  void client?.then(listener, () => undefined);
  return () => created.delete(listener);
}

/**
 * Watches API answers for the passcode gate's refusal, and reports the
 * refusals of a member's token that may mean the session ended (see
 * lib/session-end).
 */
const gateAwareFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (response.status !== 401 && response.status !== 403) return response;
  let code: string | undefined;
  if (response.headers.get("content-type")?.includes("json")) {
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => null);
    const value = body && typeof body === "object" ? (body as { code?: unknown }).code : undefined;
    code = typeof value === "string" ? value : undefined;
    if (response.status === 401 && code === "gate_required") {
      window.dispatchEvent(new Event(GATE_REQUIRED_EVENT));
    }
  }
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const bearer = new Headers(init?.headers ?? (typeof input === "object" && !(input instanceof URL) ? input.headers : undefined)).get("Authorization");
  reportRefusal(url, response.status, bearer, code);
  return response;
};

async function createSupabase(): Promise<Client> {
  const [{ createClient }, config] = await Promise.all([import("@supabase/supabase-js"), getConfig()]);
  return createClient<Database>(window.location.origin, config.anonKey, {
    auth: {
      storageKey: AUTH_STORAGE_KEY,
      flowType: "implicit",
      persistSession: true,
      autoRefreshToken: true,
      detectSessionInUrl: true,
    },
    global: { fetch: gateAwareFetch },
  });
}

/** The session supabase-js stored, read without loading the library. */
export interface StoredSession {
  access_token: string;
  refresh_token: string;
  expires_at?: number;
  user?: { id?: string; email?: string };
}

/**
 * The stored session, if any, so the route guard can decide without loading
 * supabase-js. An expired access token still counts when a refresh token is
 * present: the client will refresh it.
 */
export function readStoredSession(): StoredSession | null {
  try {
    const raw = window.localStorage.getItem(AUTH_STORAGE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<StoredSession> | null;
    if (value && typeof value.access_token === "string" && typeof value.refresh_token === "string") {
      return value as StoredSession;
    }
  } catch {
    // unreadable storage: treat as signed out
  }
  return null;
}

/** Whether the URL carries tokens from an e-mail link (confirmation, magic link). */
export function urlHasAuthTokens(location: Pick<Location, "hash" | "search"> = window.location): boolean {
  return /(?:^|[#&?])(access_token|error_description)=/.test(location.hash) || new URLSearchParams(location.search).has("code");
}

/** Forgets the cached client. For tests only. */
export function resetSupabaseForTests(): void {
  client = undefined;
}
