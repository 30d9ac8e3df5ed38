import { useQuery } from "@tanstack/react-query";
import {
  Activity,
  CircleAlert,
  ClipboardCopy,
  Database,
  HardDrive,
  HeartPulse,
  LifeBuoy,
  Lock,
  Mail,
  Radio,
  RefreshCw,
  Server,
} from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { getConfig } from "@/lib/config";
import { formatRelative, formatUtc } from "@/lib/format-time";
import { errorMessage } from "@/lib/errors";
import { clearLogs } from "@/lib/logger";
import { useDocumentTitle } from "@/lib/use-document-title";
import { cn } from "@/lib/utils";
import { type AuditSealing, fetchDiagnostics, fetchHealth } from "./api";
import { ErrorLogCard, PerformanceLogCard } from "./client-logs";
import { OutboxCard } from "./outbox-card";
import { buildReport, databaseLabel, formatUptime, mailSenderLabel, sealingLabel } from "./report";
import { useClientLogs } from "./use-client-logs";

/** One fact about the instance: an icon, a label, the value and a line of explanation. */
function Fact({
  icon: Icon,
  label,
  value,
  detail,
  loading,
  testId,
  tone = "default",
}: {
  icon: typeof Server;
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  loading: boolean;
  testId: string;
  tone?: "default" | "muted" | "ok" | "warn";
}) {
  return (
    <Card className="flex gap-3 p-4" data-testid={testId}>
      <span
        className={cn(
          "inline-flex size-9 shrink-0 items-center justify-center rounded-lg",
          tone === "ok" ? "bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-300" : "bg-primary/10 text-primary",
          tone === "muted" && "bg-muted text-muted-foreground",
          tone === "warn" && "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200",
        )}
      >
        <Icon aria-hidden="true" className="size-4.5" />
      </span>
      <div className="grid min-w-0 gap-0.5">
        <h2 className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</h2>
        {loading ? <Skeleton className="mt-1 h-5 w-28" /> : <div className="truncate font-semibold">{value}</div>}
        {!loading && detail ? <p className="text-xs leading-5 text-muted-foreground">{detail}</p> : null}
      </div>
    </Card>
  );
}

/** How the server seals the audit trail (shown to administrators). */
function SealingFact({ sealing }: { sealing: AuditSealing }) {
  const label = sealingLabel(sealing);
  return (
    <Fact
      icon={Lock}
      label="Audit sealing"
      testId="fact-sealing"
      loading={false}
      tone={label.tone}
      value={label.title}
      detail={
        <>
          {label.detail}
          {sealing.lastSealedAt ? (
            <>
              {" "}
              Last checkpoint{" "}
              <time dateTime={sealing.lastSealedAt} title={formatUtc(sealing.lastSealedAt)}>
                {formatRelative(sealing.lastSealedAt)}
              </time>
              .
            </>
          ) : null}
        </>
      }
    />
  );
}

/**
 * Diagnostics (/diagnostics): what this instance runs (version, database
 * and migration, storage, mail, realtime), the organisation's mail outbox
 * for administrators, and this browser's error and performance logs, which
 * update as entries are logged. "Copy diagnostics" puts a JSON report on
 * the clipboard for a support request.
 */
export function DiagnosticsPage() {
  useDocumentTitle("Diagnostics");
  const health = useQuery({ queryKey: ["diagnostics", "health"], queryFn: ({ signal }) => fetchHealth({ signal }), staleTime: 10_000 });
  const server = useQuery({ queryKey: ["diagnostics", "server"], queryFn: fetchDiagnostics, staleTime: 10_000 });
  const { errors, performance } = useClientLogs();

  const refresh = () => {
    void health.refetch();
    void server.refetch();
  };

  const copy = async () => {
    const report = buildReport({
      generatedAt: new Date(),
      page: {
        url: window.location.href,
        userAgent: navigator.userAgent,
        viewport: `${window.innerWidth}×${window.innerHeight}`,
        online: navigator.onLine,
      },
      health: health.data ?? null,
      healthError: health.error ? errorMessage(health.error, "failed") : null,
      server: server.data ?? null,
      serverError: server.error ? errorMessage(server.error, "failed") : null,
      errors,
      performance,
    });
    const clientVersion = await getConfig().then(
      (c) => c.version,
      () => "",
    );
    const text = JSON.stringify({ ...report, app_version: clientVersion }, null, 2);
    try {
      await navigator.clipboard.writeText(text);
      toast.success("Diagnostics copied", { description: "Paste the report into your support request." });
    } catch {
      toast.error("Couldn’t copy", { description: "Your browser did not allow access to the clipboard." });
    }
  };

  const d = server.data;
  const h = health.data;
  const loadingServer = server.isPending;
  const version = d?.version ?? h?.version ?? "";
  const migration = d?.migration ?? h?.migration ?? null;
  const database = d?.database ?? h?.database ?? "";
  const mail = mailSenderLabel(d?.mailSender ?? "");
  const realtimeOff = (d?.realtime ?? "not configured") === "not configured";
  const storageOff = (d?.storage ?? "not configured") === "not configured";

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Diagnostics"
        description="What this Fairbalance instance runs, its mail outbox, and the errors and timings this browser recorded — for you and for support."
        actions={
          <>
            <Button variant="outline" onClick={refresh} disabled={health.isFetching || server.isFetching}>
              <RefreshCw aria-hidden="true" className={cn((health.isFetching || server.isFetching) && "animate-spin motion-reduce:animate-none")} />
              Refresh
            </Button>
            <Button onClick={() => void copy()}>
              <ClipboardCopy aria-hidden="true" />
              Copy diagnostics
            </Button>
          </>
        }
      />

      {server.isError ? (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertTitle>Couldn’t load the server diagnostics</AlertTitle>
          <AlertDescription>{errorMessage(server.error, "The server did not answer. Please try again.")}</AlertDescription>
        </Alert>
      ) : null}

      <section aria-label="Instance" className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
        <Fact
          icon={Activity}
          label="Status"
          testId="fact-status"
          loading={health.isPending}
          tone={h?.status === "ok" ? "ok" : "warn"}
          value={health.isError ? "Unreachable" : h?.status === "ok" ? "Operational" : (h?.status ?? "")}
          detail={
            health.isError ? (
              errorMessage(health.error, "The health check failed.")
            ) : h?.uptimeSeconds != null ? (
              <>Up for {formatUptime(h.uptimeSeconds)}</>
            ) : null
          }
        />
        <Fact
          icon={Server}
          label="Version"
          testId="fact-version"
          loading={loadingServer && health.isPending}
          value={<span className="font-mono">{version || "unknown"}</span>}
          detail="The server build this instance runs."
        />
        <Fact
          icon={Database}
          label="Database"
          testId="fact-database"
          loading={loadingServer && health.isPending}
          value={
            <>
              {databaseLabel(database)}
              <span className="font-normal text-muted-foreground"> · migration </span>
              <span className="font-mono">{migration ?? "?"}</span>
            </>
          }
          detail="Backend and the highest schema migration applied."
        />
        <Fact
          icon={HardDrive}
          label="File storage"
          testId="fact-storage"
          loading={loadingServer}
          tone={storageOff ? "muted" : "default"}
          value={storageOff ? "Not configured" : d?.storage === "disk" ? "Local disk" : d?.storage === "s3" ? "S3-compatible" : d?.storage}
          detail={
            storageOff
              ? "File uploads are not available on this instance yet."
              : d?.storage === "disk"
                ? "Files are kept under the server's data directory."
                : d?.storage === "s3"
                  ? "Files are kept in the S3-compatible bucket the server is configured with."
                  : null
          }
        />
        <Fact icon={Mail} label="Mail sender" testId="fact-mail" loading={loadingServer} tone={d?.mailSender === "log" ? "warn" : "default"} value={mail.title} detail={mail.detail} />
        <Fact
          icon={Radio}
          label="Realtime"
          testId="fact-realtime"
          loading={loadingServer}
          tone={realtimeOff ? "muted" : "default"}
          value={realtimeOff ? "Not configured" : d?.realtime}
          detail={realtimeOff ? "Live updates between browsers are not available; screens refresh when you reload or act." : null}
        />
        {d?.auditSealing ? <SealingFact sealing={d.auditSealing} /> : null}
      </section>

      {d?.outbox ? (
        <OutboxCard messages={d.outbox} mailSender={d.mailSender} />
      ) : d ? (
        <p className="rounded-lg border border-dashed px-4 py-3 text-sm text-muted-foreground" data-testid="outbox-hidden">
          The mail outbox is shown to administrators only.
        </p>
      ) : null}

      <div className="grid gap-6 xl:grid-cols-2">
        <ErrorLogCard
          entries={errors}
          onClear={() => {
            clearLogs();
            toast.success("Client logs cleared", { description: "The error and performance logs of this browser are empty." });
          }}
        />
        <PerformanceLogCard metrics={performance} />
      </div>

      <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5">
        <div className="grid gap-0.5">
          <h2 className="font-semibold">Status and recovery</h2>
          <p className="text-sm text-muted-foreground">The public health page, and safe mode for repairs when the app itself won’t start.</p>
        </div>
        <nav aria-label="Status and recovery" className="flex flex-wrap gap-2">
          <Link to="/health" className={buttonVariants({ variant: "outline" })}>
            <HeartPulse aria-hidden="true" />
            Health status
          </Link>
          <Link to="/safe" className={buttonVariants({ variant: "outline" })}>
            <LifeBuoy aria-hidden="true" />
            Safe mode
          </Link>
        </nav>
      </Card>
    </div>
  );
}
