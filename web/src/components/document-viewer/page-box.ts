import type { CSSProperties } from "react";

/**
 * Boxes on a page in page-relative units (0..1 from the top left), the
 * unit a region annotation keeps, so a box stays on the same spot of the
 * page at any zoom: drawn by dragging on screen, shown as a percentage
 * of the page's element, hit by a click.
 */

/** A box in page-relative units. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A point on screen (client pixels). */
export interface Point {
  x: number;
  y: number;
}

/** An element's rectangle on screen (DOMRect's fields). */
export interface Bounds {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A box smaller than this many pixels either way is a click, not a drawing. */
export const MIN_DRAG_PX = 6;

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** Rounds to millionths, so a box is stored as it was drawn without float noise. */
const round = (v: number) => Math.round(v * 1e6) / 1e6;

/**
 * The box dragged from `a` to `b` (either corner first) on a page whose
 * element is at `bounds`, clipped to the page; null when it is too small
 * to be a drawing (or the page has no size).
 */
export function boxFromDrag(a: Point, b: Point, bounds: Bounds): Box | null {
  if (bounds.width <= 0 || bounds.height <= 0) return null;
  const x1 = clamp01((Math.min(a.x, b.x) - bounds.left) / bounds.width);
  const x2 = clamp01((Math.max(a.x, b.x) - bounds.left) / bounds.width);
  const y1 = clamp01((Math.min(a.y, b.y) - bounds.top) / bounds.height);
  const y2 = clamp01((Math.max(a.y, b.y) - bounds.top) / bounds.height);
  if ((x2 - x1) * bounds.width < MIN_DRAG_PX || (y2 - y1) * bounds.height < MIN_DRAG_PX) return null;
  const x = round(x1);
  const y = round(y1);
  // Rounding never pushes the box past the page's edge.
  return { x, y, width: Math.min(round(x2 - x1), 1 - x), height: Math.min(round(y2 - y1), 1 - y) };
}

/** A screen rectangle (a highlight's line, say) in units of the page at `bounds`. */
export function boxOfRect(rect: Bounds, bounds: Bounds): Box {
  return {
    x: (rect.left - bounds.left) / bounds.width,
    y: (rect.top - bounds.top) / bounds.height,
    width: rect.width / bounds.width,
    height: rect.height / bounds.height,
  };
}

/** Where a box is drawn over its page's element (which is positioned). */
export function boxStyle(box: Box): CSSProperties {
  return { left: `${box.x * 100}%`, top: `${box.y * 100}%`, width: `${box.width * 100}%`, height: `${box.height * 100}%` };
}

/** Whether the page-relative point `p` falls in `box`, give or take `slack`. */
export function inBox(p: Point, box: Box, slack = 0): boolean {
  return p.x >= box.x - slack && p.x <= box.x + box.width + slack && p.y >= box.y - slack && p.y <= box.y + box.height + slack;
}

/** A screen point in units of the page at `bounds`. */
export function pointOnPage(p: Point, bounds: Bounds): Point {
  return { x: (p.x - bounds.left) / bounds.width, y: (p.y - bounds.top) / bounds.height };
}
