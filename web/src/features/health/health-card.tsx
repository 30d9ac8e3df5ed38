import { CircleAlert, RefreshCw } from "lucide-react";
import { Button } from "@/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";
import { databaseLabel, type Health } from "./api";
import { useHealth } from "./use-health";

/** Shows the state of this Fairbalance instance from `GET /api/health`. */
export function HealthCard() {
  const { data, error, isPending, isError, isFetching, refetch, dataUpdatedAt } = useHealth();
  const refresh = () => void refetch();

  return (
    <Card aria-labelledby="health-card-title" role="region" className="w-full">
      <CardHeader>
        <CardTitle id="health-card-title">Instance status</CardTitle>
        <CardDescription>Live report from this Fairbalance server.</CardDescription>
      </CardHeader>

      <CardContent aria-live="polite" aria-busy={isFetching}>
        {isPending ? (
          <div className="flex items-center gap-3 py-6 text-sm text-muted-foreground">
            <Spinner label={null} />
            <span role="status">Checking the server…</span>
          </div>
        ) : isError ? (
          <HealthError message={error.message} onRetry={refresh} retrying={isFetching} />
        ) : (
          <HealthDetails health={data} />
        )}
      </CardContent>

      {!isPending && !isError && (
        <CardFooter className="justify-between">
          <p className="text-xs text-muted-foreground">
            Checked{" "}
            <time dateTime={new Date(dataUpdatedAt).toISOString()} data-testid="health-checked-at">
              {new Date(dataUpdatedAt).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" })}
            </time>
          </p>
          <Button variant="outline" size="sm" onClick={refresh} disabled={isFetching}>
            <RefreshCw
              aria-hidden="true"
              className={cn(isFetching && "animate-spin motion-reduce:animate-none")}
            />
            {isFetching ? "Refreshing…" : "Refresh"}
          </Button>
        </CardFooter>
      )}
    </Card>
  );
}

function HealthDetails({ health }: { health: Health }) {
  const ok = health.status === "ok";
  return (
    <div className="flex flex-col gap-5">
      <p className="flex items-center gap-2.5 text-base font-medium" data-testid="health-status">
        <span
          aria-hidden="true"
          className={cn(
            "relative inline-flex size-2.5 rounded-full",
            ok ? "bg-success" : "bg-warning",
          )}
        >
          {ok && (
            <span className="absolute inset-0 animate-ping rounded-full bg-success opacity-50 motion-reduce:hidden" />
          )}
        </span>
        {ok ? "System Healthy" : `Status: ${health.status}`}
      </p>

      <dl className="grid grid-cols-1 gap-x-6 gap-y-4 text-sm sm:grid-cols-3">
        <Detail term="Version" value={health.version} mono />
        <Detail term="Database" value={databaseLabel(health.database)} />
        <Detail term="Schema migration" value={String(health.migration)} mono />
      </dl>
    </div>
  );
}

function Detail({ term, value, mono = false }: { term: string; value: string; mono?: boolean }) {
  return (
    <div className="flex flex-col gap-1 rounded-lg bg-muted px-3 py-2.5">
      <dt className="text-xs font-medium text-muted-foreground">{term}</dt>
      <dd className={cn("truncate font-medium", mono && "font-mono tabular-nums")} title={value}>
        {value}
      </dd>
    </div>
  );
}

function HealthError({
  message,
  onRetry,
  retrying,
}: {
  message: string;
  onRetry: () => void;
  retrying: boolean;
}) {
  return (
    <div
      role="alert"
      className="flex flex-col items-start gap-4 rounded-lg border border-destructive/30 bg-destructive/5 p-4"
    >
      <div className="flex gap-3">
        <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-destructive" />
        <div className="flex flex-col gap-1">
          <p className="text-sm font-medium">Couldn’t load the instance status</p>
          <p className="text-sm text-muted-foreground">{message}</p>
        </div>
      </div>
      <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying}>
        {retrying ? (
          <Spinner size="sm" label={null} className="text-current" />
        ) : (
          <RefreshCw aria-hidden="true" />
        )}
        {retrying ? "Retrying…" : "Try again"}
      </Button>
    </div>
  );
}
