import { z } from "zod";
import { ASSET_TYPES, AUDIENCES } from "@/lib/content-types";
import { oneOfRule, optionalDateRule, optionalIdRule, textRule } from "@/lib/field-rules";
import type { Asset } from "./index";

/** The server's checks of an asset's details (service: checkAssetFields), by column. */
export const assetFieldRules = {
  title: textRule("The title", 1, 200),
  type: oneOfRule("The type", ASSET_TYPES),
  product_id: optionalIdRule(),
  audience: oneOfRule("The audience", AUDIENCES),
  channel: textRule("The channel", 0, 100),
  market: textRule("The market", 0, 20),
  owner_id: optionalIdRule(),
  expires_at: optionalDateRule("The expiry date"),
};

const JOB_CODE = /^[A-Za-z0-9][A-Za-z0-9 ._/-]{0,49}$/;

/** An optional job code (generated when blank), as create_asset checks it. */
export const jobCodeRule = z
  .string()
  .trim()
  .refine((value) => value === "" || JOB_CODE.test(value), "A job code has 1 to 50 letters, digits, spaces and . _ / - characters.")
  .transform((value) => (value === "" ? null : value));

/** Edit details: the columns writers may change. */
export const assetDetailsSchema = z.object({
  title: assetFieldRules.title,
  product_id: assetFieldRules.product_id,
  audience: assetFieldRules.audience,
  channel: assetFieldRules.channel,
  market: assetFieldRules.market,
  owner_id: assetFieldRules.owner_id,
  expires_at: assetFieldRules.expires_at,
});

export type AssetDetailsInput = z.input<typeof assetDetailsSchema>;
export type AssetDetailsOutput = z.output<typeof assetDetailsSchema>;

/** The form's values for an asset's details. */
export function assetDetailsValues(asset: Asset): AssetDetailsInput {
  return {
    title: asset.title,
    product_id: asset.product_id ?? "",
    audience: (AUDIENCES as readonly string[]).includes(asset.audience) ? (asset.audience) : "hcp",
    channel: asset.channel,
    market: asset.market,
    owner_id: asset.owner_id ?? "",
    expires_at: asset.expires_at ?? "",
  };
}
