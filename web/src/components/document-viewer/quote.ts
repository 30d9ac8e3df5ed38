import { fold, type Folded, partsOf, type PassagePart } from "./passage";

// Finding an annotation's quote (W3C TextQuoteSelector: exact, prefix,
// suffix) in text shown on screen — pdf.js's text layer of a page, or the
// text nodes of composed HTML — on the same terms as the server located it
// in the version's extracted text: case and white space aside, so pdf.js's
// line breaks and its missing spaces between lines do not matter.

/** What decides between repeats of a quote. */
export interface QuoteContext {
  /** The text just before the quote (up to 32 characters). */
  prefix?: string | undefined;
  /** The text just after it. */
  suffix?: string | undefined;
  /** Where the quote is expected, as a fraction 0..1 of the text: the tie-breaker. */
  near?: number | undefined;
}

/** How many units `a` and `b` share at their ends. */
function commonSuffix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/** How many units `a` and `b` share at their starts. */
function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

// A quote repeated more often than this is decided among its first ones.
const MAX_REPEATS = 1000;

/**
 * The folded position of `quote` in `hay` (from {@link fold}), or -1: its
 * only occurrence, else the one whose surroundings best match the prefix
 * and suffix, else the one nearest `near`.
 */
export function quoteIndex(hay: Folded, quote: string, context: QuoteContext = {}): { at: number; length: number } | null {
  const needle = fold([quote]).text;
  if (!needle) return null;
  const hits: number[] = [];
  for (let at = hay.text.indexOf(needle); at >= 0 && hits.length < MAX_REPEATS; at = hay.text.indexOf(needle, at + 1)) hits.push(at);
  const [first] = hits;
  if (first === undefined) return null;
  if (hits.length === 1) return { at: first, length: needle.length };
  const prefix = fold([context.prefix ?? ""]).text;
  const suffix = fold([context.suffix ?? ""]).text;
  const near = context.near ?? 0;
  let best = first;
  let bestScore = -1;
  let bestDistance = Infinity;
  for (const at of hits) {
    const before = hay.text.slice(Math.max(0, at - prefix.length), at);
    const after = hay.text.slice(at + needle.length, at + needle.length + suffix.length);
    const score = commonSuffix(before, prefix) + commonPrefix(after, suffix);
    const distance = Math.abs(at / Math.max(1, hay.text.length) - near);
    if (score > bestScore || (score === bestScore && distance < bestDistance)) {
      best = at;
      bestScore = score;
      bestDistance = distance;
    }
  }
  return { at: best, length: needle.length };
}

/**
 * Where `quote` is in text items (each a span of a text layer, or a text
 * node): the part of each item it covers, in order; none when it is not
 * there. Fold the items once with {@link fold} and locate many quotes.
 */
export function locateQuote(hay: Folded, quote: string, context: QuoteContext = {}): PassagePart[] {
  const found = quoteIndex(hay, quote, context);
  return found ? partsOf(hay, found.at, found.length) : [];
}

/** The number of code points in the first `units` UTF-16 units of `s`. */
function codePoints(s: string, units: number): number {
  let n = 0;
  for (let i = 0; i < units && i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A high surrogate and its low half are one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) i++;
    n++;
  }
  return n;
}

/**
 * Where `quote` is in one text (a version's page text or plain text), as
 * code point offsets [start, end) — the position selector the server
 * keeps — or null. Used as the hint sent with a new annotation.
 */
export function quoteOffsets(text: string, quote: string, context: QuoteContext = {}): { start: number; end: number } | null {
  const parts = locateQuote(fold([text]), quote, context);
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (!first || !last) return null;
  return { start: codePoints(text, first.start), end: codePoints(text, last.end) };
}
