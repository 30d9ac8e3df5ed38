import { useQuery } from "@tanstack/react-query";
import { MoreHorizontal, Search, ShieldCheck, UserPlus, Users as UsersIcon } from "lucide-react";
import { useDeferredValue, useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { MemberAvatar } from "@/components/ui/member-avatar";
import { PageHeader } from "@/components/ui/page-header";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useProfile } from "@/entities/profile";
import { useAuth, useReadOnly } from "@/lib/auth";
import { formatDateTime, formatRelativeTime } from "@/lib/format-time";
import { isAdminRole, roleBadgeVariant, roleLabel } from "@/lib/roles";
import { describeServerError } from "@/lib/server-error";
import { useDocumentTitle } from "@/lib/use-document-title";
import { type Member, membersQuery } from "@/entities/members";
import { openInvitesQuery } from "@/entities/invites";
import { orgQuery } from "@/entities/orgs";
import { canManage } from "./api";
import { InviteDialog } from "./invite-dialog";
import { InvitesCard } from "./invites-card";
import { MemberActionDialog, type MemberAction } from "./member-dialogs";

function matches(member: Member, query: string): boolean {
  if (!query) return true;
  const q = query.toLowerCase();
  return [member.full_name, member.email, roleLabel(member.role)].some((v) => v.toLowerCase().includes(q));
}

function StatusBadge({ member }: { member: Member }) {
  return member.deactivated_at ? (
    <Badge variant="gray" data-testid="member-status">
      Deactivated
    </Badge>
  ) : (
    <Badge variant="green" data-testid="member-status">
      Active
    </Badge>
  );
}

function MemberActions({ member, onAction }: { member: Member; onAction: (a: MemberAction) => void }) {
  const name = member.full_name.trim() || member.email;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Actions for ${name}`}>
          <MoreHorizontal aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel className="max-w-56 truncate text-xs text-muted-foreground" title={name}>{name}</DropdownMenuLabel>
        <DropdownMenuItem
          onSelect={() => {
            onAction({ kind: "role", member });
          }}
        >
          Change role…
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        {member.deactivated_at ? (
          <DropdownMenuItem
            onSelect={() => {
              onAction({ kind: "reactivate", member });
            }}
          >
            Reactivate…
          </DropdownMenuItem>
        ) : (
          <DropdownMenuItem
            variant="destructive"
            onSelect={() => {
              onAction({ kind: "deactivate", member });
            }}
          >
            Deactivate…
          </DropdownMenuItem>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/**
 * Users (/users): the members of the caller's organisation (the server
 * never returns anyone else's) with search. Owners and admins also invite
 * people, change roles, deactivate and reactivate members, and resend or
 * revoke pending invitations; the server enforces who may do what and its
 * refusals are shown as they come.
 */
export function UsersPage() {
  useDocumentTitle("Users");
  const { user } = useAuth();
  const readOnly = useReadOnly();
  const profile = useProfile();
  const orgId = profile.data?.org_id;
  const myRole = profile.data?.role;
  // The read-only demo's admin sees the members, never a way to change them.
  const admin = isAdminRole(myRole) && !readOnly;
  const members = useQuery(membersQuery(orgId));
  const invites = useQuery(openInvitesQuery(orgId, admin));
  const org = useQuery(orgQuery(orgId));
  const searchId = useId();
  const [search, setSearch] = useState("");
  const query = useDeferredValue(search.trim());
  const [inviting, setInviting] = useState(false);
  const [action, setAction] = useState<MemberAction>(null);

  const all = members.data ?? [];
  const shown = all.filter((m) => matches(m, query));
  const active = all.filter((m) => !m.deactivated_at).length;

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Users"
        description={
          org.data?.name
            ? `The people of ${org.data.name} in Fairbalance and what each of them may do.`
            : "The people of your organisation in Fairbalance and what each of them may do."
        }
        actions={
          admin ? (
            <Button
              onClick={() => {
                setInviting(true);
              }}
            >
              <UserPlus aria-hidden="true" /> Invite people
            </Button>
          ) : readOnly ? (
            <ReadOnlyNote />
          ) : null
        }
      />

      <Card>
        <CardHeader className="flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div className="grid gap-1.5">
            <CardTitle className="flex items-center gap-2">
              Members
              {members.data ? (
                <Badge variant="secondary" aria-label={`${active} active of ${all.length}`}>
                  {active === all.length ? all.length : `${active} of ${all.length} active`}
                </Badge>
              ) : null}
            </CardTitle>
            <CardDescription>
              {admin
                ? "Change a role or deactivate someone from the actions at the end of their row."
                : readOnly
                  ? "In the read-only demo nobody can be invited, and no role changed."
                  : "Only administrators can invite people or change roles."}
            </CardDescription>
          </div>
          <div className="relative w-full sm:w-72">
            <label htmlFor={searchId} className="sr-only">
              Search members
            </label>
            <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
            <Input
              id={searchId}
              type="search"
              placeholder="Search by name, e-mail or role"
              value={search}
              onChange={(event) => {
                setSearch(event.target.value);
              }}
              className="pl-9"
            />
          </div>
        </CardHeader>
        <CardContent className="px-3">
          {members.isPending || profile.isPending ? (
            <div className="grid gap-3" aria-hidden="true">
              {Array.from({ length: 4 }, (_, i) => (
                <Skeleton key={i} className="h-12 w-full" />
              ))}
            </div>
          ) : members.isError ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {describeServerError(members.error, "The members could not be loaded.").message}
            </p>
          ) : shown.length === 0 ? (
            <EmptyState
              icon={UsersIcon}
              title={query ? `No members match “${query}”` : "No members yet"}
              action={
                query ? (
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => {
                      setSearch("");
                    }}
                  >
                    Clear search
                  </Button>
                ) : null
              }
            >
              {query ? "Try part of a name, an e-mail address or a role." : "Invite your colleagues to get started."}
            </EmptyState>
          ) : (
            <Table aria-label="Members">
              <TableHeader>
                <TableRow className="hover:bg-transparent">
                  <TableHead>Member</TableHead>
                  <TableHead className="hidden sm:table-cell">Role</TableHead>
                  <TableHead className="hidden sm:table-cell">Status</TableHead>
                  <TableHead className="hidden md:table-cell">Last sign-in</TableHead>
                  {admin ? (
                    <TableHead className="w-12 text-right">
                      <span className="sr-only">Actions</span>
                    </TableHead>
                  ) : null}
                </TableRow>
              </TableHeader>
              <TableBody>
                {shown.map((m) => {
                  const me = m.id === user?.id;
                  const name = m.full_name.trim() || m.email;
                  return (
                    <TableRow key={m.id} data-testid="member-row" data-email={m.email} className={m.deactivated_at ? "text-muted-foreground" : undefined}>
                      <TableCell>
                        <div className="flex min-w-0 items-center gap-3">
                          <MemberAvatar name={m.full_name} email={m.email} src={m.avatar_url} className={m.deactivated_at ? "opacity-60" : undefined} />
                          <div className="grid min-w-0 gap-0.5">
                            <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                              <span className="font-medium text-foreground wrap-anywhere" data-testid="member-name">
                                {name}
                              </span>
                              {me ? <Badge variant="outline">You</Badge> : null}
                              {m.mfa_enabled ? (
                                <ShieldCheck aria-label="Two-step verification on" role="img" className="size-4 text-success" />
                              ) : null}
                            </span>
                            <span className="text-xs break-all text-muted-foreground">{m.email}</span>
                            <span className="mt-1 flex flex-wrap gap-1.5 sm:hidden">
                              <Badge variant={roleBadgeVariant(m.role)}>{roleLabel(m.role)}</Badge>
                              <StatusBadge member={m} />
                            </span>
                          </div>
                        </div>
                      </TableCell>
                      <TableCell className="hidden sm:table-cell">
                        <Badge variant={roleBadgeVariant(m.role)} data-testid="member-role">
                          {roleLabel(m.role)}
                        </Badge>
                      </TableCell>
                      <TableCell className="hidden sm:table-cell">
                        <StatusBadge member={m} />
                      </TableCell>
                      <TableCell className="hidden whitespace-nowrap text-muted-foreground md:table-cell">
                        <span title={m.last_sign_in_at ? formatDateTime(m.last_sign_in_at) : undefined}>
                          {m.last_sign_in_at ? formatRelativeTime(m.last_sign_in_at) : "Never"}
                        </span>
                      </TableCell>
                      {admin ? (
                        <TableCell className="text-right">
                          {!me && canManage(myRole, m.role) ? <MemberActions member={m} onAction={setAction} /> : null}
                        </TableCell>
                      ) : null}
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>

      {admin ? (
        <InvitesCard
          invites={invites.data ?? []}
          members={all}
          loading={invites.isPending}
          error={invites.isError ? invites.error : null}
          onInvite={() => {
            setInviting(true);
          }}
        />
      ) : null}

      {admin ? <InviteDialog open={inviting} onOpenChange={setInviting} /> : null}
      <MemberActionDialog
        action={action}
        onClose={() => {
          setAction(null);
        }}
      />
    </div>
  );
}
