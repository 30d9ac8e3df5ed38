import type { PdfDocument } from "./pdf";

// Page 1 of the PDF an asset's address opens is drawn as soon as the
// document is open — on a cold start that is often before the screen around
// it has rendered — and the viewer takes the drawing when it mounts, if it
// was drawn at (or a little above) the size the viewer needs. Kept apart
// from the viewer so the app's boot code can use it without React.

/** Space around the pages in the viewer, in CSS pixels (the viewer's padding). */
export const PAGE_PAD = 16;

// Tailwind's breakpoints and the shell's and Asset detail's widths (the
// sidebar's 16rem, <main>'s max-w-7xl and padding, the side panel's
// 22rem/24rem column and the 1.25rem gap): only an estimate, checked when
// the viewer adopts the drawing.
function estimateViewerWidth(): number {
  const main = document.getElementById("main");
  const vw = window.innerWidth;
  let content: number;
  if (main) {
    const style = getComputedStyle(main);
    content = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  } else {
    const sidebar = vw >= 768 ? 256 : 0;
    const padding = vw >= 1024 ? 64 : vw >= 640 ? 48 : 32;
    content = Math.min(vw - sidebar, 1280) - padding;
  }
  const panel = vw >= 1280 ? 384 + 20 : vw >= 1024 ? 352 + 20 : 0;
  return content - panel - 2; // the card's border
}

/** The "fit width" scale the viewer will likely use for a page `pageWidth` points wide. */
export function estimateFitScale(pageWidth: number): number {
  return Math.max(0.25, (estimateViewerWidth() - 2 * PAGE_PAD) / pageWidth);
}

interface Drawn {
  doc: PdfDocument;
  scale: number;
  canvas: Promise<HTMLCanvasElement>;
}

let drawn: Drawn | null = null;

/** Draws page 1 of `doc` at the estimated fit-width scale, once per document. */
export function drawFirstPage(doc: PdfDocument): void {
  if (drawn?.doc === doc) return;
  const canvas = (async () => {
    const page = await doc.getPage(1);
    const scale = estimateFitScale(page.getViewport({ scale: 1 }).width);
    if (drawn?.doc === doc) drawn.scale = scale;
    const viewport = page.getViewport({ scale: scale * (window.devicePixelRatio || 1) });
    const el = document.createElement("canvas");
    el.width = Math.floor(viewport.width);
    el.height = Math.floor(viewport.height);
    await page.render({ canvas: el, viewport }).promise;
    return el;
  })();
  canvas.catch(() => undefined);
  // The scale is known once page 1's size is; until then 0 (never adopted).
  drawn = { doc, scale: 0, canvas };
}

/**
 * Page 1 of `doc` drawn ahead for a viewer at `scale`, handed out once: only
 * when drawn at that scale or up to a third above it (shown slightly
 * downscaled, still sharp); otherwise null and the viewer draws it itself.
 */
export function takeFirstPage(doc: PdfDocument, scale: number): Promise<HTMLCanvasElement> | null {
  const d = drawn;
  if (d?.doc !== doc) return null;
  drawn = null;
  if (d.scale < scale * 0.99 || d.scale > scale * 1.34) return null;
  return d.canvas;
}
