import type { Passage } from "./pdf-viewer";

/**
 * The address of a reference's viewer (/content/references/{id}), opening
 * at `passage` with it highlighted (?page=N&quote=…), or at page 1.
 */
export function referencePath(id: string, passage?: Passage | null): string {
  const path = `/content/references/${encodeURIComponent(id)}`;
  if (!passage) return path;
  return `${path}?${new URLSearchParams({ page: String(passage.page), quote: passage.text }).toString()}`;
}

/**
 * The passage an address asks for: `page` (from 1) and `quote` both given;
 * otherwise none. A `page` alone is where to open.
 */
export function passageFromSearch(params: URLSearchParams): { passage: Passage | null; page: number } {
  const raw = params.get("page") ?? "";
  const valid = /^\d{1,6}$/.test(raw) && Number(raw) >= 1;
  const page = valid ? Number(raw) : 1;
  const quote = (params.get("quote") ?? "").trim();
  return { passage: quote && valid ? { page, text: quote } : null, page };
}
