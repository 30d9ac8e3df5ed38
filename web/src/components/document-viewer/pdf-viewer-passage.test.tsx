import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PdfDocument } from "./pdf";
import { PASSAGE_HIGHLIGHT_ATTR } from "./passage";
import { PdfViewer } from "./pdf-viewer";

// The viewer opening at a passage, with pdf.js replaced by a stand-in
// document whose pages have text, and its TextLayer by one that lays each
// text item out as a span (as pdf.js does).

const PAGES = [["Methods and population."], ["PASI 75 was reached by 71% of patients", "at week 16."], ["Safety."]];
const drawn: number[] = [];

function fakeDoc(): PdfDocument {
  const page = (n: number) => ({
    getViewport: ({ scale }: { scale: number }) => ({ width: 612 * scale, height: 792 * scale, scale }),
    render: vi.fn(() => {
      drawn.push(n);
      return { promise: Promise.resolve(), cancel: vi.fn() };
    }),
    streamTextContent: () => PAGES[n - 1] ?? [],
  });
  return { numPages: PAGES.length, getPage: vi.fn((n: number) => Promise.resolve(page(n))) } as unknown as PdfDocument;
}

class FakeTextLayer {
  textDivs: HTMLElement[] = [];
  textContentItemsStr: string[];
  private readonly container: HTMLElement;
  constructor({ textContentSource, container }: { textContentSource: string[]; container: HTMLElement }) {
    this.textContentItemsStr = textContentSource;
    this.container = container;
  }
  render() {
    for (const str of this.textContentItemsStr) {
      const span = document.createElement("span");
      span.textContent = str;
      this.textDivs.push(span);
      this.container.append(span);
    }
    return Promise.resolve();
  }
  cancel = vi.fn();
}

const doc = fakeDoc();

vi.mock("./pdf-open", () => ({
  openPdf: vi.fn(() => Promise.resolve(doc)),
  closePdf: vi.fn(),
}));

vi.mock("./pdf", async (original) => ({
  ...(await original<typeof import("./pdf")>()),
  loadPdfJs: () => Promise.resolve({ TextLayer: FakeTextLayer }),
}));

// jsdom has no scrolling; the viewer scrolls to the passage's page.
const scrollTo = vi.fn();

beforeEach(() => {
  drawn.length = 0;
  Element.prototype.scrollTo = scrollTo;
  vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(714);
  vi.stubGlobal(
    "ResizeObserver",
    class {
      observe = vi.fn();
      disconnect = vi.fn();
    },
  );
  // Nothing is laid out: only the pages the viewer starts with count as seen.
  vi.stubGlobal(
    "IntersectionObserver",
    class {
      observe = vi.fn();
      disconnect = vi.fn();
    },
  );
});

afterEach(() => {
  // Unmount before the stubs go: a page effect still pending would otherwise
  // run against jsdom, which has no IntersectionObserver.
  cleanup();
  vi.unstubAllGlobals();
  // @ts-expect-error -- jsdom's elements have no scrollTo of their own.
  delete Element.prototype.scrollTo;
});

const marks = () => Array.from(document.querySelectorAll(`mark[${PASSAGE_HIGHLIGHT_ATTR}]`), (m) => m.textContent);

describe("PdfViewer at a passage", () => {
  it("opens at the passage's page and highlights the quote there, across lines and whatever its case", async () => {
    const onPassage = vi.fn();
    render(<PdfViewer bucket="reference-files" path="org/ref.pdf" pageCount={3} title="Study" passage={{ page: 2, text: "71% OF PATIENTS at week" }} onPassage={onPassage} />);
    await waitFor(() => {
      expect(onPassage).toHaveBeenCalledWith(true);
    }, { timeout: 5000 });
    expect(marks()).toEqual(["71% of patients", "at week"]);
    expect(document.querySelector('[data-page-number="2"] .textLayer')).not.toBeNull();
    expect(drawn[0]).toBe(2);
    expect(screen.getByTestId("page-indicator")).toHaveTextContent("Page 2 of 3");
  });

  it("says so when the quote is not on that page", async () => {
    const onPassage = vi.fn();
    render(<PdfViewer bucket="reference-files" path="org/ref.pdf" pageCount={3} title="Study" passage={{ page: 1, text: "71% of patients" }} onPassage={onPassage} />);
    await waitFor(() => {
      expect(onPassage).toHaveBeenCalledWith(false);
    }, { timeout: 5000 });
    expect(onPassage).not.toHaveBeenCalledWith(true);
    expect(marks()).toEqual([]);
  });

  it("says so when the page is past the end of the document", async () => {
    const onPassage = vi.fn();
    render(<PdfViewer bucket="reference-files" path="org/ref.pdf" pageCount={3} title="Study" passage={{ page: 9, text: "Safety" }} onPassage={onPassage} />);
    await waitFor(() => {
      expect(onPassage).toHaveBeenCalledWith(false);
    }, { timeout: 5000 });
  });

  it("lays no text layer over an asset's pages, which ask for none", async () => {
    render(<PdfViewer bucket="asset-files" path="org/file.pdf" pageCount={3} title="Detail aid, v1" />);
    expect(await screen.findByRole("img", { name: "Page 1 of 3" })).toBeInTheDocument();
    expect(document.querySelector(".textLayer")).toBeNull();
    expect(drawn[0]).toBe(1);
  });
});
