import { BellRing } from "lucide-react";
import { useId } from "react";
import { toast } from "sonner";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { describeServerError, toastServerError } from "@/lib/server-error";
import {
  DEFAULT_NOTIFICATIONS,
  useNotificationPreferences,
  useSaveNotificationPreference,
  type NotificationKey,
} from "./queries";

interface Preference {
  key: NotificationKey;
  label: string;
  description: string;
}

const GROUPS: { title: string; adminOnly?: boolean; items: Preference[] }[] = [
  {
    title: "Reviews",
    items: [
      {
        key: "review_assigned",
        label: "A review needs me",
        description:
          "When a review step for your role is waiting for your decision, or an administrator assigns one to you.",
      },
      {
        key: "review_decision",
        label: "Decisions on my submissions",
        description:
          "When a reviewer approves, requests changes to or rejects content you own or submitted, when its review round closes, and when its approval is withdrawn.",
      },
      {
        key: "comment_mention",
        label: "Mentions and replies",
        description: "When someone mentions you in an annotation or replies to a thread you started.",
      },
      {
        key: "due_reminders",
        label: "Due-date reminders",
        description:
          "A day before a review step of yours is due, and when it becomes overdue (also for the steps of content you submitted).",
      },
    ],
  },
  {
    title: "Content",
    items: [
      {
        key: "asset_expiring",
        label: "Approved content about to expire",
        description: "30 days before an approved asset you own reaches its expiry date, and when it expires.",
      },
      {
        key: "weekly_digest",
        label: "Weekly digest",
        description: "A Monday summary of your open reviews, submissions and what expires soon.",
      },
    ],
  },
  {
    title: "Security",
    adminOnly: true,
    items: [
      {
        key: "signing_locked",
        label: "Signing lockouts",
        description: "When a member's electronic signing is locked after five wrong passwords or authenticator codes in a row.",
      },
    ],
  },
];

function PreferenceRow({
  pref,
  checked,
  onChange,
}: {
  pref: Preference;
  checked: boolean;
  onChange: (value: boolean) => void;
}) {
  const id = useId();
  return (
    <li className="flex items-start justify-between gap-4 py-4 first:pt-0 last:pb-0">
      <div className="grid gap-0.5">
        <label htmlFor={id} className="text-sm font-medium">
          {pref.label}
        </label>
        <p id={`${id}-description`} className="text-sm leading-6 text-muted-foreground">
          {pref.description}
        </p>
      </div>
      <Switch
        id={id}
        checked={checked}
        aria-describedby={`${id}-description`}
        data-testid={`notify-${pref.key}`}
        onCheckedChange={onChange}
        className="mt-0.5"
      />
    </li>
  );
}

/**
 * The member's notification e-mails: one switch per kind, each saved at
 * once to notification_preferences (the first change creates the row).
 * Every notice stays in the app; the switches decide the e-mails. The
 * security notices go to administrators only, so only they see that group.
 */
export function NotificationSettings({ admin = false }: { admin?: boolean }) {
  const prefs = useNotificationPreferences();
  const save = useSaveNotificationPreference();
  const values = prefs.data ?? { ...DEFAULT_NOTIFICATIONS, updated_at: null };

  function change(field: NotificationKey, value: boolean) {
    const next = { ...DEFAULT_NOTIFICATIONS };
    for (const k of Object.keys(next) as NotificationKey[]) next[k] = values[k];
    next[field] = value;
    save.mutate(
      { field, value, next },
      {
        onSuccess: () => {
          toast.success("Notification preferences saved");
        },
        onError: (error) => {
          toastServerError("Preference not saved", describeServerError(error, "Your preference could not be saved."));
        },
      },
    );
  }

  return (
    <Card>
      <CardHeader className="flex-row items-start gap-4">
        <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10">
          <BellRing aria-hidden="true" className="size-5 text-primary" />
        </span>
        <div className="grid gap-1">
          <CardTitle>Notifications</CardTitle>
          <CardDescription>
            Choose which e-mails Fairbalance sends you. Changes are saved as you make them.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-6">
        {prefs.isPending ? (
          <div className="grid gap-4" aria-hidden="true">
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} className="h-12 w-full" />
            ))}
          </div>
        ) : prefs.isError ? (
          <p role="alert" className="text-sm font-medium text-destructive">
            {describeServerError(prefs.error, "Your notification preferences could not be loaded.").message}
          </p>
        ) : (
          GROUPS.filter((group) => admin || !group.adminOnly).map((group) => (
            <section key={group.title} aria-labelledby={`notify-group-${group.title}`} className="grid gap-3">
              <h3 id={`notify-group-${group.title}`} className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
                {group.title}
              </h3>
              <ul className="divide-y rounded-lg border px-4 py-4">
                {group.items.map((pref) => (
                  <PreferenceRow
                    key={pref.key}
                    pref={pref}
                    checked={values[pref.key]}
                    onChange={(value) => {
                      change(pref.key, value);
                    }}
                  />
                ))}
              </ul>
            </section>
          ))
        )}
      </CardContent>
    </Card>
  );
}
