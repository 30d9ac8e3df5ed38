import { z } from "zod";
import { MODULE_KINDS, MODULE_STATUSES } from "@/lib/content-types";
import { oneOfRule, optionalDateRule, optionalIdRule, textRule } from "@/lib/field-rules";
import type { ContentModule } from "./index";

/** A module as its form edits it, with the server's checks (service: checkModule). */
export const moduleSchema = z.object({
  kind: oneOfRule("The kind", MODULE_KINDS),
  title: textRule("The title", 1, 200),
  body: textRule("The body", 0, 50000, { keepSpacing: true }),
  product_id: optionalIdRule(),
  claim_id: optionalIdRule(),
  status: oneOfRule("The status", MODULE_STATUSES),
  expires_at: optionalDateRule("The expiry date"),
});

export type ModuleFormInput = z.input<typeof moduleSchema>;

function known<T extends string>(values: readonly T[], value: string | undefined, fallback: T): T {
  return (values as readonly string[]).includes(value ?? "") ? (value as T) : fallback;
}

/** The form's values for `module` (a draft ISI for a new one). */
export function moduleFormValues(module: ContentModule | null): ModuleFormInput {
  return {
    kind: known(MODULE_KINDS, module?.kind, "isi"),
    title: module?.title ?? "",
    body: module?.body ?? "",
    product_id: module?.product_id ?? "",
    claim_id: module?.claim_id ?? "",
    status: known(MODULE_STATUSES, module?.status, "draft"),
    expires_at: module?.expires_at ?? "",
  };
}
