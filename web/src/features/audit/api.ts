import {
  entryIdAt,
  exportAuditCsv,
  fetchAuditCount,
  fetchAuditPage,
  newerAuditCursor,
  type QueryFilter,
  type ResolvedFilters,
} from "@/entities/audit";
import type { Member } from "@/entities/members";
import { actionFilter, type AuditFilters, KNOWN_ACTIONS, PAGE_SIZE, periodBounds } from "./filters";

// The Audit Log's view of the trail: its filters as PostgREST filters, and
// the trail's fetchers (entities/audit) with the page size of this screen.
// What the screen's files use of the entity is re-exported here, so they
// keep one import.

export {
  countable,
  type AuditEntry,
  type ChainVerification,
  ENTRY_COLUMNS,
  EXPORT_COLUMNS,
  fetchLastVerification,
  fetchSealStatus,
  parseSealStatus,
  parseVerification,
  parseVerifiedCheckpoint,
  type SealStatus,
  type VerifiedCheckpoint,
  verifyChain,
} from "@/entities/audit";
export type { QueryFilter, ResolvedFilters };

/** A member of the caller's organisation, for actor names and the actor filter. */
export type AuditMember = Pick<Member, "id" | "email" | "full_name" | "role" | "deactivated_at">;

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
  const [first, last] = await Promise.all([since ? entryIdAt("gte", since) : null, until ? entryIdAt("lt", until) : null]);
  if ((since && first === null) || (until && last === null)) return null;
  if (first !== null) out.push(["id", "gte", String(first)]);
  if (last !== null) out.push(["id", "lte", String(last)]);
  return out;
}

/** One page of entries before `before` (all when null), newest first. */
export function fetchPage(filters: ResolvedFilters, before: number | null, signal?: AbortSignal) {
  return fetchAuditPage(filters, before, PAGE_SIZE, signal);
}

/** The cursor of the page just newer than one whose newest entry is `newestId`. */
export function newerCursor(filters: ResolvedFilters, newestId: number) {
  return newerAuditCursor(filters, newestId, PAGE_SIZE);
}

export { exportAuditCsv as exportCsv, fetchAuditCount as fetchCount };
