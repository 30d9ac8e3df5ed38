import { ChevronRight } from "lucide-react";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { actionSummary, auditSentence, type Subjects } from "@/entities/audit";
import type { AuditEntry, AuditMember } from "./api";
import { ActorName } from "./actor";
import { actorLabel } from "./actors";
import { actionVariant, metaSummary, shortId } from "./filters";
import { formatLocalDateTime, formatUtc, localDateAndTime } from "@/lib/format-time";
import { cn } from "@/lib/utils";

interface ListProps {
  entries: AuditEntry[];
  members: Map<string, AuditMember>;
  /** The names of what the entries are about that they did not record (see useAuditSubjects). */
  subjects?: Subjects;
  onOpen: (entry: AuditEntry) => void;
}

const DOT: Record<ReturnType<typeof actionVariant>, string> = {
  red: "bg-red-500",
  green: "bg-green-600",
  blue: "bg-blue-500",
  amber: "bg-amber-500",
  gray: "bg-muted-foreground/50",
};

/**
 * What happened, in words, over the action's name as the trail records it
 * (which the action filter matches), with a dot in the action's colour.
 */
function ActionText({ entry, subjects }: { entry: AuditEntry; subjects: Subjects | undefined }) {
  const text = actionSummary(entry, subjects);
  return (
    <span className="grid max-w-full min-w-0 grid-cols-[auto_minmax(0,1fr)] items-baseline gap-x-2">
      <span aria-hidden="true" className={cn("size-2 translate-y-[-1px] rounded-full", DOT[actionVariant(entry.action)])} />
      <span className="line-clamp-2 text-sm leading-5 font-medium break-words text-foreground" title={text} data-testid="entry-sentence">
        {text}
      </span>
      <span className="col-start-2 truncate font-mono text-xs text-muted-foreground" title={entry.action}>
        {entry.action}
      </span>
    </span>
  );
}

/** Local time; the UTC time on hover. */
function Time({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatUtc(iso)} className="whitespace-nowrap tabular-nums">
      {formatLocalDateTime(iso)}
    </time>
  );
}

/** Local date over local time, for the table; the UTC time on hover. */
function StackedTime({ iso }: { iso: string }) {
  const { date, time } = localDateAndTime(iso);
  return (
    <time dateTime={iso} title={formatUtc(iso)} className="grid tabular-nums">
      <span className="whitespace-nowrap">{date}</span>
      <span className="text-xs whitespace-nowrap text-muted-foreground">{time}</span>
    </time>
  );
}

function ObjectCell({ entry }: { entry: AuditEntry }) {
  if (!entry.object_type && !entry.object_id) return <span className="text-muted-foreground">—</span>;
  return (
    <div className="min-w-0">
      <div className="truncate" title={entry.object_type ?? undefined}>{entry.object_type === null || entry.object_type === "" ? "—" : entry.object_type}</div>
      {entry.object_id ? (
        <div className="truncate font-mono text-xs text-muted-foreground" title={entry.object_id}>
          {shortId(entry.object_id, 13)}
        </div>
      ) : null}
    </div>
  );
}

/**
 * The entries as a dense table (wide screens). A row opens the entry's
 * detail on click; the row's last cell holds the keyboard-reachable button.
 */
export function AuditTable({ entries, members, subjects, onOpen }: ListProps) {
  return (
    <Table className="table-fixed" aria-label="Audit entries, newest first">
      <colgroup>
        <col className="w-16" />
        <col className="w-32" />
        <col className="w-56" />
        <col />
        <col className="w-36" />
        <col className="w-52" />
        <col className="w-12" />
      </colgroup>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead scope="col">#</TableHead>
          <TableHead scope="col">Time</TableHead>
          <TableHead scope="col">Actor</TableHead>
          <TableHead scope="col">What happened</TableHead>
          <TableHead scope="col">Object</TableHead>
          <TableHead scope="col">Details</TableHead>
          <TableHead scope="col">
            <span className="sr-only">Open</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {entries.map((e) => {
          const summary = metaSummary(e.meta);
          return (
            <TableRow
              key={e.id}
              data-entry-id={e.id}
              className="cursor-pointer"
              onClick={() => {
                onOpen(e);
              }}
            >
              <TableCell className="font-mono text-xs text-muted-foreground tabular-nums">{e.id}</TableCell>
              <TableCell className="text-sm">
                <StackedTime iso={e.created_at} />
              </TableCell>
              <TableCell>
                <ActorName entry={e} members={members} />
              </TableCell>
              <TableCell data-action={e.action}>
                <ActionText entry={e} subjects={subjects} />
              </TableCell>
              <TableCell>
                <ObjectCell entry={e} />
              </TableCell>
              <TableCell className="truncate text-muted-foreground" title={summary || undefined}>
                {summary || "—"}
              </TableCell>
              <TableCell className="px-1 text-right">
                <button
                  type="button"
                  className="inline-flex size-8 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  aria-label={`Open entry #${e.id}`}
                  onClick={(ev) => {
                    ev.stopPropagation();
                    onOpen(e);
                  }}
                >
                  <ChevronRight aria-hidden="true" className="size-4" />
                </button>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/**
 * The entries as a list (narrower screens): one column on a phone, three
 * (what, who, when) from the small breakpoint. Each item is a button that
 * opens the detail.
 */
export function AuditList({ entries, members, subjects, onOpen }: ListProps) {
  return (
    <ul aria-label="Audit entries, newest first" className="divide-y">
      {entries.map((e) => {
        const summary = metaSummary(e.meta, 70);
        const sentence = auditSentence(actorLabel(e, members).name, e, subjects);
        return (
          <li key={e.id} data-entry-id={e.id} data-action={e.action}>
            <button
              type="button"
              className="grid w-full gap-1.5 px-4 py-3 text-left text-sm hover:bg-muted/50 focus-visible:bg-muted/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none focus-visible:ring-inset sm:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_auto] sm:items-start sm:gap-x-6 sm:px-5"
              aria-label={`Entry #${e.id}: ${sentence}`}
              onClick={() => {
                onOpen(e);
              }}
            >
              <span className="grid min-w-0 justify-items-start gap-1">
                <ActionText entry={e} subjects={subjects} />
                {e.object_type ? (
                  <span className="max-w-full truncate text-xs text-muted-foreground">
                    {e.object_type}
                    {e.object_id ? <span className="font-mono"> {shortId(e.object_id, 13)}</span> : null}
                  </span>
                ) : null}
                {summary ? <span className="max-w-full truncate text-xs text-muted-foreground">{summary}</span> : null}
              </span>
              <ActorName entry={e} members={members} />
              <span className="flex items-center gap-2 text-xs text-muted-foreground sm:grid sm:justify-items-end sm:gap-0.5">
                <span className="font-mono">#{e.id}</span>
                <Time iso={e.created_at} />
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** Placeholder rows while a page loads. */
export function AuditSkeleton({ rows = 8 }: { rows?: number }) {
  return (
    <div className="grid gap-0 divide-y" aria-hidden="true">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="flex items-center gap-4 px-4 py-3.5">
          <Skeleton className="h-4 w-10" />
          <Skeleton className="h-4 w-36" />
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-5 w-32 rounded-full" />
          <Skeleton className="hidden h-4 flex-1 md:block" />
        </div>
      ))}
    </div>
  );
}
