import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Factor } from "@supabase/supabase-js";
import { useAuth } from "@/lib/auth";
import { unwrap } from "@/lib/data";
import type { Database } from "@/lib/database.types";
import { getSupabase } from "@/lib/supabase";

export type MemberRow = Database["public"]["Tables"]["members"]["Row"];
export type NotificationPreferences = Database["public"]["Tables"]["notification_preferences"]["Row"];
export type NotificationKey = Exclude<keyof NotificationPreferences, "user_id" | "updated_at">;

/** The caller's organisation (name for the overview). */
export function useOrg(orgId: string | null | undefined) {
  return useQuery({
    queryKey: ["org", orgId],
    enabled: Boolean(orgId),
    queryFn: async (): Promise<{ id: string; name: string } | null> => {
      const sb = await getSupabase();
      return unwrap<{ id: string; name: string } | null>(
        await sb.from("orgs").select("id, name").eq("id", orgId ?? "").maybeSingle(),
      );
    },
  });
}

/** The caller's own row of members (sign-in times, whether MFA is on). */
export function useOwnMember() {
  const { user } = useAuth();
  return useQuery({
    queryKey: ["members", "self", user?.id],
    enabled: Boolean(user?.id),
    queryFn: async (): Promise<MemberRow | null> => {
      const sb = await getSupabase();
      return unwrap<MemberRow | null>(await sb.from("members").select("*").eq("id", user?.id ?? "").maybeSingle());
    },
  });
}

/** The server's defaults while a member has saved no preferences (service/workspace.go). */
export const DEFAULT_NOTIFICATIONS: Record<NotificationKey, boolean> = {
  review_assigned: true,
  review_decision: true,
  comment_mention: true,
  due_reminders: true,
  asset_expiring: true,
  weekly_digest: false,
};

const NOTIFICATIONS_KEY = "notification_preferences";

/** The caller's notification preferences, or the defaults when none are saved. */
export function useNotificationPreferences() {
  const { user } = useAuth();
  return useQuery({
    queryKey: [NOTIFICATIONS_KEY, user?.id],
    enabled: Boolean(user?.id),
    queryFn: async (): Promise<Record<NotificationKey, boolean> & { updated_at: string | null }> => {
      const sb = await getSupabase();
      const row = unwrap<NotificationPreferences | null>(
        await sb.from("notification_preferences").select("*").eq("user_id", user?.id ?? "").maybeSingle(),
      );
      return row ? { ...row } : { ...DEFAULT_NOTIFICATIONS, updated_at: null };
    },
  });
}

/**
 * Saves one preference: an upsert of the caller's whole row (the first save
 * creates it), applied optimistically and rolled back when refused.
 */
export function useSaveNotificationPreference() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const key = [NOTIFICATIONS_KEY, user?.id];
  type Prefs = Record<NotificationKey, boolean> & { updated_at: string | null };
  return useMutation({
    mutationFn: async ({ next }: { field: NotificationKey; value: boolean; next: Record<NotificationKey, boolean> }) => {
      const sb = await getSupabase();
      return unwrap<NotificationPreferences>(
        await sb
          .from("notification_preferences")
          .upsert({ user_id: user?.id ?? "", ...next }, { onConflict: "user_id" })
          .select("*")
          .single(),
      );
    },
    onMutate: async ({ field, value }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Prefs>(key);
      if (previous) queryClient.setQueryData<Prefs>(key, { ...previous, [field]: value });
      return { previous };
    },
    onError: (_error, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (row) => {
      queryClient.setQueryData<Prefs>(key, { ...row });
    },
  });
}

/**
 * The workspace settings as the security manager reports them. `editable`
 * is the server's word on whether this session may change them: only the
 * instance operator may; an organisation's admin reads them.
 */
export interface WorkspaceSettings {
  editable: boolean;
  preview_passcode_enabled: boolean;
  preview_passcode_set: boolean;
  site_access_mode: "PUBLIC" | "PRIVATE";
  disable_signup: boolean;
  block_indexing: boolean;
  updated_at: string | null;
}

/** A change sent with UPDATE_SETTINGS; absent fields stay as they are. */
export interface WorkspaceSettingsPatch {
  preview_passcode_enabled?: boolean;
  preview_passcode?: string;
  site_access_mode?: "PUBLIC" | "PRIVATE";
  disable_signup?: boolean;
  block_indexing?: boolean;
}

export function parseWorkspaceSettings(body: unknown): WorkspaceSettings {
  const b = body as { settings?: Record<string, unknown>; editable?: unknown } | null;
  const s = b?.settings ?? {};
  return {
    editable: b?.editable === true,
    preview_passcode_enabled: s.preview_passcode_enabled === true,
    preview_passcode_set: s.preview_passcode_set === true,
    site_access_mode: s.site_access_mode === "PRIVATE" ? "PRIVATE" : "PUBLIC",
    disable_signup: s.disable_signup === true,
    block_indexing: s.block_indexing === true,
    updated_at: typeof s.updated_at === "string" ? s.updated_at : null,
  };
}

export const WORKSPACE_SETTINGS_KEY = ["workspace_settings", "security-manager"];

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

function parseSessions(body: unknown): SessionInfo[] {
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

export const SESSIONS_KEY = "sessions";

/** The caller's active sessions, the current one first. */
export function useSessions() {
  const { user } = useAuth();
  return useQuery({
    queryKey: [SESSIONS_KEY, user?.id],
    enabled: Boolean(user?.id),
    queryFn: async () => {
      const sb = await getSupabase();
      return parseSessions(unwrap<unknown>(await sb.rpc("list_sessions")));
    },
  });
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

export const SECURITY_KEY = "security-status";

/** The caller's factors (fresh from the server) and this session's AAL. */
export function useSecurityStatus() {
  const { user, session } = useAuth();
  return useQuery({
    // The access token is in the key: a new token (after verifying a code
    // or refreshing) may carry another level.
    queryKey: [SECURITY_KEY, user?.id, session?.access_token],
    enabled: Boolean(user?.id && session?.access_token),
    queryFn: async (): Promise<SecurityStatus> => {
      const sb = await getSupabase();
      const [factors, aal] = await Promise.all([
        sb.auth.mfa.listFactors(),
        sb.auth.mfa.getAuthenticatorAssuranceLevel(session?.access_token),
      ]);
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
