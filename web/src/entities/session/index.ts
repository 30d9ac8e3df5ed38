import type { Factor } from "@supabase/supabase-js";
import { queryOptions, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { memberKeys } from "@/entities/members";
import { useAuth } from "@/lib/auth";
import { unwrap } from "@/lib/data";
import { getSupabase } from "@/lib/supabase";

/**
 * The signed-in member's sessions and sign-in security: the active
 * sessions (rpc list_sessions), the second factors and this session's
 * assurance level (auth).
 */

/** A session of the caller, as list_sessions reports it. */
export interface SessionInfo {
  id: string;
  created_at: string;
  refreshed_at: string | null;
  user_agent: string;
  ip: string;
  aal: string;
  current: boolean;
}

/** Second factors and the assurance level of this session. */
export interface SecurityStatus {
  /** Verified factors (enrolments still waiting for a code are left out). */
  factors: Factor[];
  /** The level of this session's token: aal1 (password) or aal2 (with a second factor). */
  currentLevel: string | null;
  /** The level the account can reach: aal2 once a factor is verified. */
  nextLevel: string | null;
}

export const sessionKeys = {
  all: ["sessions"] as const,
  list: (userId: string | null | undefined) => [...sessionKeys.all, "list", userId ?? null] as const,
  // The access token is in the key: a new token (after verifying a code or
  // refreshing) may carry another level.
  security: (userId: string | null | undefined, accessToken: string | null | undefined) =>
    [...sessionKeys.all, "security", userId ?? null, accessToken ?? null] as const,
  user: (userId: string | null | undefined) => [...sessionKeys.all, "user", userId ?? null] as const,
};

/**
 * The signed-in account as the server has it now (auth getUser): its
 * e-mail address and an e-mail change waiting for confirmation.
 */
export function authUserQuery(userId: string | null | undefined) {
  return queryOptions({
    queryKey: sessionKeys.user(userId),
    enabled: Boolean(userId),
    queryFn: async () => {
      const sb = await getSupabase();
      const { data, error } = await sb.auth.getUser();
      if (error) throw error;
      return data.user;
    },
  });
}

export function parseSessions(body: unknown): SessionInfo[] {
  if (!Array.isArray(body)) return [];
  return body.flatMap((raw: unknown) => {
    if (typeof raw !== "object" || raw === null) return [];
    const r = raw as Record<string, unknown>;
    if (typeof r.id !== "string") return [];
    const str = (v: unknown) => (typeof v === "string" ? v : "");
    return [
      {
        id: r.id,
        created_at: str(r.created_at),
        refreshed_at: typeof r.refreshed_at === "string" ? r.refreshed_at : typeof r.updated_at === "string" ? r.updated_at : null,
        user_agent: str(r.user_agent),
        ip: str(r.ip),
        aal: str(r.aal) || "aal1",
        current: r.current === true,
      },
    ];
  });
}

/** The caller's active sessions, the current one first. */
export function sessionsQuery(userId: string | null | undefined) {
  return queryOptions({
    queryKey: sessionKeys.list(userId),
    enabled: Boolean(userId),
    queryFn: async () => {
      const sb = await getSupabase();
      return parseSessions(unwrap(await sb.rpc("list_sessions")));
    },
  });
}

/** The caller's factors (fresh from the server) and this session's AAL. */
export function securityStatusQuery(userId: string | null | undefined, accessToken: string | null | undefined) {
  return queryOptions({
    queryKey: sessionKeys.security(userId, accessToken),
    enabled: Boolean(userId && accessToken),
    queryFn: async (): Promise<SecurityStatus> => {
      const sb = await getSupabase();
      const [factors, aal] = await Promise.all([sb.auth.mfa.listFactors(), sb.auth.mfa.getAuthenticatorAssuranceLevel(accessToken ?? undefined)]);
      if (factors.error) throw factors.error;
      if (aal.error) throw aal.error;
      return {
        factors: factors.data.all.filter((f) => f.status === "verified"),
        currentLevel: aal.data.currentLevel,
        nextLevel: aal.data.nextLevel,
      };
    },
  });
}

/** The signed-in member's active sessions. */
export function useSessions() {
  const { user } = useAuth();
  return useQuery(sessionsQuery(user?.id));
}

/** The signed-in member's factors and this session's assurance level. */
export function useSecurityStatus() {
  const { user, session } = useAuth();
  return useQuery(securityStatusQuery(user?.id, session?.access_token));
}

/** Ends one of the caller's sessions (rpc revoke_session). */
export async function revokeSession(sessionId: string): Promise<void> {
  const sb = await getSupabase();
  unwrap(await sb.rpc("revoke_session", { session_id: sessionId }));
}

/** Ends every session of the caller but this one. */
export async function signOutOthers(): Promise<void> {
  const sb = await getSupabase();
  const { error } = await sb.auth.signOut({ scope: "others" });
  if (error) throw error;
}

/**
 * Refreshes the sessions and the security status after a change (a code
 * verified, a factor added or removed, the password changed, a session
 * ended), and the member rows, which say whether MFA is on.
 */
export async function invalidateSession(queryClient: QueryClient): Promise<void> {
  await Promise.all([queryClient.invalidateQueries({ queryKey: sessionKeys.all }), queryClient.invalidateQueries({ queryKey: memberKeys.all })]);
}

/** {@link invalidateSession} bound to the app's query client. */
export function useInvalidateSession(): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => invalidateSession(queryClient);
}
