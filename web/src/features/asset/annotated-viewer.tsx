import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { PdfViewer, type PdfViewerHandle, type TextLayerInfo } from "@/components/document-viewer/pdf-viewer";
import type { Annotation, AnnotationTarget, RegionTarget } from "@/entities/annotations";
import type { VersionSummary } from "@/entities/versions";
import { type Anchor, anchorQuotes, HIGHLIGHT, paintHighlight, type QuoteToFind } from "./annotation-anchors";
import { AreaToggle, PageMarks } from "./annotation-layer";
import type { Box } from "@/components/document-viewer/page-box";
import { textTarget } from "./annotation-selection";
import { AuthoredViewer } from "./authored-viewer";
import { ImageViewer } from "./image-viewer";
import { type PendingQuote, useQuoteSelection } from "@/components/document-viewer/use-quote-selection";
import type { VersionThreads } from "./use-version-threads";
import "./annotations.css";

/** What a viewer needs to show a version's annotations and take new ones. */
export interface AnnotationProps {
  threads: VersionThreads;
  /** The selected thread. */
  selected: string | null;
  onSelect: (threadId: string) => void;
  /** Asks the viewer to bring a thread into view (each new nonce once). */
  focus: { threadId: string; nonce: number } | null;
  /** Takes a new annotation's target (opens the annotate dialog); null: no annotating here. */
  onAnnotate: ((target: AnnotationTarget) => void) | null;
}

type RegionAnnotation = Annotation & { target: RegionTarget };

/** The annotations drawn: not orphans; resolved threads only while selected. */
function drawn(threads: VersionThreads, selected: string | null): Annotation[] {
  return threads.annotations.filter((a) => a.anchor_status !== "orphaned" && (a.state === "open" || a.thread_id === selected));
}

/** The quotes to find on each page, by page. */
function quotesByPage(threads: VersionThreads, list: Annotation[]): Map<number, QuoteToFind[]> {
  const out = new Map<number, QuoteToFind[]>();
  for (const a of list) {
    if (a.target.type !== "text") continue;
    const place = threads.places.get(a.id);
    const page = place?.page ?? 1;
    const quotes = out.get(page) ?? [];
    quotes.push({ id: a.id, exact: a.target.exact, prefix: a.target.prefix, suffix: a.target.suffix, near: place?.y });
    out.set(page, quotes);
  }
  return out;
}

/** The regions drawn, by page. */
function regionsByPage(list: Annotation[]): Map<number, RegionAnnotation[]> {
  const out = new Map<number, RegionAnnotation[]>();
  for (const a of list) {
    if (a.target.type !== "region") continue;
    const regions = out.get(a.target.page) ?? [];
    regions.push(a as RegionAnnotation);
    out.set(a.target.page, regions);
  }
  return out;
}

/** Paints the quotes found: the selected thread's apart, above the others. */
function useHighlights(anchors: ReadonlyMap<number, ReadonlyMap<string, Anchor>>, byId: ReadonlyMap<string, Annotation>, selected: string | null) {
  useEffect(() => {
    const open: Range[] = [];
    const chosen: Range[] = [];
    for (const page of anchors.values()) {
      for (const [id, anchor] of page) (byId.get(id)?.thread_id === selected ? chosen : open).push(...anchor.ranges);
    }
    const clearOpen = paintHighlight(HIGHLIGHT.open, open);
    const clearChosen = paintHighlight(HIGHLIGHT.selected, chosen, 1);
    return () => {
      clearOpen();
      clearChosen();
    };
  }, [anchors, byId, selected]);
}

/** Escape leaves drawing mode. */
function useEscape(active: boolean, onEscape: () => void) {
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onEscape();
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
    };
  }, [active, onEscape]);
}

/** A PDF version with its annotations: quotes highlighted in the text layer, regions boxed, both numbered. */
export function AnnotatedPdf({
  version,
  title,
  onShown,
  annotations: { threads, selected, onSelect, focus, onAnnotate },
}: {
  version: VersionSummary & { file_bucket: string; file_path: string };
  title: string;
  onShown: () => void;
  annotations: AnnotationProps;
}) {
  const scope = useRef<HTMLDivElement>(null);
  const handle = useRef<PdfViewerHandle>(null);
  const [layers, setLayers] = useState<ReadonlyMap<number, TextLayerInfo>>(() => new Map());
  const [drawing, setDrawing] = useState(false);
  const stopDrawing = useCallback(() => {
    setDrawing(false);
  }, []);
  useEscape(drawing, stopDrawing);

  const list = useMemo(() => drawn(threads, selected), [threads, selected]);
  const byId = useMemo(() => new Map(list.map((a) => [a.id, a])), [list]);
  const quotes = useMemo(() => quotesByPage(threads, list), [threads, list]);
  const regions = useMemo(() => regionsByPage(list), [list]);

  const onTextLayer = useCallback((n: number, layer: TextLayerInfo | null) => {
    setLayers((prev) => {
      const next = new Map(prev);
      if (layer) next.set(n, layer);
      else next.delete(n);
      return next;
    });
  }, []);

  // Quotes are found on the pages whose text layer is built (those in view
  // and beside them): 200 threads on 100 pages cost only what is on screen.
  const anchors = useMemo(() => {
    const out = new Map<number, Map<string, Anchor>>();
    for (const [page, layer] of layers) {
      const wanted = quotes.get(page);
      if (wanted) out.set(page, anchorQuotes(layer.container, layer.page, wanted));
    }
    return out;
  }, [layers, quotes]);
  useHighlights(anchors, byId, selected);

  const locate = useCallback((range: Range) => {
    const start = range.startContainer.parentElement?.closest(".textLayer");
    const end = range.endContainer.parentElement?.closest(".textLayer");
    const page = start?.closest<HTMLElement>("[data-page-number]");
    if (!start || start !== end || !page) return null;
    return { page: Number(page.dataset.pageNumber), root: start, frame: page };
  }, []);
  const { pending, clear } = useQuoteSelection(scope, locate, onAnnotate !== null && !drawing);

  useFocus(focus, threads, anchors, (page, y) => handle.current?.goTo(page, y));

  const annotatePending = (p: PendingQuote) => {
    onAnnotate?.(textTarget(p, p.page, threads.pageTexts, threads.starts, p.at.y));
    clear();
  };
  const onDrawn = useCallback(
    (page: number, box: Box) => {
      setDrawing(false);
      onAnnotate?.({ type: "region", page, ...box });
    },
    [onAnnotate],
  );

  return (
    <div ref={scope} className="flex min-h-0 flex-col">
      <PdfViewer
        bucket={version.file_bucket}
        path={version.file_path}
        fileSize={version.file_size}
        pageCount={version.page_count}
        title={title}
        onFirstPage={onShown}
        selectableText
        handle={handle}
        onTextLayer={onTextLayer}
        toolbar={onAnnotate ? <AreaToggle on={drawing} onChange={setDrawing} /> : null}
        pageOverlay={(n) => (
          <PageMarks
            page={n}
            anchors={anchors.get(n)}
            regions={regions.get(n) ?? []}
            byId={byId}
            numbers={threads.numbers}
            selected={selected}
            onSelect={onSelect}
            drawing={drawing}
            onDrawn={onDrawn}
            pending={pending?.page === n ? pending : null}
            onAnnotatePending={() => {
              if (pending) annotatePending(pending);
            }}
          />
        )}
      />
    </div>
  );
}

/**
 * Brings the thread of each new `focus` into view: its page at once (from
 * its place), then its first highlighted line once the page's text is
 * laid out; a region's box straight away.
 */
function useFocus(
  focus: AnnotationProps["focus"],
  threads: VersionThreads,
  anchors: ReadonlyMap<number, ReadonlyMap<string, Anchor>>,
  goTo: (page: number, y: number) => void,
) {
  const went = useRef<{ nonce: number; exact: boolean } | null>(null);
  const goToRef = useRef(goTo);
  useEffect(() => {
    goToRef.current = goTo;
  });
  useEffect(() => {
    if (!focus) return;
    if (went.current?.nonce === focus.nonce && went.current.exact) return;
    const a = threads.annotations.find((x) => x.thread_id === focus.threadId);
    const place = a ? threads.places.get(a.id) : undefined;
    if (!a || !place) return;
    const line = anchors.get(place.page)?.get(a.id)?.boxes[0];
    if (line) {
      goToRef.current(place.page, line.y);
      went.current = { nonce: focus.nonce, exact: true };
    } else if (went.current?.nonce !== focus.nonce) {
      goToRef.current(place.page, place.y);
      went.current = { nonce: focus.nonce, exact: a.target.type === "region" };
    }
  }, [focus, threads, anchors]);
}

/** A composed version with its annotations: quotes highlighted in the text, numbered. */
export function AnnotatedAuthored({ html, title, annotations: { threads, selected, onSelect, focus, onAnnotate } }: { html: string; title: string; annotations: AnnotationProps }) {
  const scope = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const article = useRef<HTMLElement>(null);
  // The text reflows with the width: its lines are measured again then.
  const [layout, setLayout] = useState(0);
  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    let last = el.clientWidth;
    const ro = new ResizeObserver(() => {
      if (el.clientWidth !== last) {
        last = el.clientWidth;
        setLayout((n) => n + 1);
      }
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
    };
  }, []);

  const list = useMemo(() => drawn(threads, selected), [threads, selected]);
  const byId = useMemo(() => new Map(list.map((a) => [a.id, a])), [list]);
  const quotes = useMemo(() => quotesByPage(threads, list).get(1) ?? [], [threads, list]);
  const [anchors, setAnchors] = useState<ReadonlyMap<number, ReadonlyMap<string, Anchor>>>(() => new Map());
  // Measured after the article is in the document (its HTML is set by React, not by this component).
  useEffect(() => {
    const a = article.current;
    const f = frame.current;
    if (!a || !f) return;
    setAnchors(new Map([[1, anchorQuotes(a, f, quotes)]]));
  }, [quotes, html, layout]);
  useHighlights(anchors, byId, selected);

  const locate = useCallback((range: Range) => {
    const a = article.current;
    const f = frame.current;
    if (!a || !f || !a.contains(range.startContainer) || !a.contains(range.endContainer)) return null;
    return { page: 1, root: a, frame: f };
  }, []);
  const { pending, clear } = useQuoteSelection(scope, locate, onAnnotate !== null);

  useFocus(focus, threads, anchors, (_page, y) => {
    const f = frame.current;
    const scroller = f?.parentElement;
    if (!f || !scroller) return;
    scroller.scrollTo({ top: Math.max(0, f.offsetTop + y * f.offsetHeight - scroller.clientHeight / 3) });
  });

  return (
    <div ref={scope}>
      <AuthoredViewer
        html={html}
        title={title}
        frameRef={frame}
        articleRef={article}
        overlay={
          <PageMarks
            page={1}
            anchors={anchors.get(1)}
            regions={[]}
            byId={byId}
            numbers={threads.numbers}
            selected={selected}
            onSelect={onSelect}
            drawing={false}
            onDrawn={() => undefined}
            pending={pending}
            onAnnotatePending={() => {
              if (!pending) return;
              onAnnotate?.(textTarget(pending, 1, threads.pageTexts, threads.starts, pending.at.y));
              clear();
            }}
          />
        }
      />
    </div>
  );
}

/** An image version with its region annotations, and drawing a new one. */
export function AnnotatedImage({
  bucket,
  path,
  alt,
  annotations: { threads, selected, onSelect, focus, onAnnotate },
}: {
  bucket: string;
  path: string;
  alt: string;
  annotations: AnnotationProps;
}) {
  const [drawing, setDrawing] = useState(false);
  const stopDrawing = useCallback(() => {
    setDrawing(false);
  }, []);
  useEscape(drawing, stopDrawing);
  const list = useMemo(() => drawn(threads, selected), [threads, selected]);
  const byId = useMemo(() => new Map(list.map((a) => [a.id, a])), [list]);
  const regions = useMemo(() => regionsByPage(list).get(1) ?? [], [list]);
  const none = useMemo(() => new Map<number, Map<string, Anchor>>(), []);
  useFocus(focus, threads, none, () => {
    document.querySelector(`[data-thread="${CSS.escape(focus?.threadId ?? "")}"]`)?.scrollIntoView({ block: "center", inline: "center" });
  });
  return (
    <ImageViewer
      bucket={bucket}
      path={path}
      alt={alt}
      toolbar={onAnnotate ? <AreaToggle on={drawing} onChange={setDrawing} /> : null}
      overlay={
        <PageMarks
          page={1}
          anchors={undefined}
          regions={regions}
          byId={byId}
          numbers={threads.numbers}
          selected={selected}
          onSelect={onSelect}
          drawing={drawing}
          onDrawn={(page, box) => {
            setDrawing(false);
            onAnnotate?.({ type: "region", page, ...box });
          }}
          pending={null}
          onAnnotatePending={() => undefined}
        />
      }
    />
  );
}
