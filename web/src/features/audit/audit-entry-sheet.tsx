import { useQuery } from "@tanstack/react-query";
import { CircleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/errors";
import { cn } from "@/lib/utils";
import { auditEntryQuery, auditSentence, auditSubjectsQuery, subjectRefs } from "@/entities/audit";
import type { AuditEntry, AuditMember } from "./api";
import { actorLabel } from "./actors";
import { cellText, diffRows } from "./diff";
import { actionVariant } from "./filters";
import { formatLocalDateTime, formatUtc } from "@/lib/format-time";
import { ActorName } from "./actor";

/**
 * Everything about one entry, in a sheet: its fields, the meta JSON, the
 * before/after values side by side with changed fields highlighted, and
 * its hash. `entryId` null closes it.
 */
export function AuditEntrySheet({
  entryId,
  initial,
  members,
  onClose,
}: {
  entryId: number | null;
  /** The row as the table has it, shown while the full entry loads. */
  initial: AuditEntry | undefined;
  members: Map<string, AuditMember>;
  onClose: () => void;
}) {
  const open = entryId !== null;
  const detail = useQuery(auditEntryQuery(entryId));
  const entry = detail.data?.entry ?? initial;
  const subjects = useQuery(auditSubjectsQuery(entry ? subjectRefs([entry]) : []));
  const sentence = entry ? auditSentence(actorLabel(entry, members).name, entry, subjects.data) : "";

  return (
    <Sheet
      open={open}
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
    >
      <SheetContent side="right" className="w-full gap-0 overflow-y-auto sm:max-w-2xl">
        <div className="grid gap-1 border-b px-5 py-4 pr-12 sm:px-6">
          <SheetTitle className="text-lg leading-7 font-semibold">{entryId !== null ? `Audit entry #${entryId}` : "Audit entry"}</SheetTitle>
          <SheetDescription className="text-sm text-muted-foreground wrap-anywhere">
            {entry ? `${sentence} · ${formatLocalDateTime(entry.created_at)}` : "Loading the entry…"}
          </SheetDescription>
        </div>

        <div className="grid gap-6 px-5 py-5 sm:px-6">
          {detail.isError ? (
            <Alert variant="destructive">
              <CircleAlert aria-hidden="true" />
              <AlertTitle>Couldn’t load this entry</AlertTitle>
              <AlertDescription>{errorMessage(detail.error, "Please try again.")}</AlertDescription>
            </Alert>
          ) : null}
          {detail.isSuccess && !detail.data ? (
            <Alert variant="warning">
              <CircleAlert aria-hidden="true" />
              <AlertTitle>Entry not found</AlertTitle>
              <AlertDescription>There is no entry #{entryId} in your organisation’s audit trail.</AlertDescription>
            </Alert>
          ) : null}

          {entry ? (
            <section aria-labelledby="entry-fields" className="grid gap-3">
              <h3 id="entry-fields" className="text-sm font-semibold">
                Entry
              </h3>
              <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[9rem_minmax(0,1fr)]">
                <Row term="What happened">
                  <span data-testid="entry-sentence">{sentence}</span>
                </Row>
                <Row term="Action">
                  <Badge variant={actionVariant(entry.action)} className="max-w-full font-mono whitespace-normal wrap-anywhere">
                    {entry.action}
                  </Badge>
                </Row>
                <Row term="Recorded by">
                  {entry.client_reported ? (
                    <span className="grid justify-items-start gap-1" data-testid="entry-source">
                      <Badge variant="amber">Client-reported</Badge>
                      <Muted>Sent by the app: it records what the client says happened.</Muted>
                    </span>
                  ) : (
                    <span data-testid="entry-source">The server, with the change itself</span>
                  )}
                </Row>
                <Row term="Time (local)">
                  <time dateTime={entry.created_at}>{formatLocalDateTime(entry.created_at)}</time>
                </Row>
                <Row term="Time (UTC)">
                  <span className="font-mono text-xs">{formatUtc(entry.created_at)}</span>
                </Row>
                <Row term="Actor">
                  <ActorName entry={entry} members={members} />
                  {entry.actor_id ? <div className="font-mono text-xs break-all text-muted-foreground">{entry.actor_id}</div> : null}
                </Row>
                <Row term="Object type">{entry.object_type === null || entry.object_type === "" ? <Muted>none</Muted> : entry.object_type}</Row>
                <Row term="Object id">
                  {entry.object_id ? <span className="font-mono text-xs break-all">{entry.object_id}</span> : <Muted>none</Muted>}
                </Row>
                <Row term="Organisation">
                  <span className="font-mono text-xs break-all">{entry.org_id}</span>
                </Row>
                <Row term="Hash">
                  <span className="font-mono text-xs break-all" data-testid="entry-hash">
                    {entry.hash}
                  </span>
                </Row>
              </dl>
              <p className="text-xs leading-5 text-muted-foreground">
                Each entry’s hash covers its content and the previous entry’s hash, so changing or removing any entry breaks the chain
                from that point on. Verify the chain to recompute every hash.
              </p>
            </section>
          ) : (
            <div className="grid gap-3" aria-hidden="true">
              {Array.from({ length: 6 }, (_, i) => (
                <Skeleton key={i} className="h-5 w-full" />
              ))}
            </div>
          )}

          {entry ? (
            <section aria-labelledby="entry-meta" className="grid gap-2">
              <h3 id="entry-meta" className="text-sm font-semibold">
                Details (meta)
              </h3>
              {entry.meta === null ? (
                <p className="text-sm text-muted-foreground">This entry has no details.</p>
              ) : (
                <pre className="max-h-72 overflow-auto rounded-lg border bg-muted/60 p-3 font-mono text-xs leading-5" tabIndex={0} aria-label="Meta JSON">
                  {JSON.stringify(entry.meta, null, 2)}
                </pre>
              )}
            </section>
          ) : null}

          <section aria-labelledby="entry-changes" className="grid gap-2">
            <h3 id="entry-changes" className="text-sm font-semibold">
              Before and after
            </h3>
            {detail.isPending ? (
              <Skeleton className="h-24 w-full" />
            ) : detail.data ? (
              <Changes before={detail.data.before} after={detail.data.after} />
            ) : null}
          </section>
        </div>
      </SheetContent>
    </Sheet>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{term}</dt>
      <dd className="min-w-0 wrap-anywhere">{children}</dd>
    </>
  );
}

function Muted({ children }: { children: ReactNode }) {
  return <span className="text-muted-foreground">{children}</span>;
}

/** A JSON value in a comparison cell; an empty text says so rather than showing nothing. */
function Value({ value }: { value: unknown }) {
  const text = cellText(value);
  return text === "" ? <span className="font-sans text-muted-foreground italic">empty</span> : <>{text}</>;
}

/** The before/after values side by side; changed fields are highlighted and marked. */
function Changes({ before, after }: { before: unknown; after: unknown }) {
  const rows = diffRows(before, after);
  if (rows.length === 0) {
    return <p className="text-sm text-muted-foreground">This entry records no values before or after (an event rather than a change to a record).</p>;
  }
  const changed = rows.filter((r) => r.changed).length;
  return (
    <div className="grid gap-2">
      <p className="text-xs text-muted-foreground">
        {before === null ? "Created — no previous values." : after === null ? "Removed — no values after." : `${changed} of ${rows.length} fields changed.`}
      </p>
      {/* Phones: one card per field, the values one under the other. */}
      <ul className="grid gap-2 sm:hidden" aria-label="Fields before and after" data-testid="entry-changes-list">
        {rows.map((r) => (
          <li
            key={r.key}
            data-field={r.key}
            data-changed={r.changed ? "true" : undefined}
            className={cn("rounded-lg border p-3 text-xs", r.changed && "border-amber-300 bg-amber-50 dark:border-amber-900 dark:bg-amber-950/40")}
          >
            <div className="flex items-center justify-between gap-2">
              <span className="font-mono font-medium break-all">{r.key}</span>
              {r.changed ? (
                <span className="shrink-0 font-semibold text-amber-800 dark:text-amber-300">{r.added ? "added" : r.removed ? "removed" : "changed"}</span>
              ) : null}
            </div>
            <dl className="mt-1.5 grid grid-cols-[3.25rem_minmax(0,1fr)] gap-x-2 gap-y-1">
              <dt className="text-muted-foreground">Before</dt>
              <dd className={cn("font-mono break-all", r.changed && !r.added && "text-red-800 dark:text-red-300")}>
                {r.added ? <span className="text-muted-foreground">—</span> : <Value value={r.before} />}
              </dd>
              <dt className="text-muted-foreground">After</dt>
              <dd className={cn("font-mono break-all", r.changed && !r.removed && "text-green-800 dark:text-green-300")}>
                {r.removed ? <span className="text-muted-foreground">—</span> : <Value value={r.after} />}
              </dd>
            </dl>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-lg border sm:block">
        <table className="w-full text-xs" data-testid="entry-changes">
          <thead className="bg-muted/60 text-left text-muted-foreground">
            <tr>
              <th scope="col" className="w-[22%] px-3 py-2 font-medium">
                Field
              </th>
              <th scope="col" className="w-[39%] px-3 py-2 font-medium">
                Before
              </th>
              <th scope="col" className="w-[39%] px-3 py-2 font-medium">
                After
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={r.key}
                data-field={r.key}
                data-changed={r.changed ? "true" : undefined}
                className={cn("border-t align-top", r.changed && "bg-amber-50 dark:bg-amber-950/40")}
              >
                <th scope="row" className="px-3 py-2 text-left font-mono font-medium break-words">
                  {r.key}
                  {r.changed ? (
                    <span className="mt-0.5 block font-sans text-[11px] font-semibold whitespace-nowrap text-amber-800 dark:text-amber-300">
                      {r.added ? "added" : r.removed ? "removed" : "changed"}
                    </span>
                  ) : null}
                </th>
                <td className={cn("px-3 py-2 font-mono break-all", r.changed && !r.added && "text-red-800 dark:text-red-300")}>
                  {r.added ? <span className="text-muted-foreground">—</span> : <Value value={r.before} />}
                </td>
                <td className={cn("px-3 py-2 font-mono break-all", r.changed && !r.removed && "text-green-800 dark:text-green-300")}>
                  {r.removed ? <span className="text-muted-foreground">—</span> : <Value value={r.after} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
