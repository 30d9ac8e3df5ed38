import { BookOpenCheck } from "lucide-react";
import { useCallback, useRef } from "react";
import { Button } from "@/components/ui/button";
import type { Passage } from "./pdf-viewer";
import { type ReferenceFile, ReferenceDocument } from "./reference-document";
import { useQuoteSelection } from "./use-quote-selection";

/**
 * A reference's PDF from which a passage can be picked: it opens at `page`
 * with `quote` highlighted, and while `picking`, selecting words on one page
 * offers "Use this passage", which hands their page and text to `onPick`.
 * The asset page's reference pane and the Hub's claim form both pick
 * passages with it, so a claim and an annotation quote a reference alike.
 */
export function ReferencePassagePicker({
  reference,
  page,
  quote,
  picking,
  onPick,
}: {
  reference: ReferenceFile;
  page: number;
  /** The passage to highlight; "" for none. */
  quote: string;
  picking: boolean;
  onPick: (passage: Passage) => void;
}) {
  const scope = useRef<HTMLDivElement>(null);
  const locate = useCallback((range: Range) => {
    const start = range.startContainer.parentElement?.closest(".textLayer");
    const end = range.endContainer.parentElement?.closest(".textLayer");
    const frame = start?.closest<HTMLElement>("[data-page-number]");
    if (!start || start !== end || !frame) return null;
    return { page: Number(frame.dataset.pageNumber), root: start, frame };
  }, []);
  const { pending, clear } = useQuoteSelection(scope, locate, picking);
  const passage = quote ? { page, text: quote } : null;
  return (
    <div ref={scope} className="flex min-h-0 flex-1 flex-col">
      <ReferenceDocument
        // A new passage reopens the viewer at its page.
        key={`${page}|${quote}`}
        reference={reference}
        passage={passage}
        page={page}
        fill
        pageOverlay={(n) =>
          pending?.page === n ? (
            <div className="absolute z-[3]" style={{ left: `${(pending.at.x + pending.at.width) * 100}%`, top: `${(pending.at.y + pending.at.height) * 100}%` }}>
              <Button
                size="sm"
                className="mt-1 -translate-x-1/2 shadow-lg"
                onMouseDown={(e) => {
                  e.preventDefault();
                }}
                onClick={() => {
                  onPick({ page: pending.page, text: pending.exact });
                  clear();
                }}
              >
                <BookOpenCheck aria-hidden="true" /> Use this passage
              </Button>
            </div>
          ) : null
        }
      />
    </div>
  );
}
