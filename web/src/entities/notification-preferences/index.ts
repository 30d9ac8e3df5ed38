import { queryOptions } from "@tanstack/react-query";
import { unwrap } from "@/lib/data";
import type { Row } from "@/lib/db-types";
import { getSupabase } from "@/lib/supabase";

/** A member's notification preferences (table `notification_preferences`). */
export type NotificationPreferences = Row<"notification_preferences">;

/** The preferences a member switches. */
export type NotificationKey = Exclude<keyof NotificationPreferences, "user_id" | "updated_at">;

/** The switches with the time they were last saved (null while the defaults apply). */
export type NotificationSettings = Record<NotificationKey, boolean> & { updated_at: string | null };

/** The server's defaults while a member has saved no preferences (service/workspace.go). */
export const DEFAULT_NOTIFICATIONS: Record<NotificationKey, boolean> = {
  review_assigned: true,
  review_decision: true,
  comment_mention: true,
  due_reminders: true,
  asset_expiring: true,
  weekly_digest: false,
  signing_locked: true,
};

export const notificationKeys = {
  all: ["notification_preferences"] as const,
  detail: (userId: string | null | undefined) => [...notificationKeys.all, userId ?? null] as const,
};

/** The member's notification preferences, or the defaults when none are saved. */
export function notificationPreferencesQuery(userId: string | null | undefined) {
  return queryOptions({
    queryKey: notificationKeys.detail(userId),
    enabled: Boolean(userId),
    queryFn: async (): Promise<NotificationSettings> => {
      const sb = await getSupabase();
      const row = unwrap<NotificationPreferences | null>(await sb.from("notification_preferences").select("*").eq("user_id", userId ?? "").maybeSingle());
      return row ? { ...row } : { ...DEFAULT_NOTIFICATIONS, updated_at: null };
    },
  });
}

/** Saves the member's whole row (the first save creates it). */
export async function saveNotificationPreferences(userId: string, values: Record<NotificationKey, boolean>): Promise<NotificationPreferences> {
  const sb = await getSupabase();
  return unwrap(
    await sb
      .from("notification_preferences")
      .upsert({ user_id: userId, ...values }, { onConflict: "user_id" })
      .select("*")
      .single(),
  );
}
