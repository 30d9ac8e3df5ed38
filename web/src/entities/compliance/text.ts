/**
 * Findings as the screens show them, pure so they are tested without a
 * browser: a text cut into runs at the findings' code-point offsets (the
 * try-it box's marks), findings grouped by severity, and severities'
 * names. Offsets count Unicode code points, as check_text's do, so an
 * emoji or a ® before a match does not shift it.
 */

type Level = "info" | "warning" | "critical";

const RANK: Partial<Record<string, number>> = { critical: 3, warning: 2, info: 1 };
const LABELS: Partial<Record<string, string>> = { critical: "Critical", warning: "Warning", info: "Info" };

/** "Critical", "Warning", "Info". */
export function severityLabel(severity: string): string {
  return LABELS[severity] ?? severity;
}

/** How serious, for sorting: critical 3, warning 2, info 1, anything else 0. */
export function severityRank(severity: string): number {
  return RANK[severity] ?? 0;
}

/** A run of the text: marked when findings cover it, with the most serious of them. */
export interface Segment {
  text: string;
  /** Code points. */
  start: number;
  end: number;
  /** The findings covering this run (indexes into the list given), most serious first; empty when unmarked. */
  findings: number[];
  /** The most serious severity covering it, null when unmarked. */
  severity: Level | null;
}

/**
 * Cuts `text` at every finding's start and end (code points, clamped to
 * the text; empty and reversed spans ignored) into runs, each with the
 * findings covering it — overlapping findings share the runs they overlap,
 * marked with the most serious severity.
 */
export function segmentText(text: string, findings: readonly { start: number; end: number; severity: string }[]): Segment[] {
  const points = Array.from(text);
  const n = points.length;
  const cuts = new Set<number>([0, n]);
  const spans = findings
    .map((f, i) => ({ i, start: Math.max(0, Math.min(n, f.start)), end: Math.max(0, Math.min(n, f.end)), rank: severityRank(f.severity) }))
    .filter((s) => s.end > s.start);
  for (const s of spans) {
    cuts.add(s.start);
    cuts.add(s.end);
  }
  const edges = [...cuts].sort((a, b) => a - b);
  const out: Segment[] = [];
  for (let k = 0; k + 1 < edges.length; k++) {
    const start = edges[k] ?? 0;
    const end = edges[k + 1] ?? 0;
    if (end <= start) continue;
    const covering = spans.filter((s) => s.start <= start && s.end >= end).sort((a, b) => b.rank - a.rank || a.i - b.i);
    const top = covering[0];
    out.push({
      text: points.slice(start, end).join(""),
      start,
      end,
      findings: covering.map((s) => s.i),
      severity: top ? ((findings[top.i]?.severity as Level | undefined) ?? null) : null,
    });
  }
  return out;
}

/** Findings of one severity. */
export interface SeverityGroup<T> {
  severity: Level;
  findings: T[];
}

/**
 * The open findings by severity, most serious first, each group in the
 * order given (reading order); dismissed and fixed ones apart. Every
 * severity has its group, possibly empty, so counts read "0 critical".
 */
export function groupFindings<T extends { severity: string; state: string }>(findings: readonly T[]): { open: SeverityGroup<T>[]; dismissed: T[]; fixed: T[] } {
  const open: SeverityGroup<T>[] = (["critical", "warning", "info"] as const).map((severity) => ({ severity, findings: [] }));
  const dismissed: T[] = [];
  const fixed: T[] = [];
  for (const f of findings) {
    if (f.state === "dismissed") dismissed.push(f);
    else if (f.state === "fixed") fixed.push(f);
    else open.find((g) => g.severity === f.severity)?.findings.push(f);
  }
  return { open, dismissed, fixed };
}

/** The findings counted by severity: "2 critical, 1 warning" (nothing when none). */
export function countLabel(counts: readonly SeverityGroup<unknown>[]): string {
  return counts
    .filter((g) => g.findings.length > 0)
    .map((g) => `${g.findings.length} ${g.severity === "warning" && g.findings.length > 1 ? "warnings" : g.severity}`)
    .join(", ");
}

/** Phrases typed one a line: trimmed, blank lines and repeats (ignoring case) dropped. */
export function phraseLines(value: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const line of value.split(/\r?\n/)) {
    const phrase = line.trim();
    const key = phrase.toLowerCase();
    if (phrase === "" || seen.has(key)) continue;
    seen.add(key);
    out.push(phrase);
  }
  return out;
}

/** The badge colour of a severity (components/ui/badge's variants). */
export function severityVariant(severity: string): "red" | "amber" | "blue" | "gray" {
  if (severity === "critical") return "red";
  if (severity === "warning") return "amber";
  if (severity === "info") return "blue";
  return "gray";
}

/** The marker-pen colour a severity's matches are marked with in a text (Tailwind classes). */
export function severityMarkClass(severity: string | null): string {
  if (severity === "critical") return "bg-red-200/80 dark:bg-red-800/60 underline decoration-red-600 decoration-2 underline-offset-2";
  if (severity === "warning") return "bg-amber-200/80 dark:bg-amber-700/60 underline decoration-amber-600 decoration-2 underline-offset-2";
  if (severity === "info") return "bg-sky-200/80 dark:bg-sky-800/60 underline decoration-sky-600 decoration-2 underline-offset-2";
  return "";
}

/**
 * The findings whose quote is still at their offsets in `text`: while one
 * types, the last answer's marks stay where the words did not move and go
 * where they did, until the next answer.
 */
export function stillThere<T extends { start: number; end: number; quote: string }>(text: string, findings: readonly T[]): T[] {
  const points = Array.from(text);
  return findings.filter((f) => f.end > f.start && f.end <= points.length && points.slice(f.start, f.end).join("") === f.quote);
}
