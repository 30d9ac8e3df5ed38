import type { BadgeProps } from "@/components/ui/badge";
import { Constants, type Database } from "./database.types";

/**
 * Labels and badge colours for the content model (assets, versions, modules,
 * claims, references), shared by the Content & Modules Hub and Asset detail
 * so every screen names a status the same way. The value lists and their
 * types come from the generated database types (the server's domain
 * vocabularies); a value the server adds fails the type check here until it
 * has a label. An unknown value is shown as given rather than hidden, so a
 * newer server never makes a row disappear.
 */

type Variant = NonNullable<BadgeProps["variant"]>;
type Enums = Database["public"]["Enums"];
const VOCABULARIES = Constants.public.Enums;

/** Asset types, in the order a picker offers them. */
export const ASSET_TYPES = VOCABULARIES.asset_type;
export type AssetType = Enums["asset_type"];

const ASSET_TYPE_LABELS: Record<AssetType, string> = {
  email: "Email",
  web_page: "Web page",
  detail_aid: "Detail aid",
  social_post: "Social post",
  banner: "Banner",
  print: "Print",
  video_script: "Video script",
  other: "Other",
};

/** Asset statuses in workflow order. */
export const ASSET_STATUSES = VOCABULARIES.asset_status;
export type AssetStatus = Enums["asset_status"];

const ASSET_STATUS_LABELS: Record<AssetStatus, string> = {
  draft: "Draft",
  in_review: "In review",
  changes_requested: "Changes requested",
  approved: "Approved",
  rejected: "Rejected",
  expired: "Expired",
  withdrawn: "Withdrawn",
  archived: "Archived",
};

// Green = usable, blue = moving through review, amber = needs the author,
// red = must not be used, gray = not in play.
const ASSET_STATUS_VARIANTS: Record<AssetStatus, Variant> = {
  draft: "gray",
  in_review: "blue",
  changes_requested: "amber",
  approved: "green",
  rejected: "red",
  expired: "red",
  withdrawn: "red",
  archived: "gray",
};

/** Audiences an asset is written for. */
export const AUDIENCES = VOCABULARIES.audience;
export type Audience = Enums["audience"];

const AUDIENCE_LABELS: Record<Audience, string> = {
  hcp: "HCP",
  patient: "Patient",
  payer: "Payer",
};

/** Kinds of reusable module. */
export const MODULE_KINDS = VOCABULARIES.module_kind;
export type ModuleKind = Enums["module_kind"];

const MODULE_KIND_LABELS: Record<ModuleKind, string> = {
  claim: "Claim",
  isi: "ISI",
  disclaimer: "Disclaimer",
  copy: "Copy block",
  image: "Image",
};

/** Module statuses. */
export const MODULE_STATUSES = VOCABULARIES.module_status;
export type ModuleStatus = Enums["module_status"];

const MODULE_STATUS_LABELS: Record<ModuleStatus, string> = {
  draft: "Draft",
  approved: "Approved",
  retired: "Retired",
};

const MODULE_STATUS_VARIANTS: Record<ModuleStatus, Variant> = {
  draft: "gray",
  approved: "green",
  retired: "red",
};

/** Kinds of supporting reference. */
export const REFERENCE_KINDS = VOCABULARIES.reference_kind;
export type ReferenceKind = Enums["reference_kind"];

const REFERENCE_KIND_LABELS: Record<ReferenceKind, string> = {
  prescribing_information: "Prescribing information",
  clinical_study: "Clinical study",
  data_on_file: "Data on file",
  guideline: "Guideline",
  publication: "Publication",
  other: "Other",
};

/** Reference statuses. */
export const REFERENCE_STATUSES = VOCABULARIES.reference_status;
export type ReferenceStatus = Enums["reference_status"];

const REFERENCE_STATUS_LABELS: Record<ReferenceStatus, string> = {
  active: "Active",
  withdrawn: "Withdrawn",
};

const REFERENCE_STATUS_VARIANTS: Record<ReferenceStatus, Variant> = {
  active: "green",
  withdrawn: "red",
};

/** Claim statuses. */
export const CLAIM_STATUSES = VOCABULARIES.claim_status;
export type ClaimStatus = Enums["claim_status"];

const CLAIM_STATUS_LABELS: Record<ClaimStatus, string> = {
  draft: "Draft",
  approved: "Approved",
  withdrawn: "Withdrawn",
  expired: "Expired",
};

const CLAIM_STATUS_VARIANTS: Record<ClaimStatus, Variant> = {
  draft: "gray",
  approved: "green",
  withdrawn: "red",
  expired: "red",
};

/** Kinds of version: written in the editor or uploaded. */
export const VERSION_KINDS = VOCABULARIES.version_kind;
export type VersionKind = Enums["version_kind"];

const VERSION_KIND_LABELS: Record<VersionKind, string> = {
  authored: "Written in Fairbalance",
  file: "Uploaded file",
};

/** What search_content can return. */
export const SEARCH_KINDS = ["asset", "claim", "module", "reference"] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

const SEARCH_KIND_LABELS: Record<SearchKind, string> = {
  asset: "Asset",
  claim: "Claim",
  module: "Module",
  reference: "Reference",
};

/** The label of `value` in `labels`; an unknown value as given, none as `empty`. */
export function lookup<K extends string>(labels: Record<K, string>, value: string | null | undefined, empty = "—"): string {
  if (value == null || value === "") return empty;
  return (labels as Record<string, string | undefined>)[value] ?? value;
}

/** The badge colour of `value` in `variants`; gray when unknown or none. */
export function variantOf<K extends string>(variants: Record<K, Variant>, value: string | null | undefined): Variant {
  if (value == null) return "gray";
  return (variants as Record<string, Variant | undefined>)[value] ?? "gray";
}

/** "Detail aid" for "detail_aid"; unknown types as given, "—" for none. */
export const assetTypeLabel = (value: string | null | undefined) => lookup(ASSET_TYPE_LABELS, value);
/** "In review" for "in_review". */
export const assetStatusLabel = (value: string | null | undefined) => lookup(ASSET_STATUS_LABELS, value);
/** Badge colour of an asset status. */
export const assetStatusVariant = (value: string | null | undefined) => variantOf(ASSET_STATUS_VARIANTS, value);
/** "HCP" for "hcp". */
export const audienceLabel = (value: string | null | undefined) => lookup(AUDIENCE_LABELS, value);
/** "ISI" for "isi", "Copy block" for "copy". */
export const moduleKindLabel = (value: string | null | undefined) => lookup(MODULE_KIND_LABELS, value);
/** Label of a module status. */
export const moduleStatusLabel = (value: string | null | undefined) => lookup(MODULE_STATUS_LABELS, value);
/** Badge colour of a module status. */
export const moduleStatusVariant = (value: string | null | undefined) => variantOf(MODULE_STATUS_VARIANTS, value);
/** "Clinical study" for "clinical_study". */
export const referenceKindLabel = (value: string | null | undefined) => lookup(REFERENCE_KIND_LABELS, value);
/** Label of a reference status. */
export const referenceStatusLabel = (value: string | null | undefined) => lookup(REFERENCE_STATUS_LABELS, value);
/** Badge colour of a reference status. */
export const referenceStatusVariant = (value: string | null | undefined) => variantOf(REFERENCE_STATUS_VARIANTS, value);
/** Label of a claim status. */
export const claimStatusLabel = (value: string | null | undefined) => lookup(CLAIM_STATUS_LABELS, value);
/** Badge colour of a claim status. */
export const claimStatusVariant = (value: string | null | undefined) => variantOf(CLAIM_STATUS_VARIANTS, value);
/** "Uploaded file" for "file". */
export const versionKindLabel = (value: string | null | undefined) => lookup(VERSION_KIND_LABELS, value);
/** "Claim" for "claim" (search result kinds). */
export const searchKindLabel = (value: string | null | undefined) => lookup(SEARCH_KIND_LABELS, value);

/** The label and badge colour of a status of any kind of content ("asset", "claim", "module", "reference"). */
export function statusBadge(kind: string, status: string | null | undefined): { label: string; variant: Variant } {
  switch (kind) {
    case "claim":
      return { label: claimStatusLabel(status), variant: claimStatusVariant(status) };
    case "module":
      return { label: moduleStatusLabel(status), variant: moduleStatusVariant(status) };
    case "reference":
      return { label: referenceStatusLabel(status), variant: referenceStatusVariant(status) };
    default:
      return { label: assetStatusLabel(status), variant: assetStatusVariant(status) };
  }
}

/** Writers of assets, versions, modules, claims and references (product.md §2). */
export function canWriteContent(role: string | null | undefined): boolean {
  return role === "owner" || role === "admin" || role === "marketer";
}

/**
 * Who may link and unlink a claim's reference passages: what supports a
 * claim is part of what was decided, so its authors change the passages
 * of a draft only; owners and admins, who change decided claims, in any
 * status; reviewers never (the server's rule).
 */
export function changesClaimPassages(role: string | null | undefined, claimStatus: string): boolean {
  if (!canWriteContent(role)) return false;
  return claimStatus === "draft" || role === "owner" || role === "admin";
}

/**
 * Who sets the status of claims and modules other than draft (approve,
 * expire, withdraw, retire): reviewers and administrators. The server
 * refuses it to anyone else; reviewers change only status and expiry.
 */
export function decidesContentStatus(role: string | null | undefined): boolean {
  return role === "owner" || role === "admin" || role === "reviewer_medical" || role === "reviewer_legal" || role === "reviewer_regulatory";
}

/** Shown under a status its viewer may not set. */
export const STATUS_DECIDED_HINT = "Set by a reviewer or an administrator.";

/** Writers of products (admins and owners). */
export function canWriteProducts(role: string | null | undefined): boolean {
  return role === "owner" || role === "admin";
}

/** Files an asset or reference upload may be: the server re-checks from the bytes. */
export const UPLOAD_TYPES: Readonly<Record<string, string>> = {
  "application/pdf": "PDF",
  "image/png": "PNG",
  "image/jpeg": "JPEG",
  "image/webp": "WebP",
};

/** The product buckets' size limit (500 MiB). */
export const UPLOAD_MAX_BYTES = 500 * 1024 * 1024;

/** Calendar days from `today` (local) to a date 'YYYY-MM-DD' (negative when past); null without a date. */
export function daysUntil(date: string | null | undefined, today: Date = new Date()): number | null {
  if (!date) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!match) return null;
  const end = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const now = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  return Math.round((end - now) / 86_400_000);
}

/**
 * How an expiry date ('YYYY-MM-DD') stands relative to `today`: "expired"
 * when past, "soon" within 30 days, else null (no date or far off).
 */
export function expiryState(expiresAt: string | null | undefined, today: Date = new Date()): "expired" | "soon" | null {
  const days = daysUntil(expiresAt, today);
  if (days === null) return null;
  if (days < 0) return "expired";
  if (days <= 30) return "soon";
  return null;
}

/** "12.4 MB", "830 KB", "512 B". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "—";
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}
