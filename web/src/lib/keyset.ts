/**
 * Keyset ("seek") pagination over PostgREST: each page continues after the
 * last row of the previous one by comparing (sort column, id), never with
 * an offset, so pages stay fast and stable while rows are added.
 */

/** How a list is ordered; `id` always breaks ties in the same direction. */
export interface SortSpec {
  column: string;
  ascending: boolean;
  /** The column may be null; nulls sort last. */
  nullable?: boolean;
}

/** Where the previous page ended. */
export interface Cursor {
  value: string | null;
  id: string;
}

/**
 * Quotes a value for a PostgREST logic tree (`or=(…)`), where commas,
 * parentheses, dots and colons would otherwise be read as syntax.
 */
export function quoteValue(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/**
 * The `or` filter (without the outer parentheses, as supabase-js `.or()`
 * takes it) selecting the rows after `cursor` in `sort` order.
 */
export function keysetFilter(sort: SortSpec, cursor: Cursor): string {
  const op = sort.ascending ? "gt" : "lt";
  const id = quoteValue(cursor.id);
  const col = sort.column;
  if (cursor.value === null) {
    // Past the non-null values already: only later nulls remain.
    return `and(${col}.is.null,id.${op}.${id})`;
  }
  const value = quoteValue(cursor.value);
  const parts = [`${col}.${op}.${value}`, `and(${col}.eq.${value},id.${op}.${id})`];
  if (sort.nullable) parts.push(`${col}.is.null`);
  return parts.join(",");
}

/** The cursor after `row`, or null when it lacks an id. */
export function cursorOf(sort: SortSpec, row: object): Cursor | null {
  const record = row as Record<string, unknown>;
  const id = record.id;
  if (typeof id !== "string") return null;
  const raw = record[sort.column];
  if (raw === null || raw === undefined) return { id, value: null };
  return { id, value: typeof raw === "string" ? raw : JSON.stringify(raw) };
}

/** Rows per page of the content lists. */
export const PAGE_SIZE = 25;

/** The cursor continuing after the last row of `page`, or undefined when it was the last page. */
export function nextCursor(sort: SortSpec, page: readonly object[], size: number = PAGE_SIZE): Cursor | undefined {
  if (page.length < size) return undefined;
  const last = page.at(-1);
  return last ? (cursorOf(sort, last) ?? undefined) : undefined;
}

/** The part of a PostgREST query builder that paging needs. */
export interface PageableQuery<Q> {
  or(filters: string): Q;
  order(column: string, options: { ascending: boolean; nullsFirst?: boolean }): Q;
  limit(count: number): Q;
  abortSignal(signal: AbortSignal): Q;
}

/**
 * One page of `query` after `cursor` in `sort` order: the keyset filter,
 * the sort with `id` breaking ties, and the page size.
 */
export function pageAfter<Q extends PageableQuery<Q>>(query: Q, sort: SortSpec, cursor: Cursor | null, signal?: AbortSignal, size: number = PAGE_SIZE): Q {
  let q = query;
  if (cursor) q = q.or(keysetFilter(sort, cursor));
  q = q.order(sort.column, { ascending: sort.ascending, nullsFirst: false }).order("id", { ascending: sort.ascending }).limit(size);
  if (signal) q = q.abortSignal(signal);
  return q;
}
