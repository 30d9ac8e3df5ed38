import type { CheckFinding, Severity } from "@/entities/compliance";
import { phraseLines } from "@/entities/compliance";

/**
 * A rule being edited, matched in the browser so the try-it box shows what
 * it would find before it is saved (check_text knows saved rules only).
 * Phrases match whole words, ignoring case, with any white space between
 * their words; a pattern is run as a JavaScript regular expression — the
 * server runs RE2, which refuses look-around and back-references, so a
 * pattern it cannot compile is refused on saving.
 */
export interface DraftRule {
  code: string;
  kind: "phrases" | "regex";
  phrases: string;
  pattern: string;
  severity: Severity;
  message: string;
  guidance: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Letters, digits and marks: what a whole-word match must not touch. */
const WORD = "[\\p{L}\\p{N}\\p{M}]";

/** The draft's regular expression, or null when it has none or it does not compile. */
export function draftPattern(rule: Pick<DraftRule, "kind" | "phrases" | "pattern">): RegExp | null {
  try {
    if (rule.kind === "phrases") {
      const phrases = phraseLines(rule.phrases);
      if (phrases.length === 0) return null;
      const alternatives = phrases
        .sort((a, b) => b.length - a.length)
        .map((p) => p.split(/\s+/).map(escape).join("\\s+"))
        .join("|");
      return new RegExp(`(?<!${WORD})(?:${alternatives})(?!${WORD})`, "giu");
    }
    let source = rule.pattern.trim();
    if (source === "") return null;
    let flags = "gu";
    // RE2's leading case-insensitive flag, which JavaScript spells as a flag.
    if (source.startsWith("(?i)")) {
      source = source.slice(4);
      flags += "i";
    }
    return new RegExp(source, flags);
  } catch {
    return null;
  }
}

/** What the draft finds in `text`, as check_text would report it (offsets in code points). */
export function draftMatches(text: string, rule: DraftRule): CheckFinding[] {
  const re = draftPattern(rule);
  if (!re || text === "") return [];
  const out: CheckFinding[] = [];
  // UTF-16 index → code points, counted forward once.
  let unit = 0;
  let point = 0;
  const toPoint = (index: number) => {
    while (unit < index) {
      const c = text.codePointAt(unit) ?? 0;
      unit += c > 0xffff ? 2 : 1;
      point++;
    }
    return point;
  };
  for (const m of text.matchAll(re)) {
    if (m[0] === "" || out.length >= 500) continue;
    const start = toPoint(m.index);
    const end = toPoint(m.index + m[0].length);
    out.push({ rule: rule.code.trim() || "draft", rule_version: 0, severity: rule.severity, start, end, quote: m[0], message: rule.message.trim(), guidance: rule.guidance.trim() });
  }
  return out;
}
