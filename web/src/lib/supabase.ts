import type { SupabaseClient } from "@supabase/supabase-js";
import { fetchConfig } from "./config";
import type { Database } from "./database.types";

let client: Promise<SupabaseClient<Database>> | undefined;

/**
 * Returns the app-wide Supabase client, creating it on first use. The Go
 * server implements the Supabase APIs on its own origin, so the client
 * points at `window.location.origin`; the anon key comes from
 * `GET /api/config`. The library is loaded on demand so screens that do not
 * need it stay small. A failed attempt is not cached: the next call retries.
 */
export function getSupabase(): Promise<SupabaseClient<Database>> {
  client ??= createSupabase().catch((error: unknown) => {
    client = undefined;
    throw error;
  });
  return client;
}

async function createSupabase(): Promise<SupabaseClient<Database>> {
  const [{ createClient }, config] = await Promise.all([
    import("@supabase/supabase-js"),
    fetchConfig(),
  ]);
  return createClient<Database>(window.location.origin, config.anonKey);
}

/** Forgets the cached client. For tests only. */
export function resetSupabaseForTests(): void {
  client = undefined;
}
