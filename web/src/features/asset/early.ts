import type { VersionSummary } from "@/entities/versions";
import { assetPageLoads, earlyHeaders, isUuid, startEarly } from "@/lib/early";
import { drawFirstPage } from "@/components/document-viewer/first-page";
import { openPdf } from "@/components/document-viewer/pdf-open";
import { preparePdf } from "@/components/document-viewer/pdf";
import { renditionOf } from "./types";

// Kept apart from the screen's code so the app can start these loads at
// boot without loading it.

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
  void startEarly(assetPageLoads.asset.key(id), assetPageLoads.asset.path(id));
  // Names for the side panel, which renders after page 1.
  void startEarly(assetPageLoads.productNames.key, assetPageLoads.productNames.path, "low");
  void startEarly(assetPageLoads.people.key, assetPageLoads.people.path, "low");
  startEarly<VersionSummary[]>(assetPageLoads.versions.key(id), assetPageLoads.versions.path(id))
    ?.then((rows) => {
      prefetchCurrentPdf(rows[0], search);
    })
    .catch(() => undefined);
}
