import { z } from "zod";

/**
 * Form rules that mirror the data API's checks of a row (the service's
 * field checks), in the server's own words, so a form says before sending
 * exactly what the server would say after. The server stays the authority:
 * its per-field refusals are shown beside the same fields.
 */

/** Characters as the server counts them (code points, not UTF-16 units). */
function characters(s: string): number {
  return Array.from(s).length;
}

/**
 * A text of `min` to `max` characters after trimming, labelled as the
 * server labels it ("The title"): "The title is required." when a required
 * text is empty, "The title must be 1 to 200 characters long." otherwise.
 * The value is sent trimmed unless `keepSpacing` (long texts whose layout
 * matters, such as an ISI).
 */
export function textRule(label: string, min: number, max: number, { keepSpacing = false }: { keepSpacing?: boolean } = {}) {
  return z
    .string()
    .superRefine((value, ctx) => {
      const n = characters(value.trim());
      if (n === 0 && min === 1) ctx.addIssue({ code: "custom", message: `${label} is required.` });
      else if (n < min || n > max) ctx.addIssue({ code: "custom", message: `${label} must be ${min} to ${max} characters long.` });
    })
    .transform((value) => (keepSpacing ? value : value.trim()));
}

/** One of the server's values ("The status must be one of: draft, approved, retired."). */
export function oneOfRule<const T extends readonly [string, ...string[]]>(label: string, values: T) {
  return z.enum(values, { error: `${label} must be one of: ${values.join(", ")}.` });
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** An optional date, written YYYY-MM-DD as date inputs give it; empty is none (null). */
export function optionalDateRule(label: string) {
  return z
    .string()
    .trim()
    .refine((value) => value === "" || (DATE.test(value) && !Number.isNaN(Date.parse(value))), `${label} must be a date written YYYY-MM-DD.`)
    .transform((value) => (value === "" ? null : value));
}

/** An optional reference to another row, chosen in a picker; empty is none (null). */
export function optionalIdRule() {
  return z.string().transform((value) => (value === "" ? null : value));
}

/**
 * A list of at most `maxItems` texts of 1 to `maxLen` characters each
 * ("Markets may hold at most 50 entries.", "Each of markets must be 1 to
 * 20 characters long.").
 */
export function textListRule(label: string, maxItems: number, maxLen: number) {
  return z.array(z.string()).superRefine((items, ctx) => {
    if (items.length > maxItems) {
      ctx.addIssue({ code: "custom", message: `${label} may hold at most ${maxItems} entries.` });
      return;
    }
    if (items.some((item) => characters(item.trim()) === 0 || characters(item.trim()) > maxLen)) {
      ctx.addIssue({ code: "custom", message: `Each of ${label.toLowerCase()} must be 1 to ${maxLen} characters long.` });
    }
  });
}
