import { diffWords } from "diff";

/** A run of text in a comparison: unchanged, inserted, deleted, or a gap of unchanged words left out. */
export type DiffPart =
  | { kind: "same" | "ins" | "del"; text: string }
  | { kind: "gap"; words: number };

/** The comparison of one page (or of the whole text when the versions have no pages). */
export interface PageDiff {
  /** 1-based page number, or null when the texts are compared whole. */
  page: number | null;
  parts: DiffPart[];
  /** Words inserted and deleted on this page. */
  added: number;
  removed: number;
}

/** The number of words in `text` (runs of non-space characters). */
export function countWords(text: string): number {
  const m = text.match(/\S+/g);
  return m ? m.length : 0;
}

/**
 * Word-level diff of `before` and `after` (jsdiff's diffWords: whitespace is
 * not a change), with inserted and deleted word counts.
 */
export function diffText(before: string, after: string, page: number | null = null): PageDiff {
  const parts: DiffPart[] = [];
  let added = 0;
  let removed = 0;
  if (before === after) {
    return { page, parts: before ? [{ kind: "same", text: before }] : [], added: 0, removed: 0 };
  }
  for (const change of diffWords(before, after)) {
    if (change.added) {
      added += countWords(change.value);
      parts.push({ kind: "ins", text: change.value });
    } else if (change.removed) {
      removed += countWords(change.value);
      parts.push({ kind: "del", text: change.value });
    } else {
      parts.push({ kind: "same", text: change.value });
    }
  }
  return { page, parts, added, removed };
}

/**
 * Compares two versions page by page when both have pages (PDFs keep their
 * page boundaries), else whole (authored text, images, or a written version
 * against a PDF, whose pages are then joined). A page that exists on one
 * side only is all inserted or all deleted.
 */
export function diffPages(before: string[], after: string[]): PageDiff[] {
  if (before.length <= 1 || after.length <= 1) {
    return [diffText(before.join("\n\n"), after.join("\n\n"))];
  }
  const n = Math.max(before.length, after.length);
  const pages: PageDiff[] = [];
  for (let i = 0; i < n; i++) {
    pages.push(diffText(before[i] ?? "", after[i] ?? "", i + 1));
  }
  return pages;
}

/**
 * Leaves out the middle of long unchanged runs, keeping `context` words on
 * each side of a change, for the "Changes only" view.
 */
export function collapseUnchanged(parts: DiffPart[], context = 12): DiffPart[] {
  const out: DiffPart[] = [];
  parts.forEach((part, index) => {
    if (part.kind !== "same") {
      out.push(part);
      return;
    }
    // Tokens keep their whitespace so the kept text reads as it was.
    const tokens = part.text.match(/\s*\S+\s*/g) ?? [];
    const first = index === 0;
    const last = index === parts.length - 1;
    const keepHead = first ? 0 : context;
    const keepTail = last ? 0 : context;
    if (tokens.length <= keepHead + keepTail + 2) {
      out.push(part);
      return;
    }
    if (keepHead > 0) out.push({ kind: "same", text: tokens.slice(0, keepHead).join("") });
    out.push({ kind: "gap", words: tokens.length - keepHead - keepTail });
    if (keepTail > 0) out.push({ kind: "same", text: tokens.slice(tokens.length - keepTail).join("") });
  });
  return out;
}
