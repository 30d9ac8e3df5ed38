import { AlertTriangle, CheckCircle2, FileX2 } from "lucide-react";
import { useState, type ReactNode } from "react";
import { EmptyState } from "@/components/ui/empty-state";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";
import { type Passage, PdfViewer, type TextLayerInfo } from "./pdf-viewer";

/** Where the reference bucket keeps files when a row does not say. */
const REFERENCE_BUCKET = "reference-files";

/** What a reference's viewer needs of it (a row of `references`). */
export interface ReferenceFile {
  title: string;
  file_bucket: string | null;
  file_path: string | null;
  page_count: number;
}

/** What is known of the passage: still looking, found on its page, or not there. */
type PassageState = "finding" | "found" | "missing";

/**
 * A reference's PDF in the document viewer, opening at `passage` (the page
 * and words a claim or an annotation quotes) with the words highlighted,
 * and saying so — or that they were not found on that page. Its text can
 * be selected, so a passage can be copied or picked from it (`pageOverlay`
 * and `onTextLayer` reach the viewer's pages).
 */
export function ReferenceDocument({
  reference,
  passage,
  page = 1,
  fill = false,
  toolbar,
  pageOverlay,
  onTextLayer,
}: {
  reference: ReferenceFile;
  passage: Passage | null;
  /** The page to open at when there is no passage. */
  page?: number;
  fill?: boolean;
  toolbar?: ReactNode;
  pageOverlay?: (n: number) => ReactNode;
  onTextLayer?: (n: number, layer: TextLayerInfo | null) => void;
}) {
  const [state, setState] = useState<PassageState>("finding");
  if (!reference.file_path) {
    return (
      <EmptyState icon={FileX2} title="No PDF attached" className="m-4">
        Attach this reference’s PDF in its details to read it here.
      </EmptyState>
    );
  }
  return (
    <div className={cn("flex min-h-0 min-w-0 flex-col", fill && "flex-1")}>
      {passage ? <PassageStatus passage={passage} state={state} /> : null}
      <PdfViewer
        bucket={reference.file_bucket ?? REFERENCE_BUCKET}
        path={reference.file_path}
        pageCount={reference.page_count}
        title={`${reference.title} (reference PDF)`}
        passage={passage}
        initialPage={page}
        onPassage={(found) => {
          setState(found ? "found" : "missing");
        }}
        selectableText
        fill={fill}
        toolbar={toolbar}
        {...(pageOverlay ? { pageOverlay } : {})}
        {...(onTextLayer ? { onTextLayer } : {})}
      />
    </div>
  );
}

function PassageStatus({ passage, state }: { passage: Passage; state: PassageState }) {
  return (
    <div
      className={cn(
        "grid gap-1 border-b px-4 py-3 text-sm",
        state === "missing" ? "bg-amber-50 text-amber-950 dark:bg-amber-950/50 dark:text-amber-100" : "bg-card",
      )}
    >
      <p role="status" className="flex items-center gap-2 font-medium" data-testid="passage-status">
        {state === "finding" ? (
          <>
            <Spinner className="size-4" /> Finding the passage on page {passage.page}…
          </>
        ) : state === "found" ? (
          <>
            <CheckCircle2 aria-hidden="true" className="size-4 shrink-0 text-green-700 dark:text-green-400" /> Passage highlighted on page {passage.page}
          </>
        ) : (
          <>
            <AlertTriangle aria-hidden="true" className="size-4 shrink-0" /> The passage was not found on page {passage.page}.
          </>
        )}
      </p>
      <blockquote className="line-clamp-3 border-l-2 border-amber-400 pl-3 break-words text-muted-foreground italic dark:text-amber-100/80">
        “{passage.text}”
      </blockquote>
    </div>
  );
}
