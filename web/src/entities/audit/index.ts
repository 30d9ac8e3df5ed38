import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { isRecord } from "@/lib/api";
import { unwrap } from "@/lib/data";
import type { Json, Row } from "@/lib/db-types";
import { RECENT_DEFAULT } from "@/lib/logger";
import { getSupabase } from "@/lib/supabase";
import type { ClientAuditAction, SubjectRef, Subjects, SubjectTable } from "./sentences";

export * from "./sentences";
export { SERVER_AUDIT_ACTIONS, type ServerAuditAction } from "./server-actions";

/**
 * The organisation's audit trail (audit_logs_v2, append-only and
 * hash-chained). Every write anywhere adds an entry, so screens that show
 * the trail read it fresh (the Command Center's activity) or offer a
 * refresh (the Audit Log).
 */

/** One entry of the trail. */
export type AuditEntry = Row<"audit_logs_v2">;

/**
 * The columns the CSV export holds, in its order: the entry, what it
 * recorded before and after the change (as the detail shows them), and its
 * hash.
 */
export const EXPORT_COLUMNS = "id, created_at, actor_id, actor_email, action, object_type, object_id, org_id, meta, before:before_json, after:after_json, hash";

/** The CSV export's header row: the columns' names, aliases where given. */
export const EXPORT_HEADER = EXPORT_COLUMNS.split(",")
  .map((c) => c.trim().split(":")[0])
  .join(",");

/** The columns the table and the detail read (everything audit_logs_v2 has). */
export const ENTRY_COLUMNS = "id, created_at, actor_id, actor_email, action, object_type, object_id, org_id, meta, before_json, after_json, hash, client_reported";

/** The columns the Command Center's activity reads: enough to word each entry. */
const ACTIVITY_COLUMNS = "id, actor_id, actor_email, action, object_type, object_id, meta, before_json, after_json, created_at";

/** One PostgREST filter: column, operator, value. */
export type QueryFilter = readonly [column: string, operator: string, value: string];

/** The filters of a view ready to send, or null when its period holds no entry. */
export type ResolvedFilters = QueryFilter[] | null;

export const auditKeys = {
  all: ["audit"] as const,
  recent: (orgId: string | null | undefined) => [...auditKeys.all, "recent", orgId ?? null] as const,
  pages: () => [...auditKeys.all, "page"] as const,
  page: (filterKey: string, before: number | null) => [...auditKeys.pages(), filterKey, before] as const,
  counts: () => [...auditKeys.all, "count"] as const,
  count: (filterKey: string) => [...auditKeys.counts(), filterKey] as const,
  entry: (id: number | null) => [...auditKeys.all, "entry", id] as const,
  lastVerification: () => [...auditKeys.all, "last-verification"] as const,
  subjects: (refs: string) => [...auditKeys.all, "subjects", refs] as const,
  seal: () => [...auditKeys.all, "seal"] as const,
};

/** The newest entries of the trail (spec §9: recent lists show 10), read afresh on every visit. */
export function recentActivityQuery(orgId: string | null | undefined) {
  return queryOptions({
    queryKey: auditKeys.recent(orgId),
    enabled: Boolean(orgId),
    staleTime: 0,
    queryFn: async () => {
      const sb = await getSupabase();
      return unwrap(await sb.from("audit_logs_v2").select(ACTIVITY_COLUMNS).order("id", { ascending: false }).limit(RECENT_DEFAULT));
    },
  });
}

/**
 * Whether counting a view's matches is cheap: every filter but a substring
 * match of the action is served by an index (measured at 100 000 entries:
 * under 0.15 s; a substring count reads the whole chain).
 */
export function countable(filters: QueryFilter[]): boolean {
  return !filters.some(([, op]) => op === "ilike");
}

/**
 * The id of the first entry at or after `at` (`gte`, ascending) or the last
 * before it (`lt`, descending), or null when there is none: along a chain
 * created_at never decreases, so a period is a range of ids.
 */
export async function entryIdAt(op: "gte" | "lt", at: string): Promise<number | null> {
  const sb = await getSupabase();
  const ascending = op === "gte";
  const rows = unwrap(
    await sb.from("audit_logs_v2").select("id").filter("created_at", op, at).order("created_at", { ascending }).order("id", { ascending }).limit(1),
  );
  return rows[0]?.id ?? null;
}

/** A page of entries, newest first. */
export interface AuditPage {
  entries: AuditEntry[];
  /** Whether entries older than the last one match too. */
  hasOlder: boolean;
}

/**
 * Reads one page: entries with an id below `before` (all when null),
 * newest first. One row more than a page is asked for to learn whether an
 * older page exists without counting.
 */
export async function fetchAuditPage(filters: ResolvedFilters, before: number | null, pageSize: number, signal?: AbortSignal): Promise<AuditPage> {
  if (filters === null) return { entries: [], hasOlder: false };
  const sb = await getSupabase();
  let q = sb.from("audit_logs_v2").select(ENTRY_COLUMNS);
  for (const [column, op, value] of filters) q = q.filter(column, op, value);
  if (before !== null) q = q.lt("id", before);
  q = q.order("id", { ascending: false }).limit(pageSize + 1);
  if (signal) q = q.abortSignal(signal);
  const rows = unwrap(await q);
  return { entries: rows.slice(0, pageSize), hasOlder: rows.length > pageSize };
}

/**
 * The cursor of the page just newer than one whose newest entry is
 * `newestId`: null when that page is the first (newest) page.
 */
export async function newerAuditCursor(filters: ResolvedFilters, newestId: number, pageSize: number): Promise<number | null> {
  if (filters === null) return null;
  const sb = await getSupabase();
  let q = sb.from("audit_logs_v2").select("id");
  for (const [column, op, value] of filters) q = q.filter(column, op, value);
  const rows = unwrap(await q.gt("id", newestId).order("id", { ascending: true }).limit(pageSize + 1));
  if (rows.length <= pageSize) return null;
  const last = rows[pageSize - 1];
  return last ? last.id + 1 : null;
}

/**
 * How many entries match, or null when counting would not be cheap (see
 * {@link countable}). Without filters the server answers from the chain
 * head (no scan); with filters it counts through the filter's index.
 */
export async function fetchAuditCount(filters: ResolvedFilters, signal?: AbortSignal): Promise<number | null> {
  if (filters === null) return 0;
  if (!countable(filters)) return null;
  const sb = await getSupabase();
  let q = sb.from("audit_logs_v2").select("id", { count: "exact", head: true });
  for (const [column, op, value] of filters) q = q.filter(column, op, value);
  if (signal) q = q.abortSignal(signal);
  const result = await q;
  unwrap(result);
  return result.count ?? 0;
}

/** An entry with its before and after values. */
export interface AuditEntryDetail {
  entry: AuditEntry;
  before: Json | null;
  after: Json | null;
}

/** One entry by id, with its before and after values; null when not visible. */
export async function fetchEntryDetail(id: number): Promise<AuditEntryDetail | null> {
  const sb = await getSupabase();
  // maybeSingle: null when the entry is not visible to the caller.
  const row = unwrap<AuditEntry | null>(await sb.from("audit_logs_v2").select(ENTRY_COLUMNS).eq("id", id).maybeSingle());
  if (!row) return null;
  return { entry: row, before: row.before_json, after: row.after_json };
}

/** An entry by id (entries never change, so it is cached for good). */
export function auditEntryQuery(id: number | null) {
  return queryOptions({
    queryKey: auditKeys.entry(id),
    queryFn: () => fetchEntryDetail(id ?? 0),
    enabled: id !== null,
    staleTime: Infinity,
  });
}

/**
 * The matching entries as CSV, newest first, as the server streams them
 * (Accept: text/csv): every match, not just the page on screen.
 */
export async function exportAuditCsv(filters: ResolvedFilters): Promise<Blob> {
  if (filters === null) {
    // An empty period: still a file, with the header only.
    return new Blob([`${EXPORT_HEADER}\r\n`], { type: "text/csv;charset=utf-8" });
  }
  const sb = await getSupabase();
  let q = sb.from("audit_logs_v2").select(EXPORT_COLUMNS);
  for (const [column, op, value] of filters) q = q.filter(column, op, value);
  const text = unwrap(await q.order("id", { ascending: false }).csv());
  return new Blob([text], { type: "text/csv;charset=utf-8" });
}

/** The checkpoint a verification compared the chain with. */
export interface VerifiedCheckpoint {
  /** When it was sealed. */
  at: string;
  /** The last entry it sealed. */
  seq: number;
  hash: string;
  /** Whether the chain still holds that entry with exactly that hash. */
  matches: boolean;
}

/** The outcome of a chain verification. */
export interface ChainVerification {
  ok: boolean;
  /** Entries read. */
  checked: number;
  firstBrokenId: number | null;
  headId: number | null;
  reason: string | null;
  verifiedAt: string;
  /** Who ran it (from the trail; null for a run made just now). */
  actorId: string | null;
  /** The last checkpoint it was compared with; null when there was none. */
  checkpoint: VerifiedCheckpoint | null;
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function str(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** Reads a verification's checkpoint ({at, seq, hash, matches}); null when absent or malformed. */
export function parseVerifiedCheckpoint(value: unknown): VerifiedCheckpoint | null {
  if (!isRecord(value)) return null;
  const at = str(value.at);
  const seq = num(value.seq);
  if (at === null || seq === null) return null;
  return { at, seq, hash: str(value.hash) ?? "", matches: value.matches === true };
}

/** How the organisation's chain is sealed, as audit_checkpoint() tells. */
export interface SealStatus {
  /** "on"; "failing" when the server could not write its last checkpoints everywhere; "off" when it does not seal. */
  sealing: "on" | "off" | "failing";
  /** The longest a grown chain waits for its checkpoint, in seconds. */
  intervalSeconds: number | null;
  /** The chain's last checkpoint; null when it was never sealed. */
  checkpoint: { at: string; seq: number; hash: string; keyId: string; signatureOk: boolean } | null;
  /** Why the server stopped sealing the chain (it no longer matches its checkpoint); null when it did not. */
  refused: string | null;
}

/** Reads audit_checkpoint()'s answer. */
export function parseSealStatus(body: unknown): SealStatus {
  if (!isRecord(body) || typeof body.sealing !== "string") {
    throw new Error("The server sent the audit trail's seal in an unexpected format.");
  }
  const sealing = body.sealing === "on" || body.sealing === "failing" ? body.sealing : "off";
  const cp = isRecord(body.checkpoint) ? body.checkpoint : null;
  const at = cp ? str(cp.at) : null;
  const seq = cp ? num(cp.seq) : null;
  return {
    sealing,
    intervalSeconds: num(body.interval_seconds),
    checkpoint:
      cp && at !== null && seq !== null ? { at, seq, hash: str(cp.hash) ?? "", keyId: str(cp.key_id) ?? "", signatureOk: cp.signature_ok === true } : null,
    refused: str(body.refused),
  };
}

/** Reads how the caller's organisation's chain is sealed. */
export async function fetchSealStatus(): Promise<SealStatus> {
  const sb = await getSupabase();
  return parseSealStatus(unwrap(await sb.rpc("audit_checkpoint")));
}

/** Reads verify_audit_chain()'s answer. */
export function parseVerification(body: unknown): ChainVerification {
  if (!isRecord(body) || typeof body.ok !== "boolean") {
    throw new Error("The server sent a verification result in an unexpected format.");
  }
  return {
    ok: body.ok,
    checked: num(body.checked) ?? 0,
    firstBrokenId: num(body.first_broken_id),
    headId: num(body.head_id),
    reason: str(body.reason),
    verifiedAt: str(body.verified_at) ?? new Date().toISOString(),
    actorId: null,
    checkpoint: parseVerifiedCheckpoint(body.checkpoint),
  };
}

/** Recomputes the organisation's chain on the server. */
export async function verifyChain(): Promise<ChainVerification> {
  const sb = await getSupabase();
  return parseVerification(unwrap(await sb.rpc("verify_audit_chain")));
}

export const VERIFIED_ACTIONS = ["audit_chain_verified", "audit_chain_verification_failed"] as const;

/**
 * The last verification recorded in the trail (every run but a demo
 * session's appends one), or null when the chain was never verified.
 */
export async function fetchLastVerification(): Promise<ChainVerification | null> {
  const sb = await getSupabase();
  // One exact-match read per action (each a single step in the action
  // index) rather than one "in" read, which SQLite serves by walking the
  // whole chain backwards when the chain was never verified.
  const results = await Promise.all(
    VERIFIED_ACTIONS.map(async (action) =>
      unwrap(await sb.from("audit_logs_v2").select("id, actor_id, action, meta, created_at").eq("action", action).order("id", { ascending: false }).limit(1)),
    ),
  );
  const row = results
    .flat()
    .sort((a, b) => b.id - a.id)
    .at(0);
  if (!row) return null;
  const meta = isRecord(row.meta) ? row.meta : {};
  return {
    ok: row.action === "audit_chain_verified",
    checked: num(meta.checked) ?? 0,
    firstBrokenId: num(meta.first_broken_id),
    headId: num(meta.head_id),
    reason: str(meta.reason),
    verifiedAt: row.created_at,
    actorId: row.actor_id,
    checkpoint: parseVerifiedCheckpoint(meta.checkpoint),
  };
}

/** An entry a client writes into the trail (the server takes the actor and organisation from the token). */
export interface AuditInsert {
  /** One of the app's own actions: each has a sentence (see sentences.ts). */
  action: ClientAuditAction;
  object_type?: string | null;
  object_id?: string | null;
  meta: Record<string, Json>;
}

/**
 * Appends an entry to the trail (audit_logs_v2). actor_id and org_id are
 * sent as the spec's client sends them; the server replaces them.
 */
export async function logAudit(userId: string, orgId: string | null, entry: AuditInsert): Promise<void> {
  const sb = await getSupabase();
  unwrap(
    await sb.from("audit_logs_v2").insert({
      actor_id: userId,
      org_id: orgId,
      action: entry.action,
      object_type: entry.object_type ?? null,
      object_id: entry.object_id ?? null,
      meta: entry.meta,
    }),
  );
}

/** Refreshes every screen that shows the trail. */
export async function invalidateAudit(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: auditKeys.all });
}

/** Reads the names of the subjects that entries' sentences name by id (see subjectRefs); rows not visible are left out. */
export async function fetchSubjects(refs: readonly SubjectRef[]): Promise<Subjects> {
  const sb = await getSupabase();
  const ids = (table: SubjectTable) => refs.filter((r) => r.table === table).map((r) => r.id);
  const named = (rows: { id: string; name: string | null }[]) => new Map(rows.filter((r) => r.name).map((r) => [r.id, r.name ?? ""] as const));
  const [assets, references, claims] = await Promise.all([
    ids("assets").length ? sb.from("assets").select("id, job_code, title").in("id", ids("assets")) : null,
    ids("references").length ? sb.from("references").select("id, title").in("id", ids("references")) : null,
    ids("claims").length ? sb.from("claims").select("id, text").in("id", ids("claims")) : null,
  ]);
  const out: Subjects = {};
  if (assets) out.assets = named(unwrap(assets).map((r) => ({ id: r.id, name: r.job_code || r.title })));
  if (references) out.references = named(unwrap(references).map((r) => ({ id: r.id, name: r.title })));
  if (claims) out.claims = named(unwrap(claims).map((r) => ({ id: r.id, name: r.text })));
  return out;
}

/**
 * The subjects these entries' sentences name by id, looked up once per
 * set of ids. Sentences read fine without them ("added version 2 to an
 * asset") while they load or when a row is gone.
 */
export function auditSubjectsQuery(refs: readonly SubjectRef[]) {
  const key = refs
    .map((r) => `${r.table}:${r.id}`)
    .sort()
    .join(",");
  return queryOptions({
    queryKey: auditKeys.subjects(key),
    enabled: refs.length > 0,
    staleTime: 60_000,
    queryFn: () => fetchSubjects(refs),
  });
}
