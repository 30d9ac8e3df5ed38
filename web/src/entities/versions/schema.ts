import { z } from "zod";

/** A version's change note: required, at most 1000 characters (add_asset_version's check). */
export const changeNoteRule = z
  .string()
  .trim()
  .min(1, "Say what changed in this version.")
  .refine((value) => Array.from(value).length <= 1000, "The change note is longer than 1000 characters.");
