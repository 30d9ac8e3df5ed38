import type { Database } from "@/lib/database.types";

/**
 * The rows Asset detail reads, as the content contract (issue 5) fixes them.
 * Only the columns the screen uses are listed; the server may send more.
 */

/** An asset (table `assets`). */
export type Asset = Database["public"]["Tables"]["assets"]["Row"];

/** One version of an asset (table `asset_versions`; insert-only). */
export type AssetVersion = Database["public"]["Tables"]["asset_versions"]["Row"];

/** A module an authored version uses (`version_modules` joined with `modules`). */
export interface UsedModule {
  id: string;
  kind: string;
  title: string;
  status: string;
  expires_at: string | null;
}

/** A product, as the pickers and the metadata panel show it. */
export interface ProductSummary {
  id: string;
  brand_name: string;
  established_name: string;
}

/** A member of the organisation, for the owner picker and author names. */
export interface Person {
  id: string;
  full_name: string;
  email?: string;
}

/** How a version is shown: its rendition decides the viewer. */
export type Rendition = "authored" | "pdf" | "image" | "other";

/** The viewer a version needs. */
export function renditionOf(version: Pick<AssetVersion, "kind" | "mimetype" | "file_name">): Rendition {
  if (version.kind === "authored") return "authored";
  const type = version.mimetype ?? "";
  if (type === "application/pdf" || /\.pdf$/i.test(version.file_name ?? "")) return "pdf";
  if (type.startsWith("image/")) return "image";
  return "other";
}

/** The per-page texts of a version (`page_texts`), falling back to splitting `plain_text` on form feeds. */
export function pageTexts(version: Pick<AssetVersion, "page_texts" | "plain_text">): string[] {
  const raw = version.page_texts;
  if (Array.isArray(raw) && raw.length > 0 && raw.every((p) => typeof p === "string")) return raw;
  const text = version.plain_text;
  if (!text) return [];
  return text.split("\f");
}
