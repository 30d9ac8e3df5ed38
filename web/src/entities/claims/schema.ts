import { z } from "zod";
import { CLAIM_STATUSES } from "@/lib/content-types";
import { oneOfRule, optionalDateRule, optionalIdRule, textListRule, textRule } from "@/lib/field-rules";
import type { Claim } from "./index";

/** A claim as its form edits it (variants one per line), with the server's checks (service: checkClaim). */
export const claimSchema = z.object({
  text: textRule("The claim text", 1, 2000),
  variants: z
    .string()
    .transform((lines) =>
      lines
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean),
    )
    .pipe(textListRule("Variants", 50, 2000)),
  product_id: optionalIdRule(),
  status: oneOfRule("The status", CLAIM_STATUSES),
  expires_at: optionalDateRule("The expiry date"),
});

export type ClaimFormInput = z.input<typeof claimSchema>;

/** The form's values for `claim` (a draft for a new one). */
export function claimFormValues(claim: Claim | null): ClaimFormInput {
  return {
    text: claim?.text ?? "",
    variants: (claim?.variants ?? []).join("\n"),
    product_id: claim?.product_id ?? "",
    status: claim?.status ?? "draft",
    expires_at: claim?.expires_at ?? "",
  };
}

/**
 * A passage to link to a claim, with the server's checks (service:
 * checkClaimReference). `pageCount` is the chosen reference's number of
 * pages (0 when unknown): a page beyond it is refused as the server would.
 */
export function passageSchema(pageCount: (referenceId: string) => number) {
  return z
    .object({
      reference_id: z.string().min(1, "The reference is required."),
      page: z
        .string()
        .trim()
        .refine((value) => /^\d+$/.test(value) && Number(value) >= 1, "The page must be 1 or more.")
        .transform(Number),
      passage: textRule("The quoted passage", 1, 2000),
    })
    .superRefine((value, ctx) => {
      const count = pageCount(value.reference_id);
      if (count > 0 && value.page > count) {
        ctx.addIssue({ code: "custom", path: ["page"], message: `The reference has ${count} pages; page ${value.page} does not exist.` });
      }
    });
}

export type PassageFormInput = z.input<ReturnType<typeof passageSchema>>;
