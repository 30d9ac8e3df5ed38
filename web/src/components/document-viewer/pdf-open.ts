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
  /** How many viewers show it now. */
  holders: number;
}

// The documents open now: those viewers hold (an asset's version and a
// reference beside it), and at most one opened ahead of its viewer.
const open = new Map<string, OpenDocument>();

/**
 * Opens the stored PDF `bucket/path` with pdf.js, or returns the document
 * already opening (the versions query starts it before the viewer mounts).
 * A viewer opens with `hold` and releases with {@link closePdf}; opening a
 * file closes every other that no viewer holds (one opened ahead that was
 * never shown).
 */
export function openPdf(bucket: string, path: string, fileSize: number | null | undefined, hold = false): Promise<PdfDocument> {
  const key = `${bucket}/${path}`;
  const existing = open.get(key);
  if (existing) {
    if (hold) existing.holders++;
    return existing.promise;
  }
  for (const other of [...open.values()]) {
    if (other.holders === 0) {
      other.destroy();
      open.delete(other.key);
    }
  }
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
    holders: hold ? 1 : 0,
    destroy: () => {
      destroyed = true;
      destroyTask?.();
    },
  };
  open.set(key, entry);
  // A failed open is not kept: the next attempt starts afresh.
  promise.catch(() => {
    if (open.get(key) === entry) open.delete(key);
  });
  return promise;
}

/** A viewer of `bucket/path` let it go (it unmounted): closed once no viewer holds it. */
export function closePdf(bucket: string, path: string): void {
  const key = `${bucket}/${path}`;
  const entry = open.get(key);
  if (!entry) return;
  entry.holders = Math.max(0, entry.holders - 1);
  if (entry.holders > 0) return;
  entry.destroy();
  open.delete(key);
}
