import { AlertTriangle } from "lucide-react";
import { useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from "react";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { Skeleton } from "@/components/ui/skeleton";
import { useSignedUrl } from "./api";
import { stepZoom } from "@/components/document-viewer/pdf";
import { ZoomControls, type Zoom } from "@/components/document-viewer/zoom-controls";

/**
 * An uploaded image: fitted to the viewer, zoomed with the buttons, the
 * keyboard (+, −, 0) or ctrl + wheel, and panned by dragging or scrolling.
 * `overlay` is drawn over the image (annotations), in an element of the
 * image's size; `toolbar` joins the zoom controls.
 */
export function ImageViewer({ bucket, path, alt, overlay, toolbar }: { bucket: string; path: string; alt: string; overlay?: ReactNode; toolbar?: ReactNode }) {
  const url = useSignedUrl(bucket, path);
  const [zoom, setZoom] = useState<Zoom>("fit");
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  const [fitScale, setFitScale] = useState(1);
  const scroller = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; y: number; left: number; top: number } | null>(null);
  const scale = zoom === "fit" ? fitScale : zoom;

  const measureFit = (w: number, h: number) => {
    const el = scroller.current;
    if (!el) return;
    setFitScale(Math.min(1, (el.clientWidth - 32) / w, (el.clientHeight - 32) / h));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === "+" || e.key === "=") {
      e.preventDefault();
      setZoom(stepZoom(scale, 1));
    } else if (e.key === "-") {
      e.preventDefault();
      setZoom(stepZoom(scale, -1));
    } else if (e.key === "0") {
      e.preventDefault();
      setZoom("fit");
    }
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    const el = scroller.current;
    if (!el || zoom === "fit") return;
    drag.current = { x: e.clientX, y: e.clientY, left: el.scrollLeft, top: el.scrollTop };
    el.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const el = scroller.current;
    const d = drag.current;
    if (!el || !d) return;
    el.scrollLeft = d.left - (e.clientX - d.x);
    el.scrollTop = d.top - (e.clientY - d.y);
  };
  const endDrag = () => {
    drag.current = null;
  };

  if (url.isError) {
    return (
      <div className="p-4">
        <Alert variant="destructive">
          <AlertTriangle aria-hidden="true" />
          <AlertTitle>The image could not be loaded.</AlertTitle>
        </Alert>
      </div>
    );
  }

  return (
    <div className="@container flex min-h-0 flex-col">
      <ZoomControls
        scale={scale}
        zoom={zoom}
        fitLabel="Fit"
        onZoomIn={() => {
          setZoom(stepZoom(scale, 1));
        }}
        onZoomOut={() => {
          setZoom(stepZoom(scale, -1));
        }}
        onFit={() => {
          setZoom("fit");
        }}
      >
        {toolbar}
      </ZoomControls>
      <div
        ref={scroller}
        role="region"
        aria-label={`${alt}. Plus and minus zoom, 0 fits; drag or scroll to pan.`}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onWheel={(e) => {
          if (!e.ctrlKey) return;
          setZoom(stepZoom(scale, e.deltaY < 0 ? 1 : -1));
        }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        className={`relative h-[min(70dvh,48rem)] overflow-auto bg-muted/70 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none focus-visible:ring-inset ${
          zoom === "fit" ? "" : "cursor-grab active:cursor-grabbing"
        }`}
      >
        {url.data ? (
          <div className="flex min-h-full min-w-full items-center justify-center p-4" style={{ width: "max-content" }}>
            <div className="relative" data-page-number={1}>
              <img
                src={url.data}
                alt={alt}
                draggable={false}
                onLoad={(e) => {
                  const img = e.currentTarget;
                  setNatural({ w: img.naturalWidth, h: img.naturalHeight });
                  measureFit(img.naturalWidth, img.naturalHeight);
                }}
                className="block max-w-none bg-white shadow-sm select-none"
                style={natural ? { width: natural.w * scale, height: natural.h * scale } : { maxWidth: "100%" }}
              />
              {natural ? overlay : null}
            </div>
          </div>
        ) : (
          <div className="flex h-full items-center justify-center p-6">
            <Skeleton className="h-3/4 w-3/4" />
          </div>
        )}
      </div>
    </div>
  );
}
