import type { SearchKind } from "@/entities/content";
import type { SortSpec } from "@/lib/keyset";

/** The hub's tabs; each lists one kind of content and searches it. */
export const TABS = ["assets", "modules", "claims", "references"] as const;
export type Tab = (typeof TABS)[number];

/** The search kind of each tab. */
export const TAB_KIND: Record<Tab, SearchKind> = {
  assets: "asset",
  modules: "module",
  claims: "claim",
  references: "reference",
};

export const SORTS = {
  updated: { label: "Last updated", spec: { column: "updated_at", ascending: false } },
  title: { label: "Title", spec: { column: "title", ascending: true } },
  job_code: { label: "Job code", spec: { column: "job_code", ascending: true } },
  expiry: { label: "Expiry", spec: { column: "expires_at", ascending: true, nullable: true } },
} as const satisfies Record<string, { label: string; spec: SortSpec }>;
export type SortKey = keyof typeof SORTS;

/** The sorts each tab offers (job codes are an asset thing; claims have no title). */
export const TAB_SORTS: Record<Tab, readonly SortKey[]> = {
  assets: ["updated", "title", "job_code", "expiry"],
  modules: ["updated", "title", "expiry"],
  claims: ["updated", "expiry"],
  references: ["updated", "title"],
};
