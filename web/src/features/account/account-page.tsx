import { Building2, ChevronRight, type LucideIcon, Settings, ShieldCheck, UserRound, Users } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent } from "@/components/ui/card";
import { MemberAvatar } from "@/components/ui/member-avatar";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { useQuery } from "@tanstack/react-query";
import { ownMemberQuery } from "@/entities/members";
import { orgQuery } from "@/entities/orgs";
import { useProfile } from "@/entities/profile";
import { useAuth } from "@/lib/auth";
import { formatDate } from "@/lib/format-time";
import { isAdminRole, roleBadgeVariant, roleLabel } from "@/lib/roles";
import { useDocumentTitle } from "@/lib/use-document-title";

interface Destination {
  to: string;
  title: string;
  description: string;
  icon: LucideIcon;
  /** A short fact shown under the description, e.g. whether MFA is on. */
  status?: string | undefined;
}

function DestinationCard({ to, title, description, icon: Icon, status }: Destination) {
  return (
    <Link
      to={to}
      className="group rounded-xl focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background"
    >
      <Card className="flex h-full items-start gap-4 p-5 transition-colors group-hover:border-primary/40 group-hover:bg-accent/40">
        <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10">
          <Icon aria-hidden="true" className="size-5 text-primary" />
        </span>
        <span className="grid min-w-0 flex-1 gap-1">
          <span className="font-semibold">{title}</span>
          <span className="text-sm leading-6 text-muted-foreground">{description}</span>
          {status ? <span className="text-xs font-medium text-foreground/80">{status}</span> : null}
        </span>
        <ChevronRight aria-hidden="true" className="mt-2 size-4 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5" />
      </Card>
    </Link>
  );
}

/**
 * The account overview (/account): who is signed in (avatar, name, e-mail,
 * role, organisation) and the way to their profile, security and settings,
 * and for administrators to the members of the organisation.
 */
export function AccountPage() {
  useDocumentTitle("Account");
  const { user } = useAuth();
  const profile = useProfile();
  const org = useQuery(orgQuery(profile.data?.org_id));
  const member = useQuery(ownMemberQuery(user?.id));
  const email = user?.email ?? "";
  const name = [profile.data?.full_name.trim(), email].find(Boolean) ?? "";
  const role = profile.data?.role;
  const admin = isAdminRole(role);
  const mfa = member.data?.mfa_enabled;

  const destinations: Destination[] = [
    {
      to: "/account/profile",
      title: "Profile",
      description: "Your name and photo as colleagues see them on reviews, comments and signatures.",
      icon: UserRound,
    },
    {
      to: "/security",
      title: "Security",
      description: "Password, two-step verification and the devices signed in to your account.",
      icon: ShieldCheck,
      status: mfa === undefined ? undefined : mfa ? "Two-step verification is on" : "Two-step verification is off",
    },
    {
      to: "/settings",
      title: "Settings",
      description: admin
        ? "Your notification e-mails, and the workspace's access and sign-up settings."
        : "Choose which e-mails Fairbalance sends you.",
      icon: Settings,
    },
  ];
  if (admin) {
    destinations.push({
      to: "/users",
      title: "Users",
      description: "Invite people, change roles and deactivate members of your organisation.",
      icon: Users,
    });
  }

  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6">
      <PageHeader title="Account" description="Who you are in Fairbalance, and where to change it." />
      <Card>
        <CardContent className="flex flex-col gap-5 p-6 sm:flex-row sm:items-center">
          {profile.isPending ? (
            <Skeleton className="size-20 rounded-full" />
          ) : (
            <MemberAvatar
              name={profile.data?.full_name}
              email={email}
              src={profile.data?.avatar_url}
              className="size-20"
              fallbackClassName="text-2xl"
            />
          )}
          <div className="grid min-w-0 flex-1 gap-1.5">
            <div className="flex min-w-0 flex-wrap items-center gap-2">
              {profile.isPending ? (
                <Skeleton className="h-7 w-48" />
              ) : (
                <h2 className="truncate text-xl leading-7 font-semibold" data-testid="account-name" title={name}>
                  {name}
                </h2>
              )}
              {role ? (
                <Badge variant={roleBadgeVariant(role)} data-testid="account-role">
                  {roleLabel(role)}
                </Badge>
              ) : null}
            </div>
            <p className="truncate text-sm text-muted-foreground" title={email}>{email}</p>
            <div className="flex min-w-0 items-center gap-1.5 text-sm text-muted-foreground">
              <Building2 aria-hidden="true" className="size-4 shrink-0" />
              {org.data?.name ? (
                <span className="truncate" title={org.data.name}>
                  <span className="sr-only">Organisation: </span>
                  {org.data.name}
                </span>
              ) : org.isPending && profile.data?.org_id ? (
                <Skeleton className="h-4 w-32" />
              ) : (
                <span>No organisation</span>
              )}
            </div>
            {member.data?.created_at ? (
              <p className="text-xs text-muted-foreground">Member since {formatDate(member.data.created_at)}</p>
            ) : null}
          </div>
        </CardContent>
      </Card>
      <nav aria-label="Account sections">
        <ul className="grid gap-4 sm:grid-cols-2">
          {destinations.map((d) => (
            <li key={d.to}>
              <DestinationCard {...d} />
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
