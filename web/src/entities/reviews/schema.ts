import { z } from "zod";
import { DECISIONS } from "@/lib/review-types";

/**
 * The review functions' input checks in the server's words (service:
 * decodeDecide, mark_change_done, withdraw_asset, set_asset_expiry), so a
 * form says before sending what the server would say after. The server
 * stays the authority; its per-field refusals land on the same fields.
 */

const characters = (s: string) => Array.from(s).length;

/** At most 50 change requests of 1 to 2000 characters each, with changes requested only. */
export const MAX_CHANGE_REQUESTS = 50;

/** The sign dialog: decision, comment, change requests, password and (with a verified authenticator) its code. */
export const signSchema = z
  .object({
    decision: z.enum(DECISIONS, { error: "Choose a decision." }),
    comment: z.string(),
    // annotation_id: "" points at nothing in particular.
    change_requests: z.array(z.object({ text: z.string(), annotation_id: z.string() })),
    password: z.string(),
    totp_code: z.string(),
    needs_code: z.boolean(),
  })
  .superRefine((v, ctx) => {
    const comment = characters(v.comment.trim());
    if (comment === 0) ctx.addIssue({ code: "custom", path: ["comment"], message: "The comment is required." });
    else if (comment > 5000) ctx.addIssue({ code: "custom", path: ["comment"], message: "The comment must be 1 to 5000 characters long." });
    if (v.decision === "changes_requested") {
      const texts = v.change_requests.map((c) => c.text.trim()).filter((t) => t !== "");
      if (texts.length === 0) ctx.addIssue({ code: "custom", path: ["change_requests"], message: "Requesting changes needs at least one change request." });
      if (texts.length > MAX_CHANGE_REQUESTS) ctx.addIssue({ code: "custom", path: ["change_requests"], message: "At most 50 change requests per decision." });
      v.change_requests.forEach((c, i) => {
        if (characters(c.text.trim()) > 2000) ctx.addIssue({ code: "custom", path: ["change_requests", i, "text"], message: "Each change request is 1 to 2000 characters long." });
      });
    }
    if (v.password === "") ctx.addIssue({ code: "custom", path: ["password"], message: "Enter your password to sign." });
    if (v.needs_code && !/^\d{6}$/.test(v.totp_code.trim())) {
      ctx.addIssue({ code: "custom", path: ["totp_code"], message: "Enter the 6-digit code of your authenticator app to sign." });
    }
  })
  .transform((v) => ({
    decision: v.decision,
    comment: v.comment.trim(),
    changeRequests:
      v.decision === "changes_requested"
        ? v.change_requests
            .map((c): ChangeRequestInput => (c.annotation_id ? { text: c.text.trim(), annotation_id: c.annotation_id } : c.text.trim()))
            .filter((c) => (typeof c === "string" ? c : c.text) !== "")
        : undefined,
    password: v.password,
    totpCode: v.needs_code ? v.totp_code.trim() : undefined,
  }));

/** A change request as decide_step takes it: its text, or its text and the annotation it points at. */
export type ChangeRequestInput = string | { text: string; annotation_id: string };

export type SignInput = z.input<typeof signSchema>;
export type SignOutput = z.output<typeof signSchema>;

/** The sign dialog's empty form. */
export function signValues(needsCode: boolean): SignInput {
  return { decision: "approved", comment: "", change_requests: [{ text: "", annotation_id: "" }], password: "", totp_code: "", needs_code: needsCode };
}

/** Marking a change done: an optional note of at most 2000 characters. */
export const doneNoteSchema = z.object({
  note: z
    .string()
    .refine((v) => characters(v.trim()) <= 2000, "The note is longer than 2000 characters.")
    .transform((v) => v.trim()),
});

/** Withdrawing an approved asset: the reason, 1 to 1000 characters. */
export const withdrawAssetSchema = z.object({
  reason: z
    .string()
    .superRefine((v, ctx) => {
      const n = characters(v.trim());
      if (n === 0) ctx.addIssue({ code: "custom", message: "The reason is required." });
      else if (n > 1000) ctx.addIssue({ code: "custom", message: "The reason must be 1 to 1000 characters long." });
    })
    .transform((v) => v.trim()),
});

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** An approved asset's expiry date, YYYY-MM-DD. */
export const expirySchema = z.object({
  expires_at: z
    .string()
    .trim()
    .refine((v) => DATE.test(v) && !Number.isNaN(Date.parse(v)), "The expiry date must be a date written YYYY-MM-DD."),
});
