import type { AssetVersion } from "@/entities/versions";

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
