import { getConfig } from "@/lib/config";
import { earlyHeaders } from "@/lib/early";
import { getSupabase, readStoredSession } from "@/lib/supabase";
import { preparePdf, type PdfDocument } from "./pdf";

// A small file is fetched whole at once, while the pdf.js worker is still
// starting (pdf.js only asks for data once its worker is up); a larger one is
// streamed by pdf.js with HTTP ranges, so page 1 shows before the rest arrives.
const WHOLE_FILE_BYTES = 4 * 1024 * 1024;

/** Headers of an authenticated storage request (the session's token and the anon key). */
export async function storageHeaders(): Promise<Record<string, string>> {
  // A fresh stored session needs no supabase-js (which may still be loading on a cold start).
  const early = earlyHeaders();
  if (early) return early;
  const [config, sb] = await Promise.all([getConfig(), getSupabase()]);
  const { data } = await sb.auth.getSession();
  const token = data.session?.access_token ?? readStoredSession()?.access_token ?? config.anonKey;
  return { Authorization: `Bearer ${token}`, apikey: config.anonKey };
}

/** The authenticated download URL of a stored object (supports HTTP ranges). */
export function objectUrl(bucket: string, path: string): string {
  return `/storage/v1/object/authenticated/${encodeURIComponent(bucket)}/${path.split("/").map(encodeURIComponent).join("/")}`;
}

interface OpenDocument {
  key: string;
  promise: Promise<PdfDocument>;
  destroy: () => void;
}

// The one document open at a time (the screen shows one PDF at a time).
let open: OpenDocument | null = null;

/**
 * Opens the stored PDF `bucket/path` with pdf.js, or returns the document
 * already opening (the versions query starts it before the viewer mounts).
 * Opening another file closes the previous one.
 */
export function openPdf(bucket: string, path: string, fileSize: number | null | undefined): Promise<PdfDocument> {
  const key = `${bucket}/${path}`;
  if (open?.key === key) return open.promise;
  open?.destroy();
  let destroyTask: (() => void) | undefined;
  let destroyed = false;
  // A function, so the check after the awaits is not narrowed away.
  const closed = () => destroyed;
  const promise = (async () => {
    performance.mark("pdf:open");
    const url = objectUrl(bucket, path);
    const headers = await storageHeaders();
    // High priority: on a first visit dozens of script chunks queue for the
    // browser's six connections, and page 1 waits for this file more than for them.
    const whole =
      fileSize != null && fileSize <= WHOLE_FILE_BYTES
        ? fetch(url, { headers, priority: "high" }).then(async (r) => {
            if (!r.ok) throw Object.assign(new Error(`HTTP ${r.status}`), { name: "ResponseException" });
            const bytes = new Uint8Array(await r.arrayBuffer());
            performance.mark("pdf:bytes");
            return bytes;
          })
        : null;
    const [{ pdfjs, worker }, data] = await Promise.all([preparePdf(), whole]);
    if (closed()) throw new DOMException("Closed", "AbortError");
    const common = { worker, isEvalSupported: false };
    const task = pdfjs.getDocument(
      data ? { ...common, data } : { ...common, url, httpHeaders: headers, disableAutoFetch: false, disableStream: false },
    );
    destroyTask = () => void task.destroy();
    const doc = await task.promise;
    performance.mark("pdf:document");
    return doc;
  })();
  const entry: OpenDocument = {
    key,
    promise,
    destroy: () => {
      destroyed = true;
      destroyTask?.();
    },
  };
  open = entry;
  // A failed open is not kept: the next attempt starts afresh.
  promise.catch(() => {
    if (open === entry) open = null;
  });
  return promise;
}

/** Closes the document of `bucket/path` if it is the open one (the viewer unmounted). */
export function closePdf(bucket: string, path: string): void {
  if (open?.key !== `${bucket}/${path}`) return;
  open.destroy();
  open = null;
}
