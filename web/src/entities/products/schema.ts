import { z } from "zod";
import { optionalDateRule, textListRule, textRule } from "@/lib/field-rules";
import type { Product } from "./index";

/** A product as its form edits it, with the server's checks (service: checkProduct). */
export const productSchema = z.object({
  brand_name: textRule("The brand name", 1, 120),
  established_name: textRule("The established name", 0, 200),
  indications: textRule("The indications", 0, 20000),
  isi_text: textRule("The ISI text", 0, 50000, { keepSpacing: true }),
  pi_reference: textRule("The PI reference", 0, 500),
  launch_date: optionalDateRule("The launch date"),
  markets: textListRule("Markets", 50, 20),
});

export type ProductFormInput = z.input<typeof productSchema>;
export type ProductFormOutput = z.output<typeof productSchema>;

/** The form's values for `product` (empty for a new one). */
export function productFormValues(product: Product | null): ProductFormInput {
  return {
    brand_name: product?.brand_name ?? "",
    established_name: product?.established_name ?? "",
    indications: product?.indications ?? "",
    isi_text: product?.isi_text ?? "",
    pi_reference: product?.pi_reference ?? "",
    launch_date: product?.launch_date ?? "",
    markets: product?.markets ?? [],
  };
}
