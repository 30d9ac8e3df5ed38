import { useQueryClient } from "@tanstack/react-query";
import { MailPlus, RotateCw, Send, X } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDate, formatRelativeTime } from "@/lib/format-time";
import { roleBadgeVariant, roleLabel } from "@/lib/roles";
import { describeServerError, toastServerError } from "@/lib/server-error";
import { type Invite, invalidateInvites, type IssuedInvite, resendInvite, revokeInvite } from "@/entities/invites";
import type { Member } from "@/entities/members";
import { inviteLink } from "./api";
import { LinkBox } from "./link-box";

function InviteStatus({ expired }: { expired: boolean }) {
  return expired ? <Badge variant="gray">Expired</Badge> : <Badge variant="amber">Pending</Badge>;
}

/**
 * Invitations not yet accepted (pending or expired), for administrators:
 * resend (a fresh link, e-mailed and shown once; the old one stops
 * working) and revoke (confirmed).
 */
export function InvitesCard({
  invites,
  members,
  loading,
  error,
  onInvite,
}: {
  invites: Invite[];
  members: Member[];
  loading: boolean;
  error: unknown;
  onInvite: () => void;
}) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const [resent, setResent] = useState<IssuedInvite | null>(null);
  const [revoking, setRevoking] = useState<Invite | null>(null);
  const [revokeError, setRevokeError] = useState<string | null>(null);
  const names = new Map(members.map((m) => [m.id, m.full_name.trim() || m.email]));

  async function resend(invite: Invite) {
    setBusy(invite.id);
    try {
      setResent(await resendInvite(invite.id));
    } catch (e) {
      toastServerError("Invitation not resent", describeServerError(e, "The invitation could not be resent."));
    } finally {
      setBusy(null);
      void invalidateInvites(queryClient);
    }
  }

  async function revoke() {
    if (!revoking) return;
    setBusy(revoking.id);
    setRevokeError(null);
    try {
      await revokeInvite(revoking.id);
      await invalidateInvites(queryClient);
      toast.success("Invitation revoked", { description: `The link sent to ${revoking.email} no longer works.` });
      setRevoking(null);
    } catch (e) {
      const p = describeServerError(e, "The invitation could not be revoked.");
      setRevokeError(p.message);
      toastServerError("Invitation not revoked", p);
    } finally {
      setBusy(null);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          Pending invitations
          {invites.length > 0 ? <Badge variant="secondary">{invites.length}</Badge> : null}
        </CardTitle>
        <CardDescription>
          People invited who have not joined yet. A link is valid for 7 days; resending e-mails a fresh one.
        </CardDescription>
      </CardHeader>
      <CardContent className="px-3">
        {loading ? (
          <Skeleton className="h-24 w-full" />
        ) : error ? (
          <p role="alert" className="text-sm font-medium text-destructive">
            {describeServerError(error, "The invitations could not be loaded.").message}
          </p>
        ) : invites.length === 0 ? (
          <EmptyState
            icon={MailPlus}
            title="No pending invitations"
            action={
              <Button variant="outline" size="sm" onClick={onInvite}>
                <MailPlus aria-hidden="true" /> Invite a colleague
              </Button>
            }
          >
            Invite your medical, legal and regulatory reviewers and your marketers to start routing content through review.
          </EmptyState>
        ) : (
          <Table aria-label="Pending invitations">
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead>E-mail</TableHead>
                <TableHead className="hidden sm:table-cell">Role</TableHead>
                <TableHead className="hidden sm:table-cell">Status</TableHead>
                <TableHead className="hidden md:table-cell">Expires</TableHead>
                <TableHead className="hidden lg:table-cell">Invited by</TableHead>
                <TableHead className="text-right">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {invites.map((invite) => {
                const expired = invite.status === "expired";
                return (
                  <TableRow key={invite.id} data-testid="invite-row" data-email={invite.email}>
                    <TableCell>
                      <div className="grid gap-1">
                        <span className="font-medium break-all">{invite.email}</span>
                        <span className="flex flex-wrap items-center gap-1.5 sm:hidden">
                          <Badge variant={roleBadgeVariant(invite.role)}>{roleLabel(invite.role)}</Badge>
                          <InviteStatus expired={expired} />
                        </span>
                      </div>
                    </TableCell>
                    <TableCell className="hidden sm:table-cell">
                      <Badge variant={roleBadgeVariant(invite.role)}>{roleLabel(invite.role)}</Badge>
                    </TableCell>
                    <TableCell className="hidden sm:table-cell">
                      <InviteStatus expired={expired} />
                    </TableCell>
                    <TableCell className="hidden text-muted-foreground md:table-cell">
                      <span title={formatDate(invite.expires_at)}>
                        {expired ? `Expired ${formatRelativeTime(invite.expires_at)}` : formatRelativeTime(invite.expires_at)}
                      </span>
                    </TableCell>
                    <TableCell className="hidden text-muted-foreground lg:table-cell">
                      {names.get(invite.invited_by) ?? "A former member"}
                      <span className="block text-xs">{formatDate(invite.created_at)}</span>
                    </TableCell>
                    <TableCell className="text-right">
                      <div className="flex justify-end gap-1">
                        <Button
                          size="sm"
                          variant="outline"
                          disabled={busy !== null}
                          onClick={() => void resend(invite)}
                          aria-label={`Resend the invitation to ${invite.email}`}
                        >
                          {busy === invite.id ? <RotateCw aria-hidden="true" className="animate-spin" /> : <Send aria-hidden="true" />}
                          <span className="hidden sm:inline">Resend</span>
                        </Button>
                        <Button
                          size="sm"
                          variant="ghost"
                          disabled={busy !== null}
                          onClick={() => {
                            setRevokeError(null);
                            setRevoking(invite);
                          }}
                          aria-label={`Revoke the invitation to ${invite.email}`}
                          className="text-destructive hover:text-destructive"
                        >
                          <X aria-hidden="true" />
                          <span className="hidden sm:inline">Revoke</span>
                        </Button>
                      </div>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </CardContent>

      <Dialog
        open={resent !== null}
        onOpenChange={(open) => {
          if (!open) setResent(null);
        }}
      >
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Invitation sent again</DialogTitle>
            <DialogDescription>
              We e-mailed a new link to {resent?.email}; the previous link no longer works. The new one is valid until{" "}
              {formatDate(resent?.expires_at)} and is shown here only once.
            </DialogDescription>
          </DialogHeader>
          {resent ? <LinkBox link={inviteLink(resent.token)} label="New sign-up link" /> : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button>Done</Button>
            </DialogClose>
          </DialogFooter>
        </DialogContent>
      </Dialog>

      <Dialog
        open={revoking !== null}
        onOpenChange={(open) => {
          if (!open && busy === null) setRevoking(null);
        }}
      >
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Revoke the invitation for {revoking?.email}?</DialogTitle>
            <DialogDescription>The link stops working at once. You can invite them again later.</DialogDescription>
          </DialogHeader>
          {revokeError ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {revokeError}
            </p>
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline" disabled={busy !== null}>
                Keep it
              </Button>
            </DialogClose>
            <Button variant="destructive" onClick={() => void revoke()} disabled={busy !== null}>
              {busy ? "Revoking…" : "Revoke invitation"}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
