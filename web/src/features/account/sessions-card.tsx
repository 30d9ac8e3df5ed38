import { LogOut, Monitor, Smartphone } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { formatDateTime, formatRelativeTime } from "@/lib/format-time";
import { describeServerError, toastServerError } from "@/lib/server-error";
import { revokeSession, type SessionInfo, signOutOthers, useInvalidateSession, useSessions } from "@/entities/session";
import { summarizeUserAgent } from "./user-agent";

function SessionRow({ session, onRevoke, busy }: { session: SessionInfo; onRevoke: () => void; busy: boolean }) {
  const device = summarizeUserAgent(session.user_agent);
  const Icon = device.mobile ? Smartphone : Monitor;
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3.5" data-testid="session-row" data-current={session.current || undefined}>
      <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-muted">
        <Icon aria-hidden="true" className="size-4 text-muted-foreground" />
      </span>
      <div className="grid min-w-0 flex-1 gap-0.5">
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-sm font-medium" title={session.user_agent || undefined}>
            {device.label}
          </span>
          {session.current ? <Badge variant="green">This device</Badge> : null}
          {session.aal === "aal2" ? <Badge variant="blue">Two-step verified</Badge> : null}
        </div>
        <p className="text-xs leading-5 text-muted-foreground">
          {session.ip ? <span>IP {session.ip}</span> : <span>IP unknown</span>}
          <span aria-hidden="true"> · </span>
          <span>{session.current ? "Active now" : `Last active ${formatRelativeTime(session.refreshed_at ?? session.created_at)}`}</span>
          <span aria-hidden="true"> · </span>
          <span>Signed in {formatDateTime(session.created_at)}</span>
        </p>
      </div>
      {session.current ? null : (
        <Button size="sm" variant="outline" onClick={onRevoke} disabled={busy} aria-label={`Sign out ${device.label}, signed in ${formatDateTime(session.created_at)}`}>
          Sign out
        </Button>
      )}
    </li>
  );
}

/**
 * The member's active sessions (list_sessions), this one marked: sign out
 * one (revoke_session) or all the others at once (sign-out with scope
 * "others").
 */
export function SessionsCard() {
  const sessions = useSessions();
  const invalidateSession = useInvalidateSession();
  const [busy, setBusy] = useState<string | null>(null);
  const list = sessions.data ?? [];
  const others = list.filter((s) => !s.current).length;

  async function revoke(session: SessionInfo) {
    setBusy(session.id);
    try {
      await revokeSession(session.id);
      toast.success("Session signed out", { description: `${summarizeUserAgent(session.user_agent).label} must sign in again.` });
    } catch (error) {
      toastServerError("Session not signed out", describeServerError(error, "The session could not be signed out."));
    } finally {
      setBusy(null);
      void invalidateSession();
    }
  }

  async function revokeOthers() {
    setBusy("others");
    try {
      await signOutOthers();
      toast.success("Signed out everywhere else", { description: "Only this device stays signed in." });
    } catch (error) {
      toastServerError("Other sessions not signed out", describeServerError(error, "Your other sessions could not be signed out."));
    } finally {
      setBusy(null);
      void invalidateSession();
    }
  }

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-60 flex-1 gap-1.5">
          <CardTitle>Active sessions</CardTitle>
          <CardDescription>
            The browsers and devices signed in to your account. Sign out any you do not recognise, then change your password.
          </CardDescription>
        </div>
        <Button variant="outline" onClick={() => void revokeOthers()} disabled={busy !== null || others === 0}>
          <LogOut aria-hidden="true" />
          {busy === "others" ? "Signing out…" : "Sign out other sessions"}
        </Button>
      </CardHeader>
      <CardContent>
        {sessions.isPending ? (
          <Skeleton className="h-32 w-full" />
        ) : sessions.isError ? (
          <p role="alert" className="text-sm font-medium text-destructive">
            {describeServerError(sessions.error, "Your sessions could not be loaded.").message}
          </p>
        ) : (
          <>
            <ul className="divide-y rounded-lg border" aria-label="Active sessions" data-testid="sessions">
              {list.map((s) => (
                <SessionRow
                  key={s.id}
                  session={s}
                  busy={busy !== null}
                  onRevoke={() => {
                    void revoke(s);
                  }}
                />
              ))}
            </ul>
            {others === 0 ? (
              <p className="mt-3 text-sm text-muted-foreground">You are not signed in anywhere else.</p>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
