import type { BadgeProps } from "@/components/ui/badge";
import { lookup, variantOf } from "./content-types";
import { Constants, type Database } from "./database.types";

/**
 * Labels and badge colours of annotations (issue 16): their categories,
 * states and anchor statuses, so the viewer, the threads panel and the sign
 * dialog name them the same way. The value lists come from the generated
 * database types (the server's vocabularies, annotation.go): a value the
 * server adds fails the type check here until it has a label; an unknown
 * value is shown as given.
 */

type Variant = NonNullable<BadgeProps["variant"]>;
type Enums = Database["public"]["Enums"];
const VOCABULARIES = Constants.public.Enums;

/** What kind of point an annotation makes, in the order the annotate dialog offers them. */
export const ANNOTATION_CATEGORIES = VOCABULARIES.annotation_category;
export type AnnotationCategory = Enums["annotation_category"];

/** Whether a thread still needs attention. */
export const ANNOTATION_STATES = VOCABULARIES.annotation_state;
export type AnnotationState = Enums["annotation_state"];

/** How an annotation's target was found on its version. */
export const ANCHOR_STATUSES = VOCABULARIES.anchor_status;
export type AnchorStatus = Enums["anchor_status"];

const CATEGORY_LABELS: Record<AnnotationCategory, string> = {
  claim_needs_reference: "Claim needs reference",
  fair_balance: "Fair balance",
  off_label: "Off-label",
  editorial: "Editorial",
  legal: "Legal",
  regulatory: "Regulatory",
  other: "Other",
};

// Red: a point that stops the piece (off-label, fair balance); amber: a
// claim without its reference; blue: a reviewer's own domain; gray: the rest.
const CATEGORY_VARIANTS: Record<AnnotationCategory, Variant> = {
  claim_needs_reference: "amber",
  fair_balance: "red",
  off_label: "red",
  editorial: "gray",
  legal: "blue",
  regulatory: "blue",
  other: "gray",
};

const STATE_LABELS: Record<AnnotationState, string> = { open: "Open", resolved: "Resolved" };
const STATE_VARIANTS: Record<AnnotationState, Variant> = { open: "blue", resolved: "green" };

const ANCHOR_LABELS: Record<AnchorStatus, string> = { anchored: "Anchored", moved: "Moved", orphaned: "Orphaned" };
const ANCHOR_VARIANTS: Record<AnchorStatus, Variant> = { anchored: "gray", moved: "amber", orphaned: "red" };

/** "Claim needs reference" for "claim_needs_reference". */
export const annotationCategoryLabel = (value: string | null | undefined) => lookup(CATEGORY_LABELS, value);
/** Badge colour of a category. */
export const annotationCategoryVariant = (value: string | null | undefined) => variantOf(CATEGORY_VARIANTS, value);
/** "Resolved" for "resolved". */
export const annotationStateLabel = (value: string | null | undefined) => lookup(STATE_LABELS, value);
/** Badge colour of a thread's state. */
export const annotationStateVariant = (value: string | null | undefined) => variantOf(STATE_VARIANTS, value);
/** "Moved" for "moved". */
export const anchorStatusLabel = (value: string | null | undefined) => lookup(ANCHOR_LABELS, value);
/** Badge colour of an anchor status. */
export const anchorStatusVariant = (value: string | null | undefined) => variantOf(ANCHOR_VARIANTS, value);

/** Whether `value` is one of the categories. */
export function isAnnotationCategory(value: unknown): value is AnnotationCategory {
  return typeof value === "string" && (ANNOTATION_CATEGORIES as readonly string[]).includes(value);
}
