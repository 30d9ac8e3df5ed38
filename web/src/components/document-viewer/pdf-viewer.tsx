import { AlertTriangle } from "lucide-react";
import { useCallback, useEffect, useId, useImperativeHandle, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode, type Ref } from "react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { afterNextFrame } from "@/lib/idle";
import { logMetric } from "@/lib/logger";
import { cn } from "@/lib/utils";
import { loadPdfJs, stepZoom, type PdfDocument } from "./pdf";
import { PAGE_PAD, takeFirstPage } from "./first-page";
import { findPassage, markPassage } from "./passage";
import { closePdf, openPdf } from "./pdf-open";
import { ZoomControls, type Zoom } from "./zoom-controls";
import "./text-layer.css";

interface Size {
  w: number;
  h: number;
}

/** A quoted passage and the page (from 1) it is quoted from. */
export interface Passage {
  page: number;
  text: string;
}

/** What a page's text layer is, for those who anchor things in it (annotations). */
export interface TextLayerInfo {
  /** The layer's element (pdf.js's .textLayer), inside the page's element. */
  container: HTMLElement;
  /** The page's element, which the layer fills. */
  page: HTMLElement;
}

/** Moves the viewer from outside (a list of annotations scrolling to one). */
export interface PdfViewerHandle {
  /** Scrolls page `n` into view, at `y` (0..1 of its height) when given. */
  goTo: (n: number, y?: number) => void;
}

const GAP = 16; // px between pages
const PAD = PAGE_PAD;

/**
 * A PDF stored in Fairbalance, shown page by page with pdf.js. The file is
 * read with the session's token from the authenticated download: a small
 * file whole, fetched while pdf.js starts; a large one through HTTP ranges,
 * so the first page shows before the whole file has arrived. Every page has a placeholder sized from page 1; only the
 * pages in view and one either side are drawn (one canvas each, at the
 * screen's pixel ratio), others are released as they scroll away.
 *
 * Given a passage, it opens at the passage's page, finds the passage in that
 * page's text layer (case and white space aside), highlights it and scrolls
 * it into view; `onPassage` learns whether it was found there.
 */
export function PdfViewer({
  bucket,
  path,
  fileSize,
  pageCount: expectedPages,
  title,
  onFirstPage,
  initialPage = 1,
  passage = null,
  onPassage,
  selectableText = false,
  fill = false,
  toolbar,
  pageOverlay,
  onTextLayer,
  handle,
}: {
  bucket: string;
  path: string;
  /** The file's size in bytes, when known (decides whole fetch or ranges). */
  fileSize?: number | null;
  /** The server's page count, for the placeholder before the file opens. */
  pageCount: number;
  /** What the document is, for assistive technology. */
  title: string;
  /** Called once the frame showing page 1 has been drawn. */
  onFirstPage?: () => void;
  /** The page shown first, when no passage is given. */
  initialPage?: number;
  /** A passage to open at, highlighted on its page. */
  passage?: Passage | null;
  /** Told whether the passage is on its page, each time that page's text has been read. */
  onPassage?: (found: boolean) => void;
  /** Lay pdf.js's text layer over every drawn page, so its text can be selected and copied. */
  selectableText?: boolean;
  /** Fill the parent's height (a flex column) rather than a fixed share of the window. */
  fill?: boolean;
  /** More controls for the toolbar, beside the page navigation. */
  toolbar?: ReactNode;
  /** Drawn over page `n` (inside its element, which is positioned), above its text layer. */
  pageOverlay?: (n: number) => ReactNode;
  /** Told when a page's text layer is built (its elements) and when it goes (null). */
  onTextLayer?: (n: number, layer: TextLayerInfo | null) => void;
  handle?: Ref<PdfViewerHandle>;
}) {
  const startPage = Math.max(1, passage?.page ?? initialPage);
  const [doc, setDoc] = useState<PdfDocument | null>(null);
  const [base, setBase] = useState<Size | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [zoom, setZoom] = useState<Zoom>("fit");
  const [width, setWidth] = useState(0);
  const [visible, setVisible] = useState<ReadonlySet<number>>(() => new Set([startPage]));
  const [current, setCurrent] = useState(startPage);
  const scroller = useRef<HTMLDivElement>(null);
  const pages = useRef(new Map<number, HTMLDivElement>());
  const firstPainted = useRef(false);
  const [firstShown, setFirstShown] = useState(false);
  const onFirstPageRef = useRef(onFirstPage);
  const onPassageRef = useRef(onPassage);
  const onTextLayerRef = useRef(onTextLayer);
  useEffect(() => {
    onFirstPageRef.current = onFirstPage;
    onPassageRef.current = onPassage;
    onTextLayerRef.current = onTextLayer;
  });
  const textLayerChanged = useCallback((n: number, layer: TextLayerInfo | null) => {
    onTextLayerRef.current?.(n, layer);
  }, []);

  // Open the document.
  useEffect(() => {
    let cancelled = false;
    // A function, so the checks after each await are not narrowed away.
    const stopped = () => cancelled;
    const started = performance.now();
    (async () => {
      const d = await openPdf(bucket, path, fileSize, true);
      const first = await d.getPage(1);
      if (stopped()) return;
      const vp = first.getViewport({ scale: 1 });
      setBase({ w: vp.width, h: vp.height });
      setDoc(d);
      logMetric("pdf_open_ms", Math.round(performance.now() - started), { pages: d.numPages });
    })().catch((e: unknown) => {
      if (stopped()) return;
      const name = (e as { name?: string } | null)?.name;
      setError(
        name === "MissingPDFException" || name === "ResponseException"
          ? "The file could not be found. It may have been removed."
          : "The PDF could not be shown.",
      );
    });
    return () => {
      cancelled = true;
      closePdf(bucket, path);
    };
  }, [bucket, path, fileSize, attempt]);

  // Track the width available for "fit width". Read once now as well: the
  // observer first reports a frame later, and a document that is already
  // open when the viewer mounts would otherwise be drawn at the 25 % floor
  // first and then again at its real width.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(([entry]) => {
      if (entry) setWidth(entry.contentRect.width);
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
    };
    // The scroller is replaced only while an error is shown; the document's
    // arrival changes what is inside it, not its width.
  }, [error]);

  const numPages = doc?.numPages ?? expectedPages;
  const scale = base ? (zoom === "fit" ? Math.max(0.25, (width - 2 * PAD) / base.w) : zoom) : 1;

  // Which placeholders are on screen.
  useEffect(() => {
    const root = scroller.current;
    if (!root || !doc) return;
    const io = new IntersectionObserver(
      (entries) => {
        setVisible((prev) => {
          const next = new Set(prev);
          for (const e of entries) {
            const n = Number((e.target as HTMLElement).dataset.pageNumber);
            if (e.isIntersecting) next.add(n);
            else next.delete(n);
          }
          return next;
        });
      },
      { root, threshold: 0 },
    );
    for (const el of pages.current.values()) io.observe(el);
    return () => {
      io.disconnect();
    };
  }, [doc, numPages]);

  // Keep the reading position when the zoom changes.
  const ratio = useRef(0);
  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    ratio.current = el.scrollHeight > 0 ? el.scrollTop / el.scrollHeight : 0;
    // The page under the upper third of the view is the current one.
    const probe = el.scrollTop + el.clientHeight / 3;
    let page = 1;
    for (const [n, node] of pages.current) {
      if (node.offsetTop <= probe && n > page) page = n;
    }
    setCurrent(page);
  }, []);
  useLayoutEffect(() => {
    const el = scroller.current;
    // At the top there is nothing to restore, and reading scrollHeight would
    // force a layout of the whole page in the middle of the first render.
    if (el && ratio.current > 0) el.scrollTop = ratio.current * el.scrollHeight;
  }, [scale]);

  const zoomBy = useCallback(
    (dir: 1 | -1) => {
      setZoom(stepZoom(scale, dir));
    },
    [scale],
  );

  // Ctrl + wheel zooms (instead of the browser zooming the whole app).
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      zoomBy(e.deltaY < 0 ? 1 : -1);
    };
    el.addEventListener("wheel", onWheel, { passive: false });
    return () => {
      el.removeEventListener("wheel", onWheel);
    };
  }, [zoomBy, doc]);

  const goTo = useCallback(
    (n: number, y?: number) => {
      const target = pages.current.get(Math.min(Math.max(1, n), numPages));
      const el = scroller.current;
      if (!target || !el) return;
      const top = y === undefined ? target.offsetTop - PAD : target.offsetTop + y * target.offsetHeight - el.clientHeight / 3;
      el.scrollTo({ top: Math.max(0, top) });
      // Kept now, not on the scroll event: a zoom (the width settling) may come first.
      ratio.current = el.scrollHeight > 0 ? el.scrollTop / el.scrollHeight : 0;
    },
    [numPages],
  );
  useImperativeHandle(handle, () => ({ goTo }), [goTo]);

  // Open at the start page, once per document.
  const start = useRef({ page: startPage, passagePage: passage?.page ?? null });
  const openedAt = useRef<PdfDocument | null>(null);
  useLayoutEffect(() => {
    if (!doc || !base || openedAt.current === doc) return;
    openedAt.current = doc;
    const { page, passagePage } = start.current;
    if (passagePage !== null && passagePage > doc.numPages) onPassageRef.current?.(false);
    if (page > 1) goTo(page);
  }, [doc, base, goTo]);

  // The passage's highlights, each time its page's text layer is built;
  // the first time they are brought into view.
  const passageShown = useRef(false);
  const marked = useCallback((marks: HTMLElement[]) => {
    onPassageRef.current?.(marks.length > 0);
    const first = marks[0];
    const el = scroller.current;
    if (!first || !el || passageShown.current) return;
    passageShown.current = true;
    const view = el.getBoundingClientRect();
    const at = first.getBoundingClientRect();
    const outside = at.left < view.left || at.right > view.right;
    el.scrollTo({
      top: el.scrollTop + at.top - view.top - el.clientHeight / 3,
      left: outside ? el.scrollLeft + at.left - view.left - PAD : el.scrollLeft,
    });
    ratio.current = el.scrollHeight > 0 ? el.scrollTop / el.scrollHeight : 0;
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "+" || e.key === "=") {
      e.preventDefault();
      zoomBy(1);
    } else if (e.key === "-" || e.key === "_") {
      e.preventDefault();
      zoomBy(-1);
    } else if (e.key === "0") {
      e.preventDefault();
      setZoom("fit");
    }
  };

  const painted = useCallback((n: number) => {
    setFirstShown(true);
    if (n === 1 && !firstPainted.current) {
      firstPainted.current = true;
      performance.mark("asset:first-page-painted");
      // The side panel and the work waiting for the first screen start once
      // the frame showing page 1 is out, so they cannot hold it back.
      afterNextFrame(() => {
        performance.mark("asset:first-page-shown");
        onFirstPageRef.current?.();
      });
    }
  }, []);

  if (error) {
    return (
      <div className="p-4">
        <Alert variant="destructive">
          <AlertTriangle aria-hidden="true" />
          <AlertTitle>{error}</AlertTitle>
          <AlertDescription>
            <Button
              variant="outline"
              size="sm"
              className="mt-2"
              onClick={() => {
                setError(null);
                setAttempt((a) => a + 1);
              }}
            >
              Retry
            </Button>
          </AlertDescription>
        </Alert>
      </div>
    );
  }

  // Pages in view, and one either side, are drawn; the neighbours only once
  // a first page is on screen, so they do not delay it.
  const active = new Set<number>();
  for (const n of visible) {
    for (const m of firstShown ? [n - 1, n, n + 1] : [n]) if (m >= 1 && m <= numPages) active.add(m);
  }

  return (
    <div className={cn("@container flex min-h-0 flex-col", fill && "flex-1")}>
      <ZoomControls
        scale={scale}
        zoom={zoom}
        onZoomIn={() => {
          zoomBy(1);
        }}
        onZoomOut={() => {
          zoomBy(-1);
        }}
        onFit={() => {
          setZoom("fit");
        }}
      >
        <div className="flex flex-wrap items-center gap-2">
          {toolbar}
          <PageNavigation current={current} total={numPages} onGo={goTo} ready={Boolean(doc)} />
        </div>
      </ZoomControls>
      <div
        ref={scroller}
        role="region"
        aria-label={`${title}, ${numPages} ${numPages === 1 ? "page" : "pages"}. Plus and minus zoom, 0 fits the width.`}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onScroll={onScroll}
        data-testid="pdf-scroller"
        className={cn(
          "relative overflow-auto [scrollbar-gutter:stable] bg-muted/70 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none focus-visible:ring-inset",
          fill ? "min-h-0 flex-1" : "h-[min(78dvh,60rem)]",
        )}
      >
        {!doc || !base ? (
          <div className="mx-auto flex w-full max-w-3xl flex-col items-center gap-3 p-4">
            <Skeleton className="aspect-[8.5/11] w-full rounded-sm bg-card shadow-sm" />
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <Spinner className="size-4" /> Opening the PDF…
            </p>
          </div>
        ) : (
          <div className="flex w-max min-w-full flex-col items-center" style={{ padding: PAD, gap: GAP }}>
            {Array.from({ length: numPages }, (_, i) => i + 1).map((n) => (
              <PdfPage
                key={n}
                doc={doc}
                number={n}
                total={numPages}
                base={base}
                scale={scale}
                active={active.has(n)}
                onPainted={painted}
                text={selectableText || passage?.page === n}
                passage={passage?.page === n ? passage.text : null}
                onMarked={marked}
                onTextLayer={textLayerChanged}
                overlay={pageOverlay?.(n)}
                register={(el) => {
                  if (el) pages.current.set(n, el);
                  else pages.current.delete(n);
                }}
              />
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

function PageNavigation({ current, total, onGo, ready }: { current: number; total: number; onGo: (n: number) => void; ready: boolean }) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <form
      className="flex items-center gap-2 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        const n = Number(draft);
        if (Number.isInteger(n)) onGo(n);
        setDraft(null);
      }}
    >
      <span aria-live="polite" data-testid="page-indicator" className="text-muted-foreground tabular-nums">
        Page {current} of {total}
      </span>
      <label htmlFor={id} className="sr-only">
        Go to page
      </label>
      <Input
        id={id}
        type="number"
        inputMode="numeric"
        min={1}
        max={total}
        placeholder="Go to"
        disabled={!ready}
        value={draft ?? ""}
        onChange={(e) => {
          setDraft(e.target.value);
        }}
        className="h-8 w-20"
      />
      <Button type="submit" variant="outline" size="sm" disabled={!ready || !draft}>
        Go
      </Button>
    </form>
  );
}

function PdfPage({
  doc,
  number,
  total,
  base,
  scale,
  active,
  onPainted,
  text,
  passage,
  onMarked,
  onTextLayer,
  overlay,
  register,
}: {
  doc: PdfDocument;
  number: number;
  total: number;
  base: Size;
  scale: number;
  active: boolean;
  onPainted: (n: number) => void;
  /** Lay the text layer over the page. */
  text: boolean;
  /** A passage to highlight in the text layer. */
  passage: string | null;
  /** Given the passage's highlights (none when it is not on the page). */
  onMarked: (marks: HTMLElement[]) => void;
  onTextLayer: (n: number, layer: TextLayerInfo | null) => void;
  overlay: ReactNode;
  register: (el: HTMLDivElement | null) => void;
}) {
  const holder = useRef<HTMLDivElement>(null);
  const pageEl = useRef<HTMLDivElement | null>(null);
  const textHolder = useRef<HTMLDivElement>(null);
  const [natural, setNatural] = useState<Size>(base);
  const [rendered, setRendered] = useState(false);

  useEffect(() => {
    const el = holder.current;
    if (!el) return;
    if (!active) {
      // Release the bitmap of a page far from view.
      el.replaceChildren();
      return;
    }
    let cancelled = false;
    // A function, so the checks after each await are not narrowed away.
    const stopped = () => cancelled;
    let cancelRender: (() => void) | undefined;
    (async () => {
      const page = await doc.getPage(number);
      if (stopped()) return;
      const unit = page.getViewport({ scale: 1 });
      const ahead = number === 1 ? takeFirstPage(doc, scale) : null;
      if (ahead) {
        const canvas = await ahead.catch(() => null);
        if (stopped()) return;
        if (canvas) {
          canvas.className = "block size-full";
          canvas.setAttribute("role", "img");
          canvas.setAttribute("aria-label", `Page ${number} of ${total}`);
          el.replaceChildren(canvas);
          setNatural((s) => (s.w === unit.width && s.h === unit.height ? s : { w: unit.width, h: unit.height }));
          setRendered(true);
          onPainted(number);
          return;
        }
      }
      const dpr = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: scale * dpr });
      // Drawn off-screen and swapped in, so zooming never flashes blank.
      const canvas = document.createElement("canvas");
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.className = "block size-full";
      canvas.setAttribute("role", "img");
      canvas.setAttribute("aria-label", `Page ${number} of ${total}`);
      const task = page.render({ canvas, viewport });
      cancelRender = () => {
        task.cancel();
      };
      await task.promise;
      if (stopped()) return;
      el.replaceChildren(canvas);
      setNatural((s) => (s.w === unit.width && s.h === unit.height ? s : { w: unit.width, h: unit.height }));
      setRendered(true);
      onPainted(number);
    })().catch((e: unknown) => {
      if ((e as { name?: string } | null)?.name === "RenderingCancelledException") return;
      if (!stopped()) setRendered(false);
    });
    return () => {
      cancelled = true;
      cancelRender?.();
    };
  }, [doc, number, total, scale, active, onPainted]);

  // The text layer: built once while the page is drawn (it follows the
  // zoom through --total-scale-factor), kept apart from the canvas, which
  // each zoom replaces.
  useEffect(() => {
    const el = textHolder.current;
    if (!el || !active || !(text || passage !== null)) return;
    let cancelled = false;
    const stopped = () => cancelled;
    let cancelLayer: (() => void) | undefined;
    let built: HTMLElement | null = null;
    (async () => {
      const [pdfjs, page] = await Promise.all([loadPdfJs(), doc.getPage(number)]);
      if (stopped()) return;
      const div = document.createElement("div");
      div.className = "textLayer";
      const layer = new pdfjs.TextLayer({ textContentSource: page.streamTextContent(), container: div, viewport: page.getViewport({ scale: 1 }) });
      cancelLayer = () => {
        layer.cancel();
      };
      await layer.render();
      if (stopped()) return;
      el.replaceChildren(div);
      if (passage !== null) onMarked(markPassage(layer.textDivs, findPassage(layer.textContentItemsStr, passage)));
      built = div;
      if (pageEl.current) onTextLayer(number, { container: div, page: pageEl.current });
    })().catch((e: unknown) => {
      if (stopped() || (e as { name?: string } | null)?.name === "AbortException") return;
      // A page whose text cannot be read has no passage on it either.
      if (passage !== null) onMarked([]);
    });
    return () => {
      cancelled = true;
      cancelLayer?.();
      el.replaceChildren();
      if (built) onTextLayer(number, null);
    };
  }, [doc, number, active, text, passage, onMarked, onTextLayer]);

  const size: CSSProperties = { width: Math.floor(natural.w * scale), height: Math.floor(natural.h * scale) };
  // The text layer's scale and rounding (pdf.js sizes it in these terms).
  const layerVars = text || passage !== null ? { "--total-scale-factor": scale, "--scale-round-x": "1px", "--scale-round-y": "1px" } : {};

  return (
    <div
      ref={(el) => {
        pageEl.current = el;
        register(el);
      }}
      data-page-number={number}
      data-rendered={active && rendered ? "true" : "false"}
      className="relative shrink-0 bg-white shadow-sm ring-1 ring-black/5"
      style={{ ...size, ...layerVars }}
    >
      <div ref={holder} className="absolute inset-0" />
      <div ref={textHolder} className="contents" />
      {!active || !rendered ? (
        <span aria-hidden="true" className="absolute inset-0 flex items-center justify-center text-sm text-slate-400">
          {number}
        </span>
      ) : null}
      {overlay}
    </div>
  );
}
