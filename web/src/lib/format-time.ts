/**
 * Timestamps as screens show them: local time for reading ("22 Nov 2026",
 * "5 minutes ago"), UTC for the record (audit entries and signatures are
 * kept in UTC).
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type TimeValue = string | number | Date;

// Building an Intl formatter is costly (tens of milliseconds for the first
// one on a slow machine) and toLocaleString with options builds one on
// every call: screens that list many dates share one per format instead.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ""}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, f);
  }
  return f;
}

const relativeFormatters = new Map<string, Intl.RelativeTimeFormat>();

function relativeFormatter(locale: string | undefined): Intl.RelativeTimeFormat {
  const key = locale ?? "";
  let f = relativeFormatters.get(key);
  if (!f) {
    f = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
    relativeFormatters.set(key, f);
  }
  return f;
}

const DATE: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric" };
const DATE_TIME: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" };
const DATE_TIME_SECONDS: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
};

function parse(value: TimeValue | null | undefined): Date | null {
  if (value === null || value === undefined || value === "") return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** "22 Nov 2026" (in the browser's locale); `fallback` for a missing or invalid value. */
export function formatDate(value: TimeValue | null | undefined, fallback = "—"): string {
  const d = parse(value);
  return d ? formatter(undefined, DATE).format(d) : fallback;
}

/** "22 Nov 2026, 14:05" (in the browser's locale and time zone); `fallback` for a missing or invalid value. */
export function formatDateTime(value: TimeValue | null | undefined, fallback = "—"): string {
  const d = parse(value);
  return d ? formatter(undefined, DATE_TIME).format(d) : fallback;
}

/**
 * How long ago (or how far ahead) `value` is from `now`: "just now" under a
 * minute, then minutes, hours and days ("yesterday", "in 3 days"); beyond
 * 30 days the date itself. `fallback` for a missing or invalid value.
 */
export function formatRelativeTime(value: TimeValue | null | undefined, now: number = Date.now(), fallback = "—"): string {
  const d = parse(value);
  if (!d) return fallback;
  const diff = d.getTime() - now;
  const abs = Math.abs(diff);
  if (abs < MINUTE) return "just now";
  if (abs > 30 * DAY) return formatDate(d, fallback);
  const rtf = relativeFormatter("en");
  if (abs < HOUR) return rtf.format(Math.round(diff / MINUTE), "minute");
  if (abs < DAY) return rtf.format(Math.round(diff / HOUR), "hour");
  return rtf.format(Math.round(diff / DAY), "day");
}

/** Local date and time with seconds, e.g. "22 Nov 2026, 14:06:07" (in the browser's locale); invalid input as given. */
export function formatLocalDateTime(value: TimeValue, locale?: string): string {
  const d = parse(value);
  if (!d) return String(value);
  return formatter(locale, DATE_TIME_SECONDS).format(d);
}

/** UTC as "2026-11-22 12:06:07 UTC"; invalid input as given. */
export function formatUtc(value: TimeValue): string {
  const d = parse(value);
  if (!d) return String(value);
  return `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago", or the local date beyond a week; invalid input as given. */
export function formatRelative(value: TimeValue, now: Date = new Date(), locale?: string): string {
  const d = parse(value);
  if (!d) return String(value);
  const seconds = Math.round((now.getTime() - d.getTime()) / 1000);
  if (seconds < 45) return "just now";
  const rtf = relativeFormatter(locale);
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return rtf.format(-minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (hours < 24) return rtf.format(-hours, "hour");
  const days = Math.round(hours / 24);
  if (days <= 7) return rtf.format(-days, "day");
  return formatter(locale, DATE).format(d);
}

const TIME_SECONDS: Intl.DateTimeFormatOptions = { hour: "2-digit", minute: "2-digit", second: "2-digit" };

/** The local date and the local time of a timestamp, for a two-line table cell; invalid input as given. */
export function localDateAndTime(value: TimeValue, locale?: string): { date: string; time: string } {
  const d = parse(value);
  if (!d) return { date: String(value), time: "" };
  return { date: formatter(locale, DATE).format(d), time: formatter(locale, TIME_SECONDS).format(d) };
}
