import { quoteOffsets } from "@/components/document-viewer/quote";
import type { TextTarget } from "@/entities/annotations";

/**
 * The target of a selected quote on page `page` (from 1): the quote and its
 * context, and — when the version's page texts are known — its offsets in
 * the version's plain text as a hint for the server (`starts`: where each
 * page starts, in code points; `near`: how far down the page it was, 0..1).
 */
export function textTarget(
  quote: { exact: string; prefix: string; suffix: string },
  page: number,
  pageTexts: readonly string[] | null,
  starts: readonly number[],
  near?: number,
): TextTarget {
  const target: TextTarget = { type: "text", exact: quote.exact, prefix: quote.prefix, suffix: quote.suffix };
  const text = pageTexts?.[page - 1];
  const base = starts[page - 1];
  if (text === undefined || base === undefined) return target;
  const at = quoteOffsets(text, quote.exact, { prefix: quote.prefix, suffix: quote.suffix, near });
  if (at) {
    target.start = base + at.start;
    target.end = base + at.end;
  }
  return target;
}
