import { getJSON, isRecord, type RequestOptions } from "@/lib/api";
import { unwrap } from "@/lib/data";
import { getSupabase } from "@/lib/supabase";

/** The body of `GET /api/health` (public). */
export interface Health {
  status: string;
  version: string;
  database: string;
  migration: number | null;
  uptimeSeconds: number | null;
}

/** One e-mail of the organisation's outbox (administrators only). */
export interface OutboxMessage {
  id: number;
  to: string;
  subject: string;
  kind: string;
  status: string;
  attempts: number;
  createdAt: string;
  sentAt: string | null;
  lastError: string;
  /** The links the e-mail holds, when the server only logs e-mails (no SMTP). */
  links: string[];
}

/** How the server seals the audit trail (administrators only). */
export interface AuditSealing {
  /** "on"; "failing" when the last checkpoints could not be written everywhere; "off" when the server does not seal. */
  status: "on" | "off" | "failing";
  keyId: string;
  intervalSeconds: number | null;
  /** Where checkpoints go: "data directory", "s3". */
  places: string[];
  lastSealedAt: string | null;
  lastError: string | null;
  /** Why the organisation's chain is no longer sealed (it no longer matches its checkpoint). */
  refused: string | null;
}

/** diagnostics()'s answer; `outbox` and `auditSealing` are present for owners and admins only. */
export interface ServerDiagnostics {
  version: string;
  database: string;
  migration: number | null;
  storage: string;
  mailSender: string;
  realtime: string;
  outbox: OutboxMessage[] | null;
  auditSealing: AuditSealing | null;
}

function text(v: unknown, fallback = ""): string {
  return typeof v === "string" ? v : fallback;
}

function int(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

export function parseHealth(body: unknown): Health {
  if (!isRecord(body) || typeof body.status !== "string") {
    throw new Error("The server sent a status report in an unexpected format.");
  }
  return {
    status: body.status,
    version: text(body.version),
    database: text(body.database),
    migration: int(body.migration),
    uptimeSeconds: int(body.uptime_seconds),
  };
}

export async function fetchHealth(options?: RequestOptions): Promise<Health> {
  return parseHealth(await getJSON("/api/health", options));
}

function parseMessage(m: unknown): OutboxMessage | null {
  if (!isRecord(m)) return null;
  return {
    id: int(m.id) ?? 0,
    to: text(m.to),
    subject: text(m.subject),
    kind: text(m.kind),
    status: text(m.status),
    attempts: int(m.attempts) ?? 0,
    createdAt: text(m.created_at),
    sentAt: typeof m.sent_at === "string" && m.sent_at !== "" ? m.sent_at : null,
    lastError: text(m.last_error),
    links: Array.isArray(m.links) ? m.links.filter((l): l is string => typeof l === "string") : [],
  };
}

function nullableText(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

function parseSealing(v: unknown): AuditSealing | null {
  if (!isRecord(v)) return null;
  return {
    status: v.status === "on" || v.status === "failing" ? v.status : "off",
    keyId: text(v.key_id),
    intervalSeconds: int(v.interval_seconds),
    places: Array.isArray(v.places) ? v.places.filter((p): p is string => typeof p === "string") : [],
    lastSealedAt: nullableText(v.last_sealed_at),
    lastError: nullableText(v.last_error),
    refused: nullableText(v.refused),
  };
}

export function parseDiagnostics(body: unknown): ServerDiagnostics {
  if (!isRecord(body)) throw new Error("The server sent diagnostics in an unexpected format.");
  return {
    version: text(body.version),
    database: text(body.database),
    migration: int(body.migration),
    storage: text(body.storage, "not configured"),
    mailSender: text(body.mail_sender),
    realtime: text(body.realtime, "not configured"),
    outbox: Array.isArray(body.outbox) ? body.outbox.map(parseMessage).filter((m): m is OutboxMessage => m !== null) : null,
    auditSealing: parseSealing(body.audit_sealing),
  };
}

/** The server's diagnostics for the signed-in member. */
export async function fetchDiagnostics(): Promise<ServerDiagnostics> {
  const sb = await getSupabase();
  return parseDiagnostics(unwrap(await sb.rpc("diagnostics")));
}
