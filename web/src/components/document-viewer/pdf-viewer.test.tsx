import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PdfDocument } from "./pdf";
import { PdfViewer } from "./pdf-viewer";

// The viewer with pdf.js replaced by a stand-in document that is already
// open when the viewer mounts — as on a first visit, where the boot script
// opens the file while the app's code is still loading.

const scales: number[] = [];

function fakeDoc(): PdfDocument {
  const page = {
    getViewport: ({ scale }: { scale: number }) => ({ width: 612 * scale, height: 792 * scale }),
    render: vi.fn(({ viewport }: { viewport: { width: number } }) => {
      scales.push(viewport.width / 612);
      return { promise: Promise.resolve(), cancel: vi.fn() };
    }),
  };
  return { numPages: 3, getPage: vi.fn(() => Promise.resolve(page)) } as unknown as PdfDocument;
}

const doc = fakeDoc();

vi.mock("./pdf-open", () => ({
  openPdf: vi.fn(() => Promise.resolve(doc)),
  closePdf: vi.fn(),
}));

// jsdom lays nothing out: the scroller is given the width it has in a
// 1440 px window, and page placeholders are "seen" as soon as they are observed.
const VIEWER_WIDTH = 714;

beforeEach(() => {
  scales.length = 0;
  vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(VIEWER_WIDTH);
  vi.stubGlobal(
    "ResizeObserver",
    class {
      observe = vi.fn();
      disconnect = vi.fn();
    },
  );
  vi.stubGlobal(
    "IntersectionObserver",
    class {
      private readonly cb: IntersectionObserverCallback;
      constructor(cb: IntersectionObserverCallback) {
        this.cb = cb;
      }
      observe(el: Element) {
        this.cb([{ target: el, isIntersecting: true } as unknown as IntersectionObserverEntry], this as unknown as IntersectionObserver);
      }
      disconnect = vi.fn();
    },
  );
});

afterEach(() => {
  // Unmount before the stubs go: a page effect still pending would otherwise
  // run against jsdom, which has no IntersectionObserver.
  cleanup();
  vi.unstubAllGlobals();
});

describe("PdfViewer", () => {
  it("draws page 1 of a document that is already open at the viewer's fit width, not at the 25 % floor first", async () => {
    render(<PdfViewer bucket="asset-files" path="org/file.pdf" pageCount={3} title="Detail aid, v1" />);
    expect(await screen.findByRole("img", { name: "Page 1 of 3" })).toBeInTheDocument();
    const fit = (VIEWER_WIDTH - 2 * 16) / 612;
    expect(scales.length).toBeGreaterThan(0);
    for (const s of scales) expect(s).toBeCloseTo(fit, 3);
  });
});
