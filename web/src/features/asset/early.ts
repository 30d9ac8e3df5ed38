import { earlyHeaders, startEarly } from "@/lib/early";
import { drawFirstPage } from "./first-page";
import { openPdf } from "./pdf-open";
import { preparePdf } from "./pdf";
import { renditionOf, type AssetVersion } from "./types";

// Kept apart from the screen's queries (api.ts) so the app can start these
// loads at boot without loading the screen's code.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` could be an asset id at all (anything else is simply not found). */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/**
 * Everything the version list and the viewers need; the extracted text and
 * the editor JSON are loaded per version when compared or edited.
 */
export const VERSION_COLUMNS =
  "id, org_id, asset_id, number, kind, content_html, file_bucket, file_path, file_name, mimetype, file_size, sha256, page_count, change_note, submitted_at, created_at, created_by, updated_at";

/** A version without its extracted text and editor JSON. */
export type VersionSummary = Omit<AssetVersion, "plain_text" | "page_texts" | "content_json">;

/** The REST paths of an asset, of its versions (newest first), and of the product and member names the page shows. */
export const assetPaths = {
  products: "/rest/v1/products?select=id,brand_name,established_name&order=brand_name.asc",
  people: "/rest/v1/members?select=id,full_name,email&order=full_name.asc",
  asset: (id: string) => `/rest/v1/assets?select=*&id=eq.${id}`,
  versions: (id: string) =>
    `/rest/v1/asset_versions?select=${encodeURIComponent(VERSION_COLUMNS.replaceAll(" ", ""))}&asset_id=eq.${id}&order=number.desc`,
};

/**
 * The newest version is the one the page shows unless the address asks for
 * another (?v=) or for a comparison: when it is a PDF, start opening it now,
 * while the page renders, rather than once the viewer mounts.
 */
export function prefetchCurrentPdf(newest: VersionSummary | undefined, search: string = window.location.search): void {
  const params = new URLSearchParams(search);
  if (!newest || params.has("v") || params.has("compare")) return;
  if (renditionOf(newest) !== "pdf" || !newest.file_bucket || !newest.file_path) return;
  openPdf(newest.file_bucket, newest.file_path, newest.file_size).then(drawFirstPage, () => undefined);
}

/**
 * For an address /assets/{id}: starts loading the asset and its versions
 * as the stored session, pdf.js and its worker, and — once the versions say
 * the current one is a PDF — the file itself. Called at boot; does nothing
 * for other addresses or without a fresh session.
 */
export function startAssetEarlyLoads(pathname: string, search: string): void {
  const id = /^\/assets\/([^/]+)\/?$/.exec(pathname)?.[1];
  if (!id || !isUuid(id)) return;
  if (!earlyHeaders()) return;
  // Most assets under MLR review are PDFs: the worker's script (about 1 MB)
  // is the longest part of opening one, so it starts first and downloads and
  // compiles on its own thread meanwhile.
  void preparePdf().catch(() => undefined);
  void startEarly(`asset:${id}`, assetPaths.asset(id));
  // Names for the side panel, which renders after page 1.
  void startEarly("products:summary", assetPaths.products, "low");
  void startEarly("members:people", assetPaths.people, "low");
  startEarly<VersionSummary[]>(`versions:${id}`, assetPaths.versions(id))
    ?.then((rows) => {
      prefetchCurrentPdf(rows[0], search);
    })
    .catch(() => undefined);
}
