/**
 * Before/after comparison of an audit entry. Data API writes record the
 * affected rows as arrays; the workflow functions record single objects.
 */

/** One field of a before/after comparison. */
export interface DiffRow {
  key: string;
  before: unknown;
  after: unknown;
  /** Present on one side only. */
  added: boolean;
  removed: boolean;
  changed: boolean;
}

/** A one-row array (a data API write of one row) is compared as that row. */
export function unwrapSingle(value: unknown): unknown {
  return Array.isArray(value) && value.length === 1 ? (value[0] as unknown) : value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Structural equality of JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}

/**
 * The fields of `before` and `after` side by side, in the order they first
 * appear (before's keys, then keys only after has). When either side is not
 * an object (several rows, a scalar), the comparison is one row named "value".
 * Returns [] when both are null.
 */
export function diffRows(beforeRaw: unknown, afterRaw: unknown): DiffRow[] {
  const before = unwrapSingle(beforeRaw ?? null);
  const after = unwrapSingle(afterRaw ?? null);
  if (before === null && after === null) return [];
  const row = (key: string, b: unknown, a: unknown, hasB: boolean, hasA: boolean): DiffRow => ({
    key,
    before: b,
    after: a,
    added: !hasB && hasA,
    removed: hasB && !hasA,
    changed: !hasB || !hasA || !jsonEqual(b, a),
  });
  const objB = isPlainObject(before) ? before : before === null ? {} : null;
  const objA = isPlainObject(after) ? after : after === null ? {} : null;
  if (!objB || !objA) return [row("value", before, after, before !== null, after !== null)];
  const keys = [...Object.keys(objB), ...Object.keys(objA).filter((k) => !(k in objB))];
  return keys.map((k) => row(k, objB[k], objA[k], k in objB, k in objA));
}

/** A JSON value as compact text for a comparison cell. */
export function cellText(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}
