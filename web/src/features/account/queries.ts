import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type NotificationKey,
  notificationKeys,
  notificationPreferencesQuery,
  type NotificationSettings,
  saveNotificationPreferences,
} from "@/entities/notification-preferences";
import { useAuth } from "@/lib/auth";

export { DEFAULT_NOTIFICATIONS, type NotificationKey } from "@/entities/notification-preferences";

/** The caller's notification preferences, or the defaults when none are saved. */
export function useNotificationPreferences() {
  const { user } = useAuth();
  return useQuery(notificationPreferencesQuery(user?.id));
}

/**
 * Saves one preference: an upsert of the caller's whole row (the first save
 * creates it), applied optimistically and rolled back when refused.
 */
export function useSaveNotificationPreference() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const key = notificationKeys.detail(user?.id);
  return useMutation({
    mutationFn: ({ next }: { field: NotificationKey; value: boolean; next: Record<NotificationKey, boolean> }) =>
      saveNotificationPreferences(user?.id ?? "", next),
    onMutate: async ({ field, value }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<NotificationSettings>(key);
      if (previous) queryClient.setQueryData<NotificationSettings>(key, { ...previous, [field]: value });
      return { previous };
    },
    onError: (_error, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (row) => {
      queryClient.setQueryData<NotificationSettings>(key, { ...row });
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
