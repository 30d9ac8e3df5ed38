import type { Annotation, AnnotationTarget } from "@/entities/annotations";
import { isReviewerRole } from "@/lib/review-types";
import type { Viewer } from "./review-rules";

/**
 * The threads of a version as the page shows them: their reading order and
 * numbers, where each is (its page), how it is named in a list ("#3 “…”"),
 * and who may do what with it. Pure, so it is tested without a browser.
 */

/**
 * Where each page starts in the version's plain text, in code points
 * (pages joined by form feeds: page i + 1 starts one past page i's end).
 * An authored version is one page.
 */
export function pageStarts(pageTexts: readonly string[]): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const text of pageTexts) {
    starts.push(at);
    at += Array.from(text).length + 1;
  }
  return starts;
}

/** The page (from 1) holding the code point at `offset`, given {@link pageStarts}. */
export function pageOfOffset(starts: readonly number[], offset: number): number {
  // The last page starting at or before the offset (binary search: 100-page versions, 200 threads).
  let lo = 0;
  let hi = starts.length - 1;
  let page = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((starts[mid] ?? 0) <= offset) {
      page = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return page + 1;
}

/** Where a thread is, for ordering and scrolling: a page and a position 0..1 down it; null when it has no place. */
export interface Place {
  page: number;
  /** A region's top; for a quote, how far into its page's text it starts. */
  y: number;
}

/**
 * Where `target` is on a version whose pages start at `starts` (code
 * points) and are `lengths` long: a region's page and top, a quote's page
 * and how far into it. A quote without offsets has no place.
 */
export function placeOf(target: AnnotationTarget, starts: readonly number[], lengths: readonly number[]): Place | null {
  if (target.type === "region") return { page: target.page, y: target.y };
  if (target.start === undefined) return null;
  if (starts.length === 0) return { page: 1, y: 0 };
  const page = pageOfOffset(starts, target.start);
  const length = lengths[page - 1] ?? 0;
  const into = target.start - (starts[page - 1] ?? 0);
  return { page, y: length > 0 ? Math.min(1, Math.max(0, into / length)) : 0 };
}

/**
 * The threads in reading order: by page, then down the page (a quote by
 * how far into its page's text it starts, a region by its top), those
 * without a place (an orphan that lost its offsets) last, each group in
 * the order given (the server's).
 */
export function readingOrder<T extends Pick<Annotation, "target">>(annotations: readonly T[], place: (a: T) => Place | null): T[] {
  return annotations
    .map((a, i) => ({ a, i, at: place(a) }))
    .sort((p, q) => {
      if (p.at && q.at) return p.at.page - q.at.page || p.at.y - q.at.y || p.i - q.i;
      if (p.at) return -1;
      if (q.at) return 1;
      return p.i - q.i;
    })
    .map((x) => x.a);
}

/** Each thread's number on its version (1, 2, …), in the order given. */
export function threadNumbers(annotations: readonly Pick<Annotation, "thread_id">[]): Map<string, number> {
  return new Map(annotations.map((a, i) => [a.thread_id, i + 1]));
}

/** `text` cut to `max` characters at a word where it can be, with an ellipsis. */
export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = Array.from(flat);
  if (chars.length <= max) return flat;
  const cut = chars.slice(0, max - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** What a thread points at, in words: “the quote…”, or "Area on page 2" ("Area of the image" on a one-page image). */
export function targetLabel(target: AnnotationTarget, options: { max?: number; image?: boolean } = {}): string {
  if (target.type === "region") return options.image ? "Area of the image" : `Area on page ${target.page}`;
  return `“${shorten(target.exact, options.max ?? 60)}”`;
}

/** A thread as a list of annotations names it: "#3 “Zentria relieves…”". */
export function threadLabel(number: number | undefined, target: AnnotationTarget, options: { max?: number; image?: boolean } = {}): string {
  return `${number === undefined ? "" : `#${number} `}${targetLabel(target, options)}`;
}

/**
 * Whether the viewer annotates and replies: every member but viewers, and
 * nobody in the read-only demo (product design, section 2).
 */
export function canAnnotate(viewer: Viewer): boolean {
  return !viewer.readOnly && viewer.userId !== null && Boolean(viewer.role) && viewer.role !== "viewer";
}

/** Whether the viewer resolves or reopens `annotation`: its thread's author, or a reviewer. */
export function canResolve(viewer: Viewer, annotation: Pick<Annotation, "created_by">): boolean {
  return canAnnotate(viewer) && (annotation.created_by === viewer.userId || isReviewerRole(viewer.role));
}

/** Which threads the panel lists. */
export type ThreadFilter = "open" | "resolved" | "all";

/** The threads `filter` lists. */
export function filterThreads<T extends Pick<Annotation, "state">>(annotations: readonly T[], filter: ThreadFilter): T[] {
  return filter === "all" ? [...annotations] : annotations.filter((a) => a.state === filter);
}
