import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  AlarmClock,
  Bell,
  BellOff,
  CalendarClock,
  CalendarX,
  CheckCheck,
  CircleCheck,
  ClipboardCheck,
  Clock,
  Gavel,
  Lock,
  Undo2,
  UserCheck,
  type LucideIcon,
} from "lucide-react";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { Skeleton } from "@/components/ui/skeleton";
import { peopleQuery } from "@/entities/members";
import {
  invalidateNotifications,
  markNotificationsRead,
  markReadInCache,
  type NotificationItem,
  notificationsQuery,
  unreadNotificationsQuery,
} from "@/entities/notifications";
import { useAuth, useReadOnly } from "@/lib/auth";
import { errorMessage } from "@/lib/errors";
import { formatDateTime, formatRelative } from "@/lib/format-time";
import { describeServerError, toastServerError } from "@/lib/server-error";
import { cn } from "@/lib/utils";
import { noticeDetail, noticeKindLabel, noticeSentence } from "./sentences";

const KIND_ICONS: Record<string, LucideIcon> = {
  step_activated: ClipboardCheck,
  step_assigned: UserCheck,
  decision: Gavel,
  round_closed: CircleCheck,
  due_soon: Clock,
  overdue: AlarmClock,
  expiry_soon: CalendarClock,
  expired: CalendarX,
  signing_locked: Lock,
  asset_withdrawn: Undo2,
};

// Overdue work, expiries and lockouts want attention; the rest is news.
const URGENT = new Set(["overdue", "expired", "signing_locked", "asset_withdrawn"]);

/** The badge's number: up to 99, then "99+". */
function badgeCount(n: number): string {
  return n > 99 ? "99+" : String(n);
}

/**
 * The bell in the top bar: the member's unread count, and a panel with
 * their recent notices (what happened, to which asset, when). Opening one
 * marks it read and goes to its asset; "Mark all as read" clears the
 * count. The count is polled and read again on return to the window until
 * realtime pushes notices.
 *
 * In the read-only demo the bell shows the demo member's notices as they
 * are (a reviewer's waiting steps, a marketer's decisions) but marks
 * nothing read: that is a write the server refuses there.
 */
export function NotificationBell() {
  const { user } = useAuth();
  const readOnly = useReadOnly();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const userId = user?.id;
  const unread = useQuery(unreadNotificationsQuery(userId));
  const count = unread.data ?? 0;

  const markRead = useMutation({
    mutationFn: (ids?: string[]) => markNotificationsRead(ids),
    onMutate: (ids) => ({ restore: markReadInCache(queryClient, userId, ids) }),
    onError: (error, _ids, context) => {
      context?.restore();
      toastServerError("Not marked as read", describeServerError(error, "Your notifications could not be marked as read."));
    },
    onSettled: () => invalidateNotifications(queryClient),
  });

  const name = count > 0 ? `Notifications, ${count} unread` : "Notifications";
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger
        aria-label={name}
        data-testid="notification-bell"
        className="relative inline-flex size-9 shrink-0 items-center justify-center rounded-full text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-2 data-[state=open]:bg-accent data-[state=open]:text-foreground"
      >
        <Bell aria-hidden="true" className="size-5" />
        {count > 0 ? (
          <span
            aria-hidden="true"
            data-testid="notification-count"
            className="absolute top-0.5 right-0.5 inline-flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-destructive px-1 text-[0.625rem] leading-none font-semibold text-white tabular-nums ring-2 ring-card"
          >
            {badgeCount(count)}
          </span>
        ) : null}
      </PopoverTrigger>
      <PopoverContent
        align="end"
        sideOffset={10}
        collisionPadding={0}
        aria-labelledby="notifications-heading"
        className="flex w-screen flex-col max-sm:rounded-none max-sm:border-x-0 sm:w-96"
      >
        <NotificationPanel
          userId={userId}
          open={open}
          readOnly={readOnly}
          unread={count}
          onMarkAll={() => {
            markRead.mutate(undefined);
          }}
          onOpenNotice={(n) => {
            if (!readOnly && n.read_at === null) markRead.mutate([n.id]);
            setOpen(false);
          }}
          onClose={() => {
            setOpen(false);
          }}
        />
      </PopoverContent>
    </Popover>
  );
}

function NotificationPanel({
  userId,
  open,
  readOnly,
  unread,
  onMarkAll,
  onOpenNotice,
  onClose,
}: {
  userId: string | undefined;
  open: boolean;
  readOnly: boolean;
  unread: number;
  onMarkAll: () => void;
  onOpenNotice: (n: NotificationItem) => void;
  onClose: () => void;
}) {
  const list = useQuery(notificationsQuery(userId, open));
  const people = useQuery({ ...peopleQuery(), enabled: open });
  const names = useMemo(() => new Map((people.data ?? []).map((p) => [p.id, p.full_name.trim() || p.email])), [people.data]);
  const items = list.data ?? [];

  return (
    <>
      <div className="sticky top-0 z-10 flex items-center justify-between gap-3 border-b bg-card px-4 py-2.5">
        <h2 id="notifications-heading" className="text-sm font-semibold">
          Notifications
        </h2>
        {readOnly ? null : (
          <Button variant="ghost" size="sm" className="-mr-2" disabled={unread === 0} onClick={onMarkAll}>
            <CheckCheck aria-hidden="true" />
            Mark all as read
          </Button>
        )}
      </div>
      {readOnly ? (
        <div className="border-b px-4 py-2">
          <ReadOnlyNote>Read-only demo: notifications stay unread</ReadOnlyNote>
        </div>
      ) : null}
      {list.isPending ? (
        <div className="grid gap-3 p-4" aria-label="Loading notifications">
          <Skeleton className="h-14 w-full" />
          <Skeleton className="h-14 w-full" />
          <Skeleton className="h-14 w-full" />
        </div>
      ) : list.isError ? (
        <div className="grid justify-items-start gap-2 p-4">
          <p role="alert" className="text-sm font-medium text-destructive">
            {errorMessage(list.error, "Your notifications could not be loaded.")}
          </p>
          <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
            Retry
          </Button>
        </div>
      ) : items.length === 0 ? (
        <div className="flex flex-col items-center gap-2 px-6 py-10 text-center">
          <span className="inline-flex size-10 items-center justify-center rounded-full bg-muted">
            <BellOff aria-hidden="true" className="size-5 text-muted-foreground" />
          </span>
          <p className="text-sm font-medium">No notifications yet</p>
          <p className="text-sm leading-6 text-muted-foreground">
            Review steps waiting for you, decisions on your content and approvals about to expire show up here.
          </p>
        </div>
      ) : (
        <ul className="divide-y" aria-labelledby="notifications-heading">
          {items.map((n) => (
            <NoticeRow key={n.id} notice={n} names={names} onOpen={onOpenNotice} />
          ))}
        </ul>
      )}
      <div className="border-t px-4 py-2.5 text-center">
        <Link
          to="/settings"
          className="text-xs font-medium text-primary underline-offset-4 hover:underline"
          onClick={onClose}
        >
          Notification e-mail settings
        </Link>
      </div>
    </>
  );
}

function NoticeRow({ notice: n, names, onOpen }: { notice: NotificationItem; names: ReadonlyMap<string, string>; onOpen: (n: NotificationItem) => void }) {
  const sentence = noticeSentence(n, names);
  const detail = noticeDetail(n);
  const Icon = KIND_ICONS[n.kind] ?? Bell;
  const isUnread = n.read_at === null;
  const body = (
    <>
      <span
        aria-hidden="true"
        className={cn(
          "mt-0.5 inline-flex size-8 shrink-0 items-center justify-center rounded-full",
          URGENT.has(n.kind) ? "bg-red-50 text-red-700 dark:bg-red-950 dark:text-red-300" : "bg-primary/10 text-primary",
        )}
      >
        <Icon className="size-4" />
      </span>
      <span className="grid min-w-0 flex-1 gap-0.5">
        <span className="text-sm leading-5 wrap-anywhere">
          {sentence.before}
          {sentence.asset !== null ? <span className="font-semibold">{sentence.asset}</span> : null}
          {sentence.after}
        </span>
        {detail ? <span className="line-clamp-2 text-xs leading-5 text-muted-foreground wrap-anywhere">{detail}</span> : null}
        <span className="text-xs leading-5 text-muted-foreground">
          {noticeKindLabel(n.kind)} ·{" "}
          <time dateTime={n.created_at} title={formatDateTime(n.created_at)}>
            {formatRelative(n.created_at)}
          </time>
        </span>
      </span>
      {isUnread ? (
        <span className="mt-1.5 size-2 shrink-0 rounded-full bg-primary" data-testid="unread-dot">
          <span className="sr-only">Unread</span>
        </span>
      ) : (
        <span aria-hidden="true" className="size-2 shrink-0" />
      )}
    </>
  );
  const rowClass = cn(
    "flex w-full items-start gap-3 px-4 py-3 text-left transition-colors hover:bg-accent focus-visible:bg-accent focus-visible:outline-none",
    isUnread && "bg-primary/[0.04]",
  );
  return (
    <li data-testid="notification" data-unread={isUnread ? "true" : "false"}>
      {n.asset_id ? (
        <Link
          to={`/assets/${n.asset_id}`}
          className={rowClass}
          onClick={() => {
            onOpen(n);
          }}
        >
          {body}
        </Link>
      ) : (
        <button
          type="button"
          className={rowClass}
          onClick={() => {
            onOpen(n);
          }}
        >
          {body}
        </button>
      )}
    </li>
  );
}
