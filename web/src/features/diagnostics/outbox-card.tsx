import { ClipboardCopy, Mail } from "lucide-react";
import { toast } from "sonner";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { OutboxMessage } from "./api";

function localTime(iso: string | null): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** How many e-mails the server lists (diagnostics() in service/workspace_status.go). */
const OUTBOX_LIMIT = 20;

const STATUS_VARIANT: Record<string, "green" | "blue" | "amber" | "red" | "gray"> = {
  sent: "green",
  logged: "blue",
  pending: "amber",
  failed: "red",
};

/** Shown when the server only logs e-mails (no SMTP server configured). */
export const NO_SMTP_NOTE = "No SMTP server is configured: e-mails are not sent; pass these links on yourself.";

/**
 * The organisation's outbox (administrators only). Without SMTP nothing is
 * delivered, so each message's links are listed, copyable, for the
 * administrator to pass on.
 */
export function OutboxCard({ messages, mailSender }: { messages: OutboxMessage[]; mailSender: string }) {
  return (
    <Card role="region" aria-labelledby="outbox-title" className="overflow-hidden" data-testid="outbox">
      <CardHeader className="pb-4">
        <CardTitle id="outbox-title">Mail outbox</CardTitle>
        <CardDescription>
          Your organisation’s most recent e-mails (up to {OUTBOX_LIMIT}), newest first, with their delivery state. Visible to administrators only.
        </CardDescription>
      </CardHeader>
      {mailSender === "log" ? (
        <div className="px-6 pb-4">
          <Alert data-testid="outbox-no-smtp">
            <Mail aria-hidden="true" />
            <AlertDescription>{NO_SMTP_NOTE}</AlertDescription>
          </Alert>
        </div>
      ) : null}
      {messages.length === 0 ? (
        <div className="px-6 pb-6">
          <EmptyState icon={Mail} title="No e-mails yet">
            Invitations, password resets and notifications for your organisation will be listed here.
          </EmptyState>
        </div>
      ) : (
        <div className="border-t">
          <Table aria-label="Outbox, newest first">
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead scope="col">To</TableHead>
                <TableHead scope="col">Subject</TableHead>
                <TableHead scope="col">Kind</TableHead>
                <TableHead scope="col">Status</TableHead>
                <TableHead scope="col" className="text-right">
                  Attempts
                </TableHead>
                <TableHead scope="col">Time</TableHead>
                <TableHead scope="col">Last error</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {messages.map((m) => (
                <TableRow key={m.id}>
                  <TableCell className="max-w-56 truncate" title={m.to}>
                    {m.to}
                  </TableCell>
                  <TableCell className="max-w-96 align-top">
                    <div className="truncate" title={m.subject}>
                      {m.subject}
                    </div>
                    {m.links.length > 0 ? (
                      <ul className="mt-1 grid gap-1" aria-label={`Links of the e-mail to ${m.to}`}>
                        {m.links.map((l) => (
                          <li key={l} className="flex items-center gap-1">
                            <a href={l} className="min-w-0 truncate font-mono text-xs text-primary underline-offset-2 hover:underline" title={l}>
                              {l}
                            </a>
                            <Button
                              variant="ghost"
                              size="sm"
                              aria-label={`Copy link for ${m.to}`}
                              onClick={() => {
                                void navigator.clipboard.writeText(l).then(
                                  () => toast.success("Link copied"),
                                  () => toast.error("The link could not be copied."),
                                );
                              }}
                            >
                              <ClipboardCopy aria-hidden="true" />
                            </Button>
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </TableCell>
                  <TableCell className="font-mono text-xs whitespace-nowrap">{m.kind}</TableCell>
                  <TableCell>
                    <Badge variant={STATUS_VARIANT[m.status] ?? "gray"} className="capitalize">
                      {m.status}
                    </Badge>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{m.attempts}</TableCell>
                  <TableCell className="text-xs whitespace-nowrap text-muted-foreground">
                    <time dateTime={m.sentAt ?? m.createdAt} title={m.sentAt ? `Sent ${m.sentAt}` : `Queued ${m.createdAt}`}>
                      {localTime(m.sentAt ?? m.createdAt)}
                    </time>
                  </TableCell>
                  <TableCell className="max-w-64 truncate text-xs text-red-800 dark:text-red-300" title={m.lastError || undefined}>
                    {m.lastError || <span className="text-muted-foreground">—</span>}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </Card>
  );
}
