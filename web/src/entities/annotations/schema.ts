import { z } from "zod";
import { ANNOTATION_CATEGORIES } from "@/lib/annotation-types";

/**
 * The annotation functions' input checks in the server's words
 * (service/annotations.go), so a form says before sending what the server
 * would say after; the server stays the authority and its per-field
 * refusals land on the same fields.
 */

const characters = (s: string) => Array.from(s).length;

/** An annotation's or a reply's text: 1 to 5000 characters. */
export const MAX_ANNOTATION_BODY = 5000;
/** A claim's quoted passage in its reference: at most 2000 characters. */
export const MAX_REFERENCE_QUOTE = 2000;

/** The annotate dialog: category, comment, and for a claim the reference, page and passage that substantiate it. */
export const annotateSchema = z
  .object({
    category: z.enum(ANNOTATION_CATEGORIES, { error: "Choose a category." }),
    body: z.string(),
    reference_id: z.string(),
    reference_page: z.string(),
    reference_quote: z.string(),
  })
  .superRefine((v, ctx) => {
    const body = characters(v.body.trim());
    if (body === 0) ctx.addIssue({ code: "custom", path: ["body"], message: "The comment is required." });
    else if (body > MAX_ANNOTATION_BODY) ctx.addIssue({ code: "custom", path: ["body"], message: "The comment must be 1 to 5000 characters long." });
    if (v.category !== "claim_needs_reference") return;
    const page = v.reference_page.trim();
    if (page !== "" && !/^\d{1,6}$/.test(page)) ctx.addIssue({ code: "custom", path: ["reference_page"], message: "The reference page is a whole number." });
    else if (page !== "" && Number(page) < 1) ctx.addIssue({ code: "custom", path: ["reference_page"], message: "Pages are numbered from 1." });
    if (characters(v.reference_quote.trim()) > MAX_REFERENCE_QUOTE) {
      ctx.addIssue({ code: "custom", path: ["reference_quote"], message: "The passage is longer than 2000 characters." });
    }
    if (v.reference_id === "" && (page !== "" || v.reference_quote.trim() !== "")) {
      ctx.addIssue({ code: "custom", path: ["reference_id"], message: "A page or passage needs the reference it is in." });
    }
  })
  .transform((v) => {
    const claim = v.category === "claim_needs_reference" && v.reference_id !== "";
    const page = v.reference_page.trim();
    return {
      category: v.category,
      body: v.body.trim(),
      reference: claim
        ? { id: v.reference_id, page: page === "" ? undefined : Number(page), quote: v.reference_quote.trim() || undefined }
        : undefined,
    };
  });

export type AnnotateInput = z.input<typeof annotateSchema>;
export type AnnotateOutput = z.output<typeof annotateSchema>;

// The category a reviewer most often means, by their role.
const CATEGORY_BY_ROLE: Record<string, AnnotateInput["category"]> = {
  reviewer_medical: "claim_needs_reference",
  reviewer_legal: "legal",
  reviewer_regulatory: "regulatory",
};

/** The annotate dialog's empty form, its category the one `role` most often means. */
export function annotateValues(role?: string | null): AnnotateInput {
  return { category: CATEGORY_BY_ROLE[role ?? ""] ?? "editorial", body: "", reference_id: "", reference_page: "", reference_quote: "" };
}

/** A reply: 1 to 5000 characters. */
export const replySchema = z.object({
  body: z
    .string()
    .superRefine((v, ctx) => {
      const n = characters(v.trim());
      if (n === 0) ctx.addIssue({ code: "custom", message: "Write a reply first." });
      else if (n > MAX_ANNOTATION_BODY) ctx.addIssue({ code: "custom", message: "The reply must be 1 to 5000 characters long." });
    })
    .transform((v) => v.trim()),
});

export type ReplyInput = z.input<typeof replySchema>;
