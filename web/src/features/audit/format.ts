/**
 * Timestamps as the Audit Log shows them: local time for reading, UTC for
 * the record (entries are kept in UTC). Invalid input is returned as given
 * rather than throwing.
 */

function parse(value: string | number | Date): Date | null {
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Local date and time with seconds, e.g. "22 Nov 2026, 14:06:07" (in the browser's locale). */
export function formatLocalDateTime(value: string | number | Date, locale?: string): string {
  const d = parse(value);
  if (!d) return String(value);
  return d.toLocaleString(locale, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/** UTC as "2026-11-22 12:06:07 UTC". */
export function formatUtc(value: string | number | Date): string {
  const d = parse(value);
  if (!d) return String(value);
  return `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago", or the local date beyond a week. */
export function formatRelative(value: string | number | Date, now: Date = new Date(), locale?: string): string {
  const d = parse(value);
  if (!d) return String(value);
  const seconds = Math.round((now.getTime() - d.getTime()) / 1000);
  if (seconds < 45) return "just now";
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return rtf.format(-minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (hours < 24) return rtf.format(-hours, "hour");
  const days = Math.round(hours / 24);
  if (days <= 7) return rtf.format(-days, "day");
  return d.toLocaleDateString(locale, { year: "numeric", month: "short", day: "numeric" });
}

/** The local date and the local time of a timestamp, for a two-line table cell. */
export function localDateAndTime(value: string | number | Date, locale?: string): { date: string; time: string } {
  const d = parse(value);
  if (!d) return { date: String(value), time: "" };
  return {
    date: d.toLocaleDateString(locale, { year: "numeric", month: "short", day: "numeric" }),
    time: d.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit", second: "2-digit" }),
  };
}
