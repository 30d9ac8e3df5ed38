import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { unwrap } from "@/lib/data";
import type { Row } from "@/lib/db-types";
import { getSupabase } from "@/lib/supabase";

/** An in-app notice to the signed-in member (table `notifications`; each member reads only their own). */
export type Notification = Row<"notifications">;

/** What a notice is about. */
export type NotificationKind = Notification["kind"];

/**
 * A notice as the bell lists it: the notice with what its sentence names —
 * the asset (title, expiry), the round (number, outcome) and the step
 * (role, decision, due time, who decided). Each is null when the notice
 * has none or the row is gone.
 */
export interface NotificationItem extends Pick<Notification, "id" | "kind" | "title" | "body" | "asset_id" | "review_id" | "step_id" | "read_at" | "created_at"> {
  assets: Pick<Row<"assets">, "title" | "expires_at"> | null;
  reviews: Pick<Row<"reviews">, "round" | "status"> | null;
  review_steps: Pick<Row<"review_steps">, "role" | "status" | "due_at" | "decided_by"> | null;
}

/** How many recent notices the bell lists. */
export const NOTIFICATION_LIST_LIMIT = 20;

/**
 * How often the unread count is asked for while the app is open (and on
 * every return to the window). Realtime will push notices later; it will
 * call {@link invalidateNotifications}, and the polling can then go.
 */
export const NOTIFICATION_POLL_MS = 60_000;

/**
 * Every notification query sits under `notifications`, per member (the
 * server only ever answers with the caller's own rows, but a browser that
 * changes user must not show the previous one's cached notices).
 */
export const notificationKeys = {
  all: ["notifications"] as const,
  list: (userId: string | null | undefined) => [...notificationKeys.all, "list", userId ?? null] as const,
  unread: (userId: string | null | undefined) => [...notificationKeys.all, "unread", userId ?? null] as const,
};

const ITEM_COLUMNS =
  "id, kind, title, body, asset_id, review_id, step_id, read_at, created_at, assets(title, expires_at), reviews(round, status), review_steps(role, status, due_at, decided_by)";

/** The member's most recent notices, newest first. */
export async function fetchNotifications(signal?: AbortSignal): Promise<NotificationItem[]> {
  const sb = await getSupabase();
  let q = sb
    .from("notifications")
    .select(ITEM_COLUMNS)
    .order("created_at", { ascending: false })
    .order("id", { ascending: false })
    .limit(NOTIFICATION_LIST_LIMIT);
  if (signal) q = q.abortSignal(signal);
  // The generated types check the embedded rows against NotificationItem.
  const items: NotificationItem[] = unwrap(await q);
  return items;
}

/** The bell's list: read again whenever it is opened, so it is never behind the count. */
export function notificationsQuery(userId: string | null | undefined, enabled = true) {
  return queryOptions({
    queryKey: notificationKeys.list(userId),
    enabled: enabled && Boolean(userId),
    queryFn: ({ signal }) => fetchNotifications(signal),
    staleTime: 0,
  });
}

/** How many of the member's notices are unread (a count only, no rows). */
export async function fetchUnreadCount(signal?: AbortSignal): Promise<number> {
  const sb = await getSupabase();
  let q = sb.from("notifications").select("id", { count: "exact", head: true }).is("read_at", null);
  if (signal) q = q.abortSignal(signal);
  const result = await q;
  unwrap(result);
  return result.count ?? 0;
}

/** The unread count on the bell, polled while the app is open and read again on return to the window. */
export function unreadNotificationsQuery(userId: string | null | undefined) {
  return queryOptions({
    queryKey: notificationKeys.unread(userId),
    enabled: Boolean(userId),
    queryFn: ({ signal }) => fetchUnreadCount(signal),
    // A count costs the server one indexed count: read it again on every return to the window.
    staleTime: 0,
    refetchInterval: NOTIFICATION_POLL_MS,
    refetchOnWindowFocus: true,
  });
}

/**
 * Marks the member's notices read: those named, or every unread one when
 * `ids` is omitted. Returns how many changed (already read ones do not count).
 */
export async function markNotificationsRead(ids?: readonly string[]): Promise<number> {
  const sb = await getSupabase();
  const body = unwrap(await sb.rpc("mark_notifications_read", ids ? { ids: [...ids] } : {})) as { updated?: unknown } | null;
  return typeof body?.updated === "number" ? body.updated : 0;
}

/**
 * Shows notices as read at once (before the server answers): `ids`, or
 * every one when omitted; the unread count drops by as many as were
 * unread in the list, or to zero for all. Returns what to restore on a
 * refusal.
 */
export function markReadInCache(queryClient: QueryClient, userId: string | null | undefined, ids?: readonly string[], now = new Date().toISOString()) {
  const listKey = notificationKeys.list(userId);
  const unreadKey = notificationKeys.unread(userId);
  const previous = { list: queryClient.getQueryData<NotificationItem[]>(listKey), unread: queryClient.getQueryData<number>(unreadKey) };
  const hit = (n: NotificationItem) => n.read_at === null && (!ids || ids.includes(n.id));
  const newlyRead = previous.list?.filter(hit).length ?? 0;
  if (previous.list) queryClient.setQueryData<NotificationItem[]>(listKey, previous.list.map((n) => (hit(n) ? { ...n, read_at: now } : n)));
  if (previous.unread !== undefined) queryClient.setQueryData<number>(unreadKey, ids ? Math.max(0, previous.unread - newlyRead) : 0);
  return () => {
    queryClient.setQueryData(listKey, previous.list);
    queryClient.setQueryData(unreadKey, previous.unread);
  };
}

/** Refreshes the bell (count and list) after notices changed: marked read here, or new ones arrived. */
export async function invalidateNotifications(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: notificationKeys.all });
}
