import { AlertTriangle, CheckCircle2, ExternalLink, FileX2 } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { buttonVariants } from "@/components/ui/button-variants";
import { EmptyState } from "@/components/ui/empty-state";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { Spinner } from "@/components/ui/spinner";
import { type Passage, PdfViewer } from "@/components/document-viewer/pdf-viewer";
import type { ReferenceSummary } from "@/entities/references";
import { referenceKindLabel } from "@/lib/content-types";
import { cn } from "@/lib/utils";
import { referencePath } from "./reference-path";

/** Where the reference bucket keeps files when a row does not say. */
const REFERENCE_BUCKET = "reference-files";

/** What is known of the passage: still looking, found on its page, or not there. */
type PassageState = "finding" | "found" | "missing";

/**
 * A reference's PDF in the document viewer, opening at `passage` (the page
 * and words a claim quotes) with the words highlighted, and saying so — or
 * that they were not found on that page. Its text can be selected, so a
 * passage can be copied from it.
 */
export function ReferenceDocument({
  reference,
  passage,
  page = 1,
  fill = false,
}: {
  reference: ReferenceSummary;
  passage: Passage | null;
  /** The page to open at when there is no passage. */
  page?: number;
  fill?: boolean;
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

/**
 * A reference's PDF in a panel over the current screen (a claim's dialog
 * stays open under it), opening at `passage`; a link leads to the viewer's
 * own page (its address can be shared).
 */
export function ReferenceViewerSheet({ reference, passage, onClose }: { reference: ReferenceSummary; passage: Passage | null; onClose: () => void }) {
  const meta = [referenceKindLabel(reference.kind), reference.citation].filter(Boolean).join(" · ");
  return (
    <Sheet
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <SheetContent side="right" className="w-full gap-0 sm:max-w-3xl xl:max-w-5xl">
        <div className="grid gap-1 border-b px-4 py-3 pr-12">
          <SheetTitle className="text-base leading-6 font-semibold break-words">{reference.title}</SheetTitle>
          <SheetDescription className="line-clamp-2 text-sm break-words text-muted-foreground">{meta}</SheetDescription>
          <Link to={referencePath(reference.id, passage)} className={cn(buttonVariants({ variant: "link", size: "sm" }), "h-auto justify-self-start p-0")}>
            <ExternalLink aria-hidden="true" />
            Open full page
          </Link>
        </div>
        <ReferenceDocument reference={reference} passage={passage} fill />
      </SheetContent>
    </Sheet>
  );
}
