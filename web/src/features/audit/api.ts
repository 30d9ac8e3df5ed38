import { isRecord } from "@/lib/api";
import { unwrap } from "@/lib/data";
import type { Database, Json } from "@/lib/database.types";
import { getSupabase } from "@/lib/supabase";
import { actionFilter, type AuditFilters, KNOWN_ACTIONS, PAGE_SIZE, periodBounds } from "./filters";

/** One entry of the trail as audit_logs_v2 returns it. */
export type AuditEntry = Database["public"]["Tables"]["audit_logs_v2"]["Row"];

/** A member of the caller's organisation, for actor names and the actor filter. */
export type AuditMember = Pick<Database["public"]["Tables"]["members"]["Row"], "id" | "email" | "full_name" | "role" | "deactivated_at">;

/** The columns the CSV export holds, in its order. */
export const EXPORT_COLUMNS = "id, created_at, actor_id, actor_email, action, object_type, object_id, org_id, meta, hash";

/** The columns the table and the detail read (everything audit_logs_v2 has). */
export const ENTRY_COLUMNS = `${EXPORT_COLUMNS}, client_reported` as const;

/** One PostgREST filter: column, operator, value. */
export type QueryFilter = readonly [column: string, operator: string, value: string];

/**
 * The PostgREST filters of a view, the period excepted (see
 * {@link resolveFilters}). Each maps to an index of the trail that ends in
 * its id, so with `id=lt.<cursor>`, `order=id.desc` and a limit a page is a
 * short index range read however long the chain is — the action substring
 * match excepted, which reads the chain newest first until the page is full.
 */
export function queryFilters(filters: AuditFilters, knownActions: Iterable<string> = KNOWN_ACTIONS): QueryFilter[] {
  const out: QueryFilter[] = [];
  if (filters.actor) out.push(["actor_id", "eq", filters.actor]);
  const action = actionFilter(filters.action, knownActions);
  if (action) out.push(["action", action.op, action.value]);
  if (filters.type) out.push(["object_type", "eq", filters.type]);
  return out;
}

/**
 * Whether counting a view's matches is cheap: every filter but a substring
 * match of the action is served by an index (measured at 100 000 entries:
 * under 0.15 s; a substring count reads the whole chain).
 */
export function countable(filters: QueryFilter[]): boolean {
  return !filters.some(([, op]) => op === "ilike");
}

/** The filters of a view ready to send, or null when its period holds no entry. */
export type ResolvedFilters = QueryFilter[] | null;

/**
 * The filters of a view with its period turned into a range of ids. Along
 * a chain created_at never decreases (the server refuses an entry older
 * than the chain head), so "created_at >= since" is "id >= the first id at
 * or after since", found with one lookup in the (org, created_at, id)
 * index. Sending the id range instead of the created_at condition keeps
 * every page a short read of the id-ordered indexes: with created_at in the
 * query SQLite reads the whole period through the time index and sorts it
 * (1.4 s for "last 24 hours" at 100 000 entries, against 5 ms).
 */
export async function resolveFilters(filters: AuditFilters, now: Date = new Date()): Promise<ResolvedFilters> {
  const out = queryFilters(filters);
  const { since, until } = periodBounds(filters, now);
  if (!since && !until) return out;
  const sb = await getSupabase();
  const lookup = async (op: "gte" | "lt", at: string, ascending: boolean) => {
    const rows = unwrap(
      await sb.from("audit_logs_v2").select("id").filter("created_at", op, at).order("created_at", { ascending }).order("id", { ascending }).limit(1),
    );
    return rows[0]?.id ?? null;
  };
  const [first, last] = await Promise.all([since ? lookup("gte", since, true) : null, until ? lookup("lt", until, false) : null]);
  if ((since && first === null) || (until && last === null)) return null;
  if (first !== null) out.push(["id", "gte", String(first)]);
  if (last !== null) out.push(["id", "lte", String(last)]);
  return out;
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
export async function fetchPage(filters: ResolvedFilters, before: number | null, signal?: AbortSignal): Promise<AuditPage> {
  if (filters === null) return { entries: [], hasOlder: false };
  const sb = await getSupabase();
  let q = sb.from("audit_logs_v2").select(ENTRY_COLUMNS);
  for (const [column, op, value] of filters) q = q.filter(column, op, value);
  if (before !== null) q = q.lt("id", before);
  q = q.order("id", { ascending: false }).limit(PAGE_SIZE + 1);
  if (signal) q = q.abortSignal(signal);
  const rows = unwrap(await q);
  return { entries: rows.slice(0, PAGE_SIZE), hasOlder: rows.length > PAGE_SIZE };
}

/**
 * The cursor of the page just newer than one whose newest entry is
 * `newestId`: null when that page is the first (newest) page.
 */
export async function newerCursor(filters: ResolvedFilters, newestId: number): Promise<number | null> {
  if (filters === null) return null;
  const sb = await getSupabase();
  let q = sb.from("audit_logs_v2").select("id");
  for (const [column, op, value] of filters) q = q.filter(column, op, value);
  const rows = unwrap(await q.gt("id", newestId).order("id", { ascending: true }).limit(PAGE_SIZE + 1));
  if (rows.length <= PAGE_SIZE) return null;
  const last = rows[PAGE_SIZE - 1];
  return last ? last.id + 1 : null;
}

/**
 * How many entries match, or null when counting would not be cheap (see
 * {@link countable}). Without filters the server answers from the chain
 * head (no scan); with filters it counts through the filter's index.
 */
export async function fetchCount(filters: ResolvedFilters, signal?: AbortSignal): Promise<number | null> {
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

/** The members of the caller's organisation, by name. */
export async function fetchMembers(): Promise<AuditMember[]> {
  const sb = await getSupabase();
  return unwrap(await sb.from("members").select("id, email, full_name, role, deactivated_at").order("full_name"));
}

/** An entry with the before/after rows the older audit_logs shape exposes. */
export interface AuditEntryDetail {
  entry: AuditEntry;
  before: Json | null;
  after: Json | null;
}

/** One entry by id, with its before and after values; null when not visible. */
export async function fetchEntryDetail(id: number): Promise<AuditEntryDetail | null> {
  const sb = await getSupabase();
  const [entry, change] = await Promise.all([
    sb.from("audit_logs_v2").select(ENTRY_COLUMNS).eq("id", id).maybeSingle(),
    sb.from("audit_logs").select("before_json, after_json").eq("id", id).maybeSingle(),
  ]);
  // maybeSingle: null when the entry is not visible to the caller.
  const row = unwrap<AuditEntry | null>(entry);
  if (!row) return null;
  const values = unwrap<{ before_json: Json | null; after_json: Json | null } | null>(change);
  return { entry: row, before: values?.before_json ?? null, after: values?.after_json ?? null };
}

/**
 * The matching entries as CSV, newest first, as the server streams them
 * (Accept: text/csv): every match, not just the page on screen.
 */
export async function exportCsv(filters: ResolvedFilters): Promise<Blob> {
  const sb = await getSupabase();
  if (filters === null) {
    // An empty period: still a file, with the header only.
    return new Blob([`${EXPORT_COLUMNS.replaceAll(" ", "")}\r\n`], { type: "text/csv;charset=utf-8" });
  }
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
