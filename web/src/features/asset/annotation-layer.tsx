import { MessageSquarePlus, SquareDashedMousePointer } from "lucide-react";
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import { Button } from "@/components/ui/button";
import { annotationCategoryLabel } from "@/lib/annotation-types";
import { cn } from "@/lib/utils";
import type { Annotation, RegionTarget } from "@/entities/annotations";
import type { Anchor } from "./annotation-anchors";
import type { PendingQuote } from "@/components/document-viewer/use-quote-selection";
import { type Box, boxFromDrag, boxStyle, inBox, type Point, pointOnPage } from "@/components/document-viewer/page-box";

/**
 * What the viewers draw over a page (a PDF page, the composed text, an
 * image) for annotations: the numbered markers of the threads anchored
 * there, the boxes of regions, the "Annotate" action beside a selection,
 * and the surface on which an area is drawn. A click on a highlighted
 * quote or inside a box selects its thread.
 */

/** The annotations drawn on one page. */
export interface PageMarksProps {
  page: number;
  /** The text annotations found on this page, with their anchors. */
  anchors: ReadonlyMap<string, Anchor> | undefined;
  /** The region annotations on this page. */
  regions: readonly (Annotation & { target: RegionTarget })[];
  /** Every annotation drawn here by id (for anchors), with the thread numbers. */
  byId: ReadonlyMap<string, Annotation>;
  numbers: ReadonlyMap<string, number>;
  selected: string | null;
  onSelect: (threadId: string) => void;
  /** Drawing an area: a drag on the page makes a box. */
  drawing: boolean;
  onDrawn: (page: number, box: Box) => void;
  /** A selection on this page that can be annotated. */
  pending: PendingQuote | null;
  onAnnotatePending: () => void;
}

/** A thread's marker name, for assistive technology. */
function markerLabel(n: number | undefined, a: Annotation): string {
  return `Comment ${n ?? ""}: ${annotationCategoryLabel(a.category)}`.replace("  ", " ");
}

/**
 * Draws one page's annotations over it; it must sit inside the page's
 * positioned element (the frame), whose clicks it reads to select the
 * thread under the pointer.
 */
export function PageMarks({ page, anchors, regions, byId, numbers, selected, onSelect, drawing, onDrawn, pending, onAnnotatePending }: PageMarksProps) {
  const root = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<{ from: Point; band: Box } | null>(null);
  const hitRef = useRef<(p: Point) => string | null>(() => null);
  useEffect(() => {
    hitRef.current = (p) => {
      // The smallest box under the point wins, so a box inside a box can be picked.
      let best: { thread: string; area: number } | null = null;
      for (const r of regions) {
        if (inBox(p, r.target)) {
          const area = r.target.width * r.target.height;
          if (!best || area < best.area) best = { thread: r.thread_id, area };
        }
      }
      if (best) return best.thread;
      for (const [id, anchor] of anchors ?? []) {
        if (anchor.boxes.some((b) => inBox(p, b, 0.002))) return byId.get(id)?.thread_id ?? null;
      }
      return null;
    };
  });

  // A click (not the end of a text selection) on a quote or in a box selects its thread.
  useEffect(() => {
    const frame = root.current?.parentElement;
    if (!frame) return;
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || (e.target instanceof Element && e.target.closest("button"))) return;
      const selection = window.getSelection();
      if (selection && !selection.isCollapsed) return;
      const thread = hitRef.current(pointOnPage({ x: e.clientX, y: e.clientY }, frame.getBoundingClientRect()));
      if (thread) onSelect(thread);
    };
    frame.addEventListener("click", onClick);
    return () => {
      frame.removeEventListener("click", onClick);
    };
  }, [onSelect]);

  const frameBounds = () => root.current?.parentElement?.getBoundingClientRect() ?? null;
  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    e.currentTarget.setPointerCapture(e.pointerId);
    setDrag({ from: { x: e.clientX, y: e.clientY }, band: { x: 0, y: 0, width: 0, height: 0 } });
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const bounds = frameBounds();
    if (!drag || !bounds) return;
    setDrag({ from: drag.from, band: boxBand(drag.from, { x: e.clientX, y: e.clientY }, bounds) });
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!drag) return;
    const bounds = frameBounds();
    const box = bounds ? boxFromDrag(drag.from, { x: e.clientX, y: e.clientY }, bounds) : null;
    setDrag(null);
    if (box) onDrawn(page, box);
  };

  return (
    <div ref={root} className="pointer-events-none absolute inset-0 z-[2]" data-testid={`annotation-layer-${page}`}>
      {regions.map((r) => {
        const on = r.thread_id === selected;
        return (
          <div
            key={r.id}
            data-testid="region-box"
            data-thread={r.thread_id}
            className={cn(
              "absolute rounded-[3px] border-2",
              on ? "border-orange-600 bg-orange-500/15 shadow-[0_0_0_3px_rgb(249_115_22/0.25)]" : "border-amber-500 bg-amber-400/10",
            )}
            style={boxStyle(r.target)}
          />
        );
      })}
      {marginMarkers(anchors, byId).map(({ id, a, at, slot }) => (
        <Marker
          key={id}
          number={numbers.get(a.thread_id)}
          label={markerLabel(numbers.get(a.thread_id), a)}
          selected={a.thread_id === selected}
          at={at}
          slot={slot}
          onClick={() => {
            onSelect(a.thread_id);
          }}
        />
      ))}
      {regions.map((r) => (
        <Marker
          key={`m-${r.id}`}
          number={numbers.get(r.thread_id)}
          label={markerLabel(numbers.get(r.thread_id), r)}
          selected={r.thread_id === selected}
          at={r.target}
          onClick={() => {
            onSelect(r.thread_id);
          }}
        />
      ))}
      {pending && !drawing ? (
        <div className="pointer-events-auto absolute z-[3]" style={{ left: `${(pending.at.x + pending.at.width) * 100}%`, top: `${(pending.at.y + pending.at.height) * 100}%` }}>
          <Button
            size="sm"
            className="mt-1 -translate-x-1/2 shadow-lg"
            // Keeps the selection: the click reads it.
            onMouseDown={(e) => {
              e.preventDefault();
            }}
            onClick={onAnnotatePending}
          >
            <MessageSquarePlus aria-hidden="true" /> Annotate
          </Button>
        </div>
      ) : null}
      {drawing ? (
        <div
          className="pointer-events-auto absolute inset-0 cursor-crosshair touch-none bg-primary/5 select-none"
          data-testid="draw-surface"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => {
            setDrag(null);
          }}
        >
          {drag ? <div className="absolute rounded-[3px] border-2 border-dashed border-primary bg-primary/10" style={boxStyle(drag.band)} /> : null}
        </div>
      ) : null}
    </div>
  );
}

/** The rubber band while dragging, in units of the page (not clipped to a minimum size). */
function boxBand(a: Point, b: Point, bounds: DOMRect): Box {
  const p = pointOnPage(a, bounds);
  const q = pointOnPage(b, bounds);
  const x = Math.max(0, Math.min(p.x, q.x));
  const y = Math.max(0, Math.min(p.y, q.y));
  return { x, y, width: Math.min(1, Math.max(p.x, q.x)) - x, height: Math.min(1, Math.max(p.y, q.y)) - y };
}

/**
 * The markers of the quotes on a page, in the page's left margin beside
 * each quote's first line (so they never cover words); quotes starting on
 * the same line take the next places along the margin.
 */
function marginMarkers(anchors: ReadonlyMap<string, Anchor> | undefined, byId: ReadonlyMap<string, Annotation>): { id: string; a: Annotation; at: Box; slot: number }[] {
  const out: { id: string; a: Annotation; at: Box; slot: number }[] = [];
  for (const [id, anchor] of anchors ?? []) {
    const a = byId.get(id);
    const first = anchor.boxes[0];
    if (a && first) out.push({ id, a, at: first, slot: 0 });
  }
  out.sort((p, q) => p.at.y - q.at.y || p.at.x - q.at.x);
  for (let i = 1; i < out.length; i++) {
    const prev = out[i - 1];
    const cur = out[i];
    if (prev && cur && Math.abs(cur.at.y - prev.at.y) < Math.max(0.004, prev.at.height / 2)) cur.slot = prev.slot + 1;
  }
  return out;
}

/**
 * A thread's numbered marker: a quote's in the margin (`slot` places
 * along it), a region's on its top left corner.
 */
function Marker({ number, label, selected, at, slot, onClick }: { number: number | undefined; label: string; selected: boolean; at: Box; slot?: number; onClick: () => void }) {
  const margin = slot !== undefined;
  return (
    <button
      type="button"
      aria-label={label}
      aria-pressed={selected}
      data-testid="annotation-marker"
      onClick={onClick}
      className={cn(
        "pointer-events-auto absolute inline-flex h-5 min-w-5 items-center justify-center rounded-full px-1 text-[11px] leading-none font-semibold text-white tabular-nums shadow ring-2 ring-white transition-transform focus-visible:ring-ring focus-visible:outline-none",
        margin ? "" : "-translate-x-1/2 -translate-y-1/2",
        selected ? "z-[1] scale-110 bg-orange-600" : "bg-amber-600 hover:bg-amber-700",
      )}
      style={margin ? { left: 4 + slot * 22, top: `calc(${at.y * 100}% + ${(at.height * 50).toFixed(3)}% - 10px)` } : { left: `${at.x * 100}%`, top: `${at.y * 100}%` }}
    >
      {number ?? "•"}
    </button>
  );
}

/** The toolbar's switch into drawing an area (and out of it). */
export function AreaToggle({ on, onChange }: { on: boolean; onChange: (on: boolean) => void }) {
  return (
    <Button
      variant={on ? "secondary" : "outline"}
      size="sm"
      aria-pressed={on}
      onClick={() => {
        onChange(!on);
      }}
      title={on ? "Drag on a page to draw the area; Escape stops" : "Draw a box on a page to comment on it"}
    >
      <SquareDashedMousePointer aria-hidden="true" />
      {/* In a narrow viewer the icon alone shows; its name stays for assistive technology. */}
      <span className="@max-2xl:sr-only">{on ? "Drawing: drag on a page" : "Comment on an area"}</span>
    </Button>
  );
}
