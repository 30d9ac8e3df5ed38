import type { LogEntry, PerformanceMetric } from "@/lib/logger";
import type { AuditSealing, Health, ServerDiagnostics } from "./api";

/** What the "Copy diagnostics" report is made from. */
export interface ReportInput {
  generatedAt: Date;
  page: { url: string; userAgent: string; viewport: string; online: boolean };
  health: Health | null;
  healthError: string | null;
  server: ServerDiagnostics | null;
  serverError: string | null;
  errors: LogEntry[];
  performance: PerformanceMetric[];
}

/** Counts of values, e.g. outbox messages by status. */
function tally(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

/**
 * The JSON report a member pastes into a support request. It holds what
 * helps find a fault — versions, backends, the outbox's state, the client
 * logs — but not the outbox's recipients or subjects, which are other
 * people's data.
 */
export function buildReport(input: ReportInput): Record<string, unknown> {
  const outbox = input.server?.outbox ?? null;
  return {
    report: "fairbalance-diagnostics",
    generated_at: input.generatedAt.toISOString(),
    page: {
      url: input.page.url,
      user_agent: input.page.userAgent,
      viewport: input.page.viewport,
      online: input.page.online,
    },
    health: input.health
      ? {
          status: input.health.status,
          version: input.health.version,
          database: input.health.database,
          migration: input.health.migration,
          uptime_seconds: input.health.uptimeSeconds,
        }
      : { error: input.healthError ?? "not loaded" },
    server: input.server
      ? {
          version: input.server.version,
          database: input.server.database,
          migration: input.server.migration,
          storage: input.server.storage,
          mail_sender: input.server.mailSender,
          realtime: input.server.realtime,
          audit_sealing: input.server.auditSealing
            ? {
                status: input.server.auditSealing.status,
                places: input.server.auditSealing.places,
                last_sealed_at: input.server.auditSealing.lastSealedAt,
                last_error: input.server.auditSealing.lastError,
                chain_refused: input.server.auditSealing.refused !== null,
              }
            : "administrators only",
          outbox:
            outbox === null
              ? "administrators only"
              : {
                  messages: outbox.length,
                  by_status: tally(outbox.map((m) => m.status)),
                  last_errors: outbox
                    .filter((m) => m.lastError !== "")
                    .slice(0, 5)
                    .map((m) => ({ id: m.id, kind: m.kind, status: m.status, attempts: m.attempts, last_error: m.lastError })),
                },
        }
      : { error: input.serverError ?? "not loaded" },
    client_errors: input.errors,
    performance: input.performance,
  };
}

/** A "label: value" name for a setting the server reports. */
export function mailSenderLabel(sender: string): { title: string; detail: string } {
  if (sender === "smtp") return { title: "SMTP", detail: "E-mails are delivered through the configured SMTP server." };
  if (sender === "log") {
    return {
      title: "Log only",
      detail: "No SMTP server is configured: e-mails are written to the server log and kept in the outbox, not delivered.",
    };
  }
  return { title: sender || "Unknown", detail: "" };
}

/** How the audit trail's sealing is named: a title, a sentence and a tone. */
export function sealingLabel(s: Pick<AuditSealing, "status" | "places" | "keyId" | "lastError" | "refused">): {
  title: string;
  detail: string;
  tone: "ok" | "warn" | "muted";
} {
  if (s.status === "off") return { title: "Off", detail: "This server does not seal the audit trail.", tone: "muted" };
  if (s.status === "failing") {
    return { title: "Failing", detail: `The last checkpoints could not be written: ${s.lastError ?? "unknown error"}.`, tone: "warn" };
  }
  if (s.refused) return { title: "Stopped for your organisation", detail: `Your chain no longer matches its checkpoint: ${s.refused}.`, tone: "warn" };
  const places = s.places.map((p) => (p === "s3" ? "S3" : `the ${p}`)).join(" and ");
  return { title: "Sealed", detail: `Signed checkpoints (key ${s.keyId}) go to ${places || "the data directory"}.`, tone: "ok" };
}

const DATABASES: Record<string, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };

export function databaseLabel(database: string): string {
  return DATABASES[database] ?? (database || "Unknown");
}

/** "3 d 4 h", "5 h 12 min", "42 s". */
export function formatUptime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min`;
  return `${s} s`;
}
