/**
 * The early load of an asset's versions (lib/early), free of the query
 * library so the boot script stays small.
 */

/**
 * Everything the version list and the viewers need; the extracted text and
 * the editor JSON are loaded per version when compared or edited.
 */
export const VERSION_COLUMNS =
  "id, org_id, asset_id, number, kind, content_html, file_bucket, file_path, file_name, mimetype, file_size, sha256, page_count, change_note, submitted_at, created_at, created_by, updated_at";

/** The early load of an asset's versions, newest first: its key and REST path. */
export const versionsEarly = {
  key: (assetId: string) => `versions:${assetId}`,
  path: (assetId: string) =>
    `/rest/v1/asset_versions?select=${encodeURIComponent(VERSION_COLUMNS.replaceAll(" ", ""))}&asset_id=eq.${assetId}&order=number.desc`,
};
