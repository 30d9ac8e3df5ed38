import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { notificationKeys as preferenceKeys } from "@/entities/notification-preferences";
import { invalidateNotifications, markReadInCache, type NotificationItem, notificationKeys, notificationsQuery, unreadNotificationsQuery } from "./index";

const USER = "user-1";

function item(id: string, read_at: string | null): NotificationItem {
  return {
    id,
    kind: "step_activated",
    title: "t",
    body: "",
    asset_id: "a1",
    review_id: null,
    step_id: null,
    read_at,
    created_at: "2026-11-27T11:00:00Z",
    assets: null,
    reviews: null,
    review_steps: null,
  };
}

let client: QueryClient | undefined;
afterEach(() => {
  client?.clear();
  client = undefined;
});

function withData(list: NotificationItem[], unread: number): QueryClient {
  const c = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  c.setQueryData(notificationKeys.list(USER), list);
  c.setQueryData(notificationKeys.unread(USER), unread);
  client = c;
  return c;
}

describe("notification keys", () => {
  it("keep the bell's list and count under one root, per member, apart from the preferences", () => {
    const under = (key: readonly unknown[]) => notificationKeys.all.every((part, i) => key[i] === part);
    expect(under(notificationsQuery(USER).queryKey)).toBe(true);
    expect(under(unreadNotificationsQuery(USER).queryKey)).toBe(true);
    expect(notificationKeys.list(USER)).not.toEqual(notificationKeys.list("user-2"));
    expect(under(preferenceKeys.all)).toBe(false);
  });

  it("poll the count and read it again on return to the window; the list only while open", () => {
    const unread = unreadNotificationsQuery(USER);
    expect(unread.refetchInterval).toBe(60_000);
    expect(unread.refetchOnWindowFocus).toBe(true);
    expect(notificationsQuery(USER, false).enabled).toBe(false);
    expect(notificationsQuery(undefined, true).enabled).toBe(false);
  });
});

describe("markReadInCache", () => {
  it("marks one notice read and takes one off the count; restore puts both back", () => {
    const c = withData([item("n1", null), item("n2", null), item("n3", "2026-11-26T00:00:00Z")], 5);
    const restore = markReadInCache(c, USER, ["n2", "n3"], "2026-11-27T12:00:00Z");
    const list = c.getQueryData<NotificationItem[]>(notificationKeys.list(USER));
    expect(list?.map((n) => n.read_at)).toEqual([null, "2026-11-27T12:00:00Z", "2026-11-26T00:00:00Z"]);
    // Only n2 was unread: the count drops by one (more may be unread beyond the list).
    expect(c.getQueryData(notificationKeys.unread(USER))).toBe(4);
    restore();
    expect(c.getQueryData<NotificationItem[]>(notificationKeys.list(USER))?.map((n) => n.read_at)).toEqual([null, null, "2026-11-26T00:00:00Z"]);
    expect(c.getQueryData(notificationKeys.unread(USER))).toBe(5);
  });

  it("marks all read and the count to zero", () => {
    const c = withData([item("n1", null), item("n2", null)], 30);
    markReadInCache(c, USER);
    expect(c.getQueryData<NotificationItem[]>(notificationKeys.list(USER))?.every((n) => n.read_at !== null)).toBe(true);
    expect(c.getQueryData(notificationKeys.unread(USER))).toBe(0);
  });

  it("never counts below zero", () => {
    const c = withData([item("n1", null)], 0);
    markReadInCache(c, USER, ["n1"]);
    expect(c.getQueryData(notificationKeys.unread(USER))).toBe(0);
  });
});

describe("invalidateNotifications", () => {
  it("refreshes the bell's count and list, not the e-mail preferences", async () => {
    const c = withData([item("n1", null)], 1);
    c.setQueryData(preferenceKeys.detail(USER), { cached: true });
    await invalidateNotifications(c);
    expect(c.getQueryState(notificationKeys.list(USER))?.isInvalidated).toBe(true);
    expect(c.getQueryState(notificationKeys.unread(USER))?.isInvalidated).toBe(true);
    expect(c.getQueryState(preferenceKeys.detail(USER))?.isInvalidated).toBe(false);
  });
});
