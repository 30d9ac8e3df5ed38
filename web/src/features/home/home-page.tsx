import { useQuery } from "@tanstack/react-query";
import { CheckCircle2, ClipboardList, History, MailPlus, Users } from "lucide-react";
import { Link } from "react-router";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { buttonVariants } from "@/components/ui/button-variants";
import { Card, CardContent } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { MemberAvatar } from "@/components/ui/member-avatar";
import { PageHeader } from "@/components/ui/page-header";
import { Progress } from "@/components/ui/progress";
import { Skeleton } from "@/components/ui/skeleton";
import { auditSubjectsQuery, describeAction, subjectRefs } from "@/entities/audit";
import { useProfile } from "@/entities/profile";
import { useAuth, useReadOnly } from "@/lib/auth";
import { canWriteContent } from "@/lib/content-types";
import { nextPilotStep, pilotProgress, pilotStepLink, usePilotStatus } from "@/lib/pilot-status";
import { greeting, greetingName } from "@/lib/person";
import { isReviewerRole } from "@/lib/review-types";
import { isAdminRole, roleBadgeVariant, roleLabel } from "@/lib/roles";
import { useDocumentTitle } from "@/lib/use-document-title";
import { cn } from "@/lib/utils";
import { actorName, relativeTime } from "./activity";
import type { Member } from "@/entities/members";
import {
  useExpiringAssets,
  useMembers,
  useMyDrafts,
  useMySteps,
  useMySubmissions,
  useOrg,
  usePendingInvites,
  usePipelineCounts,
  useRecentActivity,
} from "./api";
import { LoadError, SectionHeader } from "./parts";
import { ExpiringCard, MyStepsCard, MyWorkCard, PipelineCard } from "./work-cards";

/** How many members the Team card lists before "and N more". */
const TEAM_PREVIEW = 6;

/**
 * The Command Center ('/'): a greeting; the content pipeline (assets by
 * status, each opening the Hub filtered by it); my work — a reviewer's open
 * steps by due date, an author's drafts and submissions in review; the
 * pilot checklist's progress with the next step; recent activity from the
 * audit trail; assets whose approval ends within 30 days; the team and —
 * for administrators — pending invitations. In demo mode it shows the demo
 * organization, read-only.
 */
export function HomePage() {
  useDocumentTitle("Command Center");
  const { user, demo } = useAuth();
  const readOnly = useReadOnly();
  const profile = useProfile();
  const orgId = profile.data?.org_id;
  const isAdmin = isAdminRole(profile.data?.role);
  const org = useOrg(orgId);
  const members = useMembers(orgId);
  const invites = usePendingInvites(orgId, isAdmin);
  const activity = useRecentActivity(orgId);
  const pilot = usePilotStatus(Boolean(orgId));
  const role = profile.data?.role;
  const inOrg = Boolean(orgId);
  const reviewer = isReviewerRole(role);
  const author = canWriteContent(role);
  const steps = useMySteps(inOrg && reviewer);
  const drafts = useMyDrafts(user?.id, inOrg && author);
  const submissions = useMySubmissions(inOrg && author);
  const pipeline = usePipelineCounts(inOrg);
  const expiring = useExpiringAssets(inOrg);

  const name = greetingName(profile.data?.full_name, user?.email);
  const title = name ? `${greeting()}, ${name}` : greeting();

  return (
    <div className="grid min-w-0 grid-cols-1 gap-6">
      <PageHeader
        title={title}
        description={
          org.data ? (
            <>
              Here is where <span className="font-medium text-foreground">{org.data.name}</span> stands today.
            </>
          ) : org.isPending && orgId ? (
            <span aria-hidden="true" className="inline-block h-4 w-56 animate-pulse rounded-md bg-muted align-middle motion-reduce:animate-none" />
          ) : (
            "Here is where your organization stands today."
          )
        }
        actions={
          profile.data ? (
            <div className="flex items-center gap-2">
              {org.data?.industry ? <Badge variant="outline">{org.data.industry}</Badge> : null}
              <Badge variant={roleBadgeVariant(profile.data.role)}>{roleLabel(profile.data.role)}</Badge>
            </div>
          ) : null
        }
      />

      {demo ? (
        <Alert variant="info" role="note">
          <ClipboardList />
          <AlertTitle>You are exploring the demo organization</AlertTitle>
          <AlertDescription>Everything here is sample data and read-only.</AlertDescription>
        </Alert>
      ) : null}

      <PipelineCard counts={pipeline} />

      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-3">
        <div className="grid min-w-0 grid-cols-1 gap-6 lg:col-span-2">
          {reviewer ? <MyStepsCard steps={steps} role={role} /> : null}
          {author ? <MyWorkCard drafts={drafts} submissions={submissions} userId={user?.id} readOnly={readOnly} /> : null}
          <PilotCard pilot={pilot} role={role} />
          <ActivityCard activity={activity} members={members.data} />
        </div>
        <div className="grid min-w-0 grid-cols-1 gap-6">
          <ExpiringCard expiring={expiring} />
          <TeamCard members={members} />
          {isAdmin ? <InvitesCard invites={invites} demo={demo} /> : null}
        </div>
      </div>
    </div>
  );
}

function PilotCard({ pilot, role }: { pilot: ReturnType<typeof usePilotStatus>; role: string | null | undefined }) {
  const status = pilot.data;
  const next = status ? nextPilotStep(status) : undefined;
  const progress = status ? pilotProgress(status) : 0;
  const link = next ? pilotStepLink(next.key, role) : undefined;
  return (
    <Card>
      <SectionHeader title="Pilot checklist" description="The steps to run your pilot, ticked from what your workspace has done." to="/pilot-checklist" linkLabel="View checklist" />
      <CardContent className="grid gap-4">
        {pilot.isError ? (
          <LoadError what="the pilot checklist" error={pilot.error} onRetry={() => void pilot.refetch()} />
        ) : !status ? (
          <div className="grid gap-3" aria-busy="true">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-2 w-full" />
            <Skeleton className="h-16 w-full" />
          </div>
        ) : (
          <>
            <div className="grid gap-2">
              <div className="flex items-baseline justify-between gap-2 text-sm">
                <span className="font-medium" data-testid="pilot-progress">
                  {status.done_count} of {status.total} steps done
                </span>
                <span className="text-muted-foreground">{progress}%</span>
              </div>
              <Progress value={progress} aria-label="Pilot checklist progress" />
            </div>
            {next ? (
              <div className="flex flex-col gap-3 rounded-lg border bg-muted/40 p-4 sm:flex-row sm:items-center sm:justify-between">
                <div className="grid gap-0.5">
                  <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Next step</p>
                  <p className="font-medium">{next.title}</p>
                  {next.detail ? <p className="text-sm text-muted-foreground">{next.detail}</p> : null}
                </div>
                {link ? (
                  <Link to={link.to} className={cn(buttonVariants({ size: "sm" }), "self-start sm:self-center")}>
                    {link.label}
                  </Link>
                ) : null}
              </div>
            ) : (
              <p className="flex items-center gap-2 text-sm text-muted-foreground">
                <CheckCircle2 aria-hidden="true" className="size-4 text-success" />
                Every step available in this release is done.
              </p>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

function ActivityCard({ activity, members }: { activity: ReturnType<typeof useRecentActivity>; members: Member[] | undefined }) {
  const byId = new Map((members ?? []).map((m) => [m.id, m]));
  const names = new Map((members ?? []).map((m) => [m.id, m.full_name || m.email]));
  const subjects = useQuery(auditSubjectsQuery(subjectRefs(activity.data ?? [])));
  const now = new Date();
  return (
    <Card>
      <SectionHeader title="Recent activity" description="The latest entries of your organization's audit trail." to="/audit-log" linkLabel="Open the Audit Log" />
      <CardContent>
        {activity.isError ? (
          <LoadError what="recent activity" error={activity.error} onRetry={() => void activity.refetch()} />
        ) : !activity.data ? (
          <ul className="grid gap-4" aria-busy="true" aria-label="Loading recent activity">
            {[0, 1, 2, 3].map((i) => (
              <li key={i} className="flex items-center gap-3">
                <Skeleton className="size-8 rounded-full" />
                <div className="grid flex-1 gap-1.5">
                  <Skeleton className="h-4 w-3/4" />
                  <Skeleton className="h-3 w-24" />
                </div>
              </li>
            ))}
          </ul>
        ) : activity.data.length === 0 ? (
          <EmptyState icon={History} title="No activity yet">
            Changes to your organization — invitations, settings, reviews — are recorded here as they happen.
          </EmptyState>
        ) : (
          <ol className="grid gap-4" aria-label="Recent activity" data-testid="recent-activity">
            {activity.data.map((entry) => {
              const who = actorName(entry, names);
              const member = entry.actor_id ? byId.get(entry.actor_id) : undefined;
              return (
                <li key={entry.id} className="flex items-start gap-3" data-action={entry.action}>
                  <MemberAvatar
                    name={member ? member.full_name : entry.actor_email ? null : who}
                    email={member ? member.email : entry.actor_email}
                    src={member?.avatar_url}
                    className="mt-0.5 size-8"
                  />
                  <div className="grid min-w-0 gap-0.5">
                    <p className="text-sm leading-6 wrap-anywhere">
                      <span className="font-medium">{who}</span> {describeAction(entry, subjects.data)}
                    </p>
                    <time dateTime={entry.created_at} title={new Date(entry.created_at).toLocaleString()} className="text-xs text-muted-foreground">
                      {relativeTime(entry.created_at, now)}
                    </time>
                  </div>
                </li>
              );
            })}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

function TeamCard({ members }: { members: ReturnType<typeof useMembers> }) {
  const active = (members.data ?? []).filter((m) => !m.deactivated_at);
  const shown = active.slice(0, TEAM_PREVIEW);
  const more = active.length - shown.length;
  return (
    <Card>
      <SectionHeader title="Team" description={members.data ? `${String(active.length)} ${active.length === 1 ? "member" : "members"}` : "Members of your organization"} to="/users" linkLabel={<>View all<span className="sr-only"> members</span></>} />
      <CardContent>
        {members.isError ? (
          <LoadError what="members" error={members.error} onRetry={() => void members.refetch()} />
        ) : !members.data ? (
          <div className="grid gap-3" aria-busy="true">
            {[0, 1, 2].map((i) => (
              <div key={i} className="flex items-center gap-3">
                <Skeleton className="size-8 rounded-full" />
                <div className="grid flex-1 gap-1.5">
                  <Skeleton className="h-4 w-32" />
                  <Skeleton className="h-3 w-40" />
                </div>
              </div>
            ))}
          </div>
        ) : (
          <ul className="grid gap-3" aria-label="Members" data-testid="team-members">
            {shown.map((m) => (
              <li key={m.id} className="flex items-center gap-3">
                <MemberAvatar name={m.full_name} email={m.email} src={m.avatar_url} className="size-8" />
                <div className="grid min-w-0 flex-1">
                  <span className="truncate text-sm font-medium" title={m.full_name || m.email}>{m.full_name || m.email}</span>
                  <span className="truncate text-xs text-muted-foreground" title={m.email}>{m.email}</span>
                </div>
                <Badge variant={roleBadgeVariant(m.role)}>{roleLabel(m.role)}</Badge>
              </li>
            ))}
            {more > 0 ? (
              <li className="text-sm text-muted-foreground">
                and {more} more — <Link to="/users" className="font-medium text-primary underline-offset-4 hover:underline">see everyone</Link>
              </li>
            ) : null}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function InvitesCard({ invites, demo }: { invites: ReturnType<typeof usePendingInvites>; demo: boolean }) {
  return (
    <Card>
      <SectionHeader title="Pending invitations" description="People invited who have not joined yet." to="/users" linkLabel={<>View all<span className="sr-only"> invitations</span></>} />
      <CardContent>
        {invites.isError ? (
          <LoadError what="invitations" error={invites.error} onRetry={() => void invites.refetch()} />
        ) : !invites.data ? (
          <div className="grid gap-3" aria-busy="true">
            <Skeleton className="h-4 w-48" />
            <Skeleton className="h-4 w-40" />
          </div>
        ) : invites.data.length === 0 ? (
          <div className="flex flex-col items-start gap-3 text-sm text-muted-foreground">
            <p className="flex items-center gap-2">
              <MailPlus aria-hidden="true" className="size-4" />
              No pending invitations.
            </p>
            {demo ? null : (
              <Link to="/users" className={buttonVariants({ variant: "outline", size: "sm" })}>
                <Users aria-hidden="true" />
                Invite people
              </Link>
            )}
          </div>
        ) : (
          <ul className="grid gap-3" aria-label="Pending invitations" data-testid="pending-invites">
            {invites.data.map((inv) => (
              <li key={inv.id} className="flex items-center justify-between gap-3">
                <div className="grid min-w-0">
                  <span className="truncate text-sm font-medium" title={inv.email}>{inv.email}</span>
                  <span className="text-xs text-muted-foreground">
                    Expires <time dateTime={inv.expires_at}>{relativeTime(inv.expires_at)}</time>
                  </span>
                </div>
                <Badge variant={roleBadgeVariant(inv.role)}>{roleLabel(inv.role)}</Badge>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
