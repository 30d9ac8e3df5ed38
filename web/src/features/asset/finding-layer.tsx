import { ShieldAlert } from "lucide-react";
import { useMemo } from "react";
import { severityLabel } from "@/entities/compliance";
import { cn } from "@/lib/utils";
import type { Anchor } from "./annotation-anchors";
import type { FindingLayer } from "./finding-highlights";

/**
 * A "Compliance check" marker in the page's right margin beside each
 * finding's first line; a click selects the finding in the findings panel.
 */
/** A page's "Compliance check" markers, in its right margin beside each finding's first line. */
export function FindingMarkers({ anchors, layer }: { anchors: ReadonlyMap<string, Anchor> | undefined; layer: FindingLayer }) {
  const byId = useMemo(() => new Map(layer.marks.map((m) => [m.id, m])), [layer.marks]);
  const placed: { id: string; y: number; height: number; slot: number }[] = [];
  for (const [id, anchor] of anchors ?? []) {
    const first = anchor.boxes[0];
    if (first) placed.push({ id, y: first.y, height: first.height, slot: 0 });
  }
  placed.sort((a, b) => a.y - b.y);
  for (let i = 1; i < placed.length; i++) {
    const prev = placed[i - 1];
    const cur = placed[i];
    if (prev && cur && Math.abs(cur.y - prev.y) < Math.max(0.004, prev.height / 2)) cur.slot = prev.slot + 1;
  }
  return (
    <div className="pointer-events-none absolute inset-0 z-[2]" data-testid="finding-layer">
      {placed.map(({ id, y, height, slot }) => {
        const mark = byId.get(id);
        if (!mark) return null;
        const on = id === layer.selected;
        return (
          <button
            key={id}
            type="button"
            data-testid="finding-marker"
            data-severity={mark.severity}
            aria-pressed={on}
            aria-label={`Compliance check: ${mark.rule} (${severityLabel(mark.severity).toLowerCase()})`}
            title={`Compliance check: ${mark.rule}`}
            onClick={() => {
              layer.onSelect(id);
            }}
            className={cn(
              "pointer-events-auto absolute inline-flex size-5 items-center justify-center rounded-full text-white shadow ring-2 ring-white transition-transform focus-visible:ring-ring focus-visible:outline-none",
              mark.severity === "critical" ? "bg-red-600" : mark.severity === "warning" ? "bg-amber-600" : "bg-sky-600",
              on && "z-[1] scale-125",
            )}
            style={{ right: 4 + slot * 22, top: `calc(${y * 100}% + ${(height * 50).toFixed(3)}% - 10px)` }}
          >
            <ShieldAlert aria-hidden="true" className="size-3" />
          </button>
        );
      })}
    </div>
  );
}
