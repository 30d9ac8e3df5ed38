import { Maximize2, Minus, Plus } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { ZOOM_MAX, ZOOM_MIN } from "./pdf";

/** Zoom: a number (1 = 100 %) or "fit" (fit the width, or the whole image). */
export type Zoom = number | "fit";

/**
 * The viewer's toolbar: zoom out, the zoom level, zoom in and fit, with
 * whatever else the viewer adds (page navigation) on the other side.
 */
export function ZoomControls({
  scale,
  zoom,
  onZoomIn,
  onZoomOut,
  onFit,
  fitLabel = "Fit width",
  children,
  className,
}: {
  /** The scale in effect (also when fitting), shown as a percentage. */
  scale: number;
  zoom: Zoom;
  onZoomIn: () => void;
  onZoomOut: () => void;
  onFit: () => void;
  fitLabel?: string;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div
      role="toolbar"
      aria-label="Viewer controls"
      className={cn("flex flex-wrap items-center justify-between gap-2 border-b bg-card px-3 py-2", className)}
    >
      <div className="flex items-center gap-1">
        <Button variant="ghost" size="icon" aria-label="Zoom out" disabled={scale <= ZOOM_MIN + 0.001} onClick={onZoomOut}>
          <Minus aria-hidden="true" />
        </Button>
        <output aria-live="polite" aria-label="Zoom level" className="w-14 text-center text-sm tabular-nums">
          {Math.round(scale * 100)} %
        </output>
        <Button variant="ghost" size="icon" aria-label="Zoom in" disabled={scale >= ZOOM_MAX - 0.001} onClick={onZoomIn}>
          <Plus aria-hidden="true" />
        </Button>
        <Button variant={zoom === "fit" ? "secondary" : "ghost"} size="sm" aria-pressed={zoom === "fit"} onClick={onFit}>
          <Maximize2 aria-hidden="true" />
          {fitLabel}
        </Button>
      </div>
      {children}
    </div>
  );
}
