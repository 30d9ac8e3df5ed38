import type * as PdfJs from "pdfjs-dist";
// Only the worker's address (a string) is bundled here, so the boot script
// can start the worker without first fetching a chunk to learn it.
import workerSrc from "pdfjs-dist/build/pdf.worker.min.mjs?url";

export type PdfJsModule = typeof PdfJs;
export type PdfDocument = PdfJs.PDFDocumentProxy;

let loading: Promise<PdfJsModule> | undefined;
let worker: Promise<PdfJs.PDFWorker> | undefined;

/**
 * Loads pdf.js and points it at its worker, once. pdf.js is large, so it is
 * only fetched when a PDF is about to be shown (the asset page calls this as
 * soon as it knows the version is a PDF, in parallel with the file request).
 * A failed load is not cached.
 */
export function loadPdfJs(): Promise<PdfJsModule> {
  loading ??= import("pdfjs-dist").then(
    (pdfjs) => {
      pdfjs.GlobalWorkerOptions.workerSrc = workerSrc;
      return pdfjs;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * pdf.js with its worker already started: the worker script (about 1 MB)
 * downloads and compiles on its own thread while the page renders, and is
 * shared by every document the app opens. Asset detail calls this as it
 * mounts, in parallel with its data queries, so a PDF opens as soon as the
 * version is known.
 */
export function preparePdf(): Promise<{ pdfjs: PdfJsModule; worker: PdfJs.PDFWorker }> {
  // The worker thread starts straight away, so its script downloads and
  // compiles while pdf.js itself is still loading.
  worker ??= Promise.resolve()
    .then(() => {
      const port = new Worker(workerSrc, { type: "module" });
      return loadPdfJs().then((pdfjs) => {
        const w = pdfjs.PDFWorker.create({ port });
        void w.promise.then(
          () => performance.mark("pdf:worker-up"),
          () => undefined,
        );
        return w;
      });
    })
    .catch((error: unknown) => {
      worker = undefined;
      throw error;
    });
  return Promise.all([loadPdfJs(), worker]).then(([pdfjs, w]) => ({ pdfjs, worker: w }));
}

/** Zoom steps the +/− buttons and keys move between (1 = 100 %). */
export const ZOOM_STEPS = [0.5, 0.67, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3] as const;
export const ZOOM_MIN = 0.5;
export const ZOOM_MAX = 3;

/** The next zoom step above (`dir` 1) or below (−1) `current`, within 50–300 %. */
export function stepZoom(current: number, dir: 1 | -1): number {
  if (dir > 0) return ZOOM_STEPS.find((s) => s > current + 0.001) ?? ZOOM_MAX;
  return [...ZOOM_STEPS].reverse().find((s) => s < current - 0.001) ?? ZOOM_MIN;
}
