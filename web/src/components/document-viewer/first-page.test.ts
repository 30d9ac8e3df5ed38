import { describe, expect, it, vi } from "vitest";
import { drawFirstPage, estimateFitScale, takeFirstPage } from "./first-page";
import type { PdfDocument } from "./pdf";

// A stand-in for pdf.js's document: page 1 is US Letter (612 × 792 points).
function fakeDoc(): PdfDocument {
  const page = {
    getViewport: ({ scale }: { scale: number }) => ({ width: 612 * scale, height: 792 * scale }),
    render: vi.fn(() => ({ promise: Promise.resolve() })),
  };
  return { getPage: vi.fn(() => Promise.resolve(page)) } as unknown as PdfDocument;
}

describe("page 1 drawn ahead", () => {
  it("is adopted once, by a viewer at the scale it was drawn for or a little below", async () => {
    const doc = fakeDoc();
    drawFirstPage(doc);
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    const drawnAt = estimateFitScale(612);
    expect(takeFirstPage(fakeDoc(), drawnAt)).toBeNull();
    const canvas = await takeFirstPage(doc, drawnAt * 0.8);
    expect(canvas?.tagName).toBe("CANVAS");
    expect(takeFirstPage(doc, drawnAt)).toBeNull();
  });

  it("is not adopted by a viewer that needs it larger, or much smaller", async () => {
    for (const factor of [1.2, 0.5]) {
      const doc = fakeDoc();
      drawFirstPage(doc);
      await new Promise((r) => setTimeout(r, 0));
      expect(takeFirstPage(doc, estimateFitScale(612) * factor)).toBeNull();
    }
  });
});
