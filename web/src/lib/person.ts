// How a person's name is shown in short: the initials of their avatar and
// the name a greeting uses. Every screen derives both from the same two
// fields — the member's full name and e-mail address — through these
// functions, so one person never has two sets of initials.

/**
 * Titles and honorifics written before a name ("Dr. Mei Medical") and
 * post-nominals written after it ("Mei Medical, MD"): part of how a name is
 * written, never a name to greet or abbreviate. Compared lower-case,
 * without dots.
 */
const TITLES = new Set([
  "dr",
  "doctor",
  "prof",
  "professor",
  "mr",
  "mrs",
  "ms",
  "miss",
  "mx",
  "sir",
  "dame",
  "rev",
  "revd",
  "md",
  "phd",
  "pharmd",
  "rph",
  "mba",
  "jr",
  "sr",
  "ii",
  "iii",
  "esq",
]);

function isTitle(word: string): boolean {
  return TITLES.has(word.toLowerCase().replace(/\./g, ""));
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The letters of a word as people see them (an accent or emoji stays whole). */
function graphemes(word: string): string[] {
  return Array.from(segmenter.segment(word), (s) => s.segment);
}

/** An e-mail address's local part ("grace.hopper" of "grace.hopper@example.com"). */
function localPart(email: string | null | undefined): string {
  return (email ?? "").trim().split("@")[0] ?? "";
}

/**
 * The words of a full name that are the name itself: titles, honorifics
 * and post-nominals dropped, punctuation around words removed. A "name"
 * that is an e-mail address (some screens fall back to one) yields the
 * words of its local part.
 */
export function nameWords(fullName: string | null | undefined): string[] {
  let text = (fullName ?? "").trim();
  if (text.includes("@")) text = localPart(text).replace(/[._-]+/g, " ");
  return text
    .split(/[\s,]+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((w) => w !== "" && !isTitle(w));
}

/**
 * Up to two initials: of the first two words of the full name ("Ada
 * Lovelace" → "AL", "Dr. Mei Medical" → "MM"), else the first two letters
 * of a one-word name ("Cher" → "CH"); without a name, the same of the
 * e-mail's local part ("grace.hopper@…" → "GH", "admin@…" → "AD"). "?"
 * when there is nothing to go by.
 */
export function initials(fullName: string | null | undefined, email?: string | null): string {
  let words = nameWords(fullName);
  if (words.length === 0) words = localPart(email).split(/[\s._-]+/).filter(Boolean);
  const letters = words.length >= 2 ? [graphemes(words[0] ?? "")[0], graphemes(words[1] ?? "")[0]] : graphemes(words[0] ?? "").slice(0, 2);
  return letters.join("").toUpperCase() || "?";
}

/**
 * The name to greet someone by: the first word of their full name that is
 * not a title ("Dr. Mei Medical" → "Mei"), else their e-mail's local part;
 * "" when there is neither. Never a title alone.
 */
export function greetingName(fullName: string | null | undefined, email: string | null | undefined): string {
  return nameWords(fullName)[0] ?? localPart(email);
}

/** "Good morning" before noon, "Good afternoon" until 18:00, then "Good evening". */
export function greeting(now: Date = new Date()): string {
  const h = now.getHours();
  if (h < 12) return "Good morning";
  if (h < 18) return "Good afternoon";
  return "Good evening";
}
