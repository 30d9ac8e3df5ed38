import { Bug, Gauge, Trash2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { ERROR_LOG_LIMIT, type LogEntry, type LogLevel, PERFORMANCE_LOG_LIMIT, type PerformanceMetric } from "@/lib/logger";

const LEVEL_VARIANT: Record<LogLevel, "red" | "amber" | "blue"> = { error: "red", warning: "amber", info: "blue" };

function time(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/**
 * The browser's error log (the last {@link ERROR_LOG_LIMIT}), newest first:
 * level, message and time, with the stack and context behind a disclosure.
 */
export function ErrorLogCard({ entries, onClear }: { entries: LogEntry[]; onClear: () => void }) {
  return (
    <Card role="region" aria-labelledby="error-log-title" className="overflow-hidden">
      <CardHeader className="gap-3 pb-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 flex-1 gap-1">
          <CardTitle id="error-log-title">Client error log</CardTitle>
          <CardDescription>
            Errors this browser recorded, newest first (the last {ERROR_LOG_LIMIT}). They stay on this device until cleared; clearing
            also empties the performance log.
          </CardDescription>
        </div>
        <Button variant="outline" size="sm" className="self-start" onClick={onClear} disabled={entries.length === 0}>
          <Trash2 aria-hidden="true" />
          Clear logs
        </Button>
      </CardHeader>
      {entries.length === 0 ? (
        <div className="px-6 pb-6">
          <EmptyState icon={Bug} title="No errors recorded">
            Uncaught errors and failed calls in this browser show up here as they happen.
          </EmptyState>
        </div>
      ) : (
        <ol className="divide-y border-t" aria-label="Errors, newest first" data-testid="error-log">
          {entries.map((e) => (
            <li key={e.id} className="px-4 py-3 sm:px-6">
              <details className="group">
                <summary className="flex cursor-pointer list-none items-start gap-3 rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
                  <Badge variant={LEVEL_VARIANT[e.level]} className="mt-0.5 w-16 justify-center capitalize">
                    {e.level}
                  </Badge>
                  <span className="min-w-0 flex-1">
                    <span className="block text-sm font-medium break-words">{e.message}</span>
                    <span className="block text-xs text-muted-foreground">
                      <time dateTime={e.timestamp}>{time(e.timestamp)}</time>
                      <span aria-hidden="true"> · </span>
                      session <span className="font-mono">{e.sessionId.slice(0, 8)}</span>
                    </span>
                  </span>
                  <span className="mt-0.5 shrink-0 text-xs text-muted-foreground group-open:hidden">Details</span>
                  <span className="mt-0.5 hidden shrink-0 text-xs text-muted-foreground group-open:inline">Hide</span>
                </summary>
                <div className="mt-3 grid gap-2 pl-0 sm:pl-[4.75rem]">
                  <p className="text-xs text-muted-foreground">
                    Session <span className="font-mono break-all">{e.sessionId}</span>
                  </p>
                  {e.stack ? (
                    <pre className="max-h-60 overflow-auto rounded-md border bg-muted/60 p-3 font-mono text-xs leading-5" tabIndex={0} aria-label="Stack trace">
                      {e.stack}
                    </pre>
                  ) : (
                    <p className="text-xs text-muted-foreground">No stack trace was recorded.</p>
                  )}
                  {e.context && Object.keys(e.context).length > 0 ? (
                    <pre className="max-h-48 overflow-auto rounded-md border bg-muted/60 p-3 font-mono text-xs leading-5" tabIndex={0} aria-label="Context">
                      {JSON.stringify(e.context, null, 2)}
                    </pre>
                  ) : null}
                </div>
              </details>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function path(m: PerformanceMetric): string {
  const p = m.context?.path;
  return typeof p === "string" ? p : "";
}

/** The performance log (the last {@link PERFORMANCE_LOG_LIMIT}), newest first. */
export function PerformanceLogCard({ metrics }: { metrics: PerformanceMetric[] }) {
  return (
    <Card role="region" aria-labelledby="perf-log-title" className="overflow-hidden">
      <CardHeader className="pb-4">
        <CardTitle id="perf-log-title">Performance log</CardTitle>
        <CardDescription>Page loads and screen changes in this browser, newest first (the last {PERFORMANCE_LOG_LIMIT}).</CardDescription>
      </CardHeader>
      {metrics.length === 0 ? (
        <div className="px-6 pb-6">
          <EmptyState icon={Gauge} title="No timings yet">
            Timings are recorded as you move between screens.
          </EmptyState>
        </div>
      ) : (
        <div className="max-h-[28rem] overflow-y-auto border-t">
          <Table aria-label="Performance metrics, newest first" data-testid="performance-log">
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead scope="col">Metric</TableHead>
                <TableHead scope="col" className="text-right">
                  Value
                </TableHead>
                <TableHead scope="col">Path</TableHead>
                <TableHead scope="col">Time</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {metrics.map((m, i) => (
                <TableRow key={`${m.timestamp}-${m.name}-${i}`}>
                  <TableCell className="font-mono text-xs">{m.name}</TableCell>
                  <TableCell className="text-right whitespace-nowrap tabular-nums">{m.value.toLocaleString("en-US")} ms</TableCell>
                  <TableCell className="max-w-48 truncate font-mono text-xs text-muted-foreground" title={path(m)}>
                    {path(m) || "—"}
                  </TableCell>
                  <TableCell className="text-xs whitespace-nowrap text-muted-foreground">
                    <time dateTime={m.timestamp}>{time(m.timestamp)}</time>
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
