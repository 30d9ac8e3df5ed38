import { describe, expect, it } from "vitest";
import { boxFromDrag, boxOfRect, boxStyle, inBox, MIN_DRAG_PX, pointOnPage } from "./page-box";

// Boxes in page-relative units: drawn on a page at any zoom, stored as the
// server takes them (0..1 from the top left), shown as percentages.

const page = { left: 100, top: 50, width: 600, height: 800 };

describe("region maths", () => {
  it("turns a drag into a box relative to the page, either corner first", () => {
    const box = { x: 0.1, y: 0.25, width: 0.5, height: 0.125 };
    expect(boxFromDrag({ x: 160, y: 250 }, { x: 460, y: 350 }, page)).toEqual(box);
    expect(boxFromDrag({ x: 460, y: 350 }, { x: 160, y: 250 }, page)).toEqual(box);
  });

  it("clips a drag that leaves the page to the page", () => {
    expect(boxFromDrag({ x: 40, y: 10 }, { x: 900, y: 250 }, page)).toEqual({ x: 0, y: 0, width: 1, height: 0.25 });
  });

  it("takes a tiny drag for a click, and a page without size for nothing", () => {
    expect(boxFromDrag({ x: 200, y: 200 }, { x: 200 + MIN_DRAG_PX - 1, y: 260 }, page)).toBeNull();
    expect(boxFromDrag({ x: 200, y: 200 }, { x: 300, y: 300 }, { ...page, width: 0 })).toBeNull();
  });

  it("keeps a box inside the page when rounding", () => {
    const box = boxFromDrag({ x: 100 + 600 / 3, y: 50 }, { x: 800, y: 850 }, page);
    expect(box && box.x + box.width).toBeLessThanOrEqual(1);
    expect(box && box.y + box.height).toBeLessThanOrEqual(1);
  });

  it("measures screen rectangles and points in page units, and hits boxes", () => {
    expect(boxOfRect({ left: 400, top: 450, width: 60, height: 20 }, page)).toEqual({ x: 0.5, y: 0.5, width: 0.1, height: 0.025 });
    const p = pointOnPage({ x: 430, y: 460 }, page);
    expect(p).toEqual({ x: 0.55, y: 0.5125 });
    const box = { x: 0.5, y: 0.5, width: 0.1, height: 0.025 };
    expect(inBox(p, box)).toBe(true);
    expect(inBox({ x: 0.61, y: 0.51 }, box)).toBe(false);
    expect(inBox({ x: 0.601, y: 0.51 }, box, 0.002)).toBe(true);
  });

  it("draws a box as percentages of its page", () => {
    expect(boxStyle({ x: 0.1, y: 0.25, width: 0.5, height: 0.125 })).toEqual({ left: "10%", top: "25%", width: "50%", height: "12.5%" });
  });
});
