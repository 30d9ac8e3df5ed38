import { z } from "zod";
import { REFERENCE_KINDS, REFERENCE_STATUSES } from "@/lib/content-types";
import { oneOfRule, textRule } from "@/lib/field-rules";
import type { Reference } from "./index";

/** A reference's details as its form edits them, with the server's checks (service: checkReference). */
export const referenceFieldRules = {
  title: textRule("The title", 1, 300),
  citation: textRule("The citation", 0, 2000),
  kind: oneOfRule("The kind", REFERENCE_KINDS),
  status: oneOfRule("The status", REFERENCE_STATUSES),
};

export const referenceSchema = z.object(referenceFieldRules);

export type ReferenceFormInput = z.input<typeof referenceSchema>;

/** The form's values for `reference` (an active clinical study for a new one). */
export function referenceFormValues(reference: Reference | null): ReferenceFormInput {
  const kind = reference?.kind ?? "clinical_study";
  const status = reference?.status ?? "active";
  return { title: reference?.title ?? "", citation: reference?.citation ?? "", kind, status };
}
