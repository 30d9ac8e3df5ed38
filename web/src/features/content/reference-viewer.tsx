import { BookOpenCheck, ExternalLink } from "lucide-react";
import { Link } from "react-router";
import { buttonVariants } from "@/components/ui/button-variants";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import type { Passage } from "@/components/document-viewer/pdf-viewer";
import { ReferenceDocument } from "@/components/document-viewer/reference-document";
import { ReferencePassagePicker } from "@/components/document-viewer/reference-picker";
import type { ReferenceSummary } from "@/entities/references";
import { referenceKindLabel } from "@/lib/content-types";
import { cn } from "@/lib/utils";
import { referencePath } from "@/components/document-viewer/reference-path";

/**
 * A reference's PDF in a panel over the current screen (a claim's dialog
 * stays open under it), opening at `passage`; a link leads to the viewer's
 * own page (its address can be shared). With `onPick`, selecting words in
 * it offers "Use this passage", which hands their page and text back: the
 * claim form picks its passages so, as the asset page's annotations do.
 */
export function ReferenceViewerSheet({
  reference,
  passage,
  page = 1,
  onPick,
  onClose,
}: {
  reference: ReferenceSummary;
  passage: Passage | null;
  /** The page to open at when there is no passage. */
  page?: number;
  onPick?: (passage: Passage) => void;
  onClose: () => void;
}) {
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
          {onPick ? (
            <p className="mt-1 flex items-start gap-2 rounded-md bg-blue-50 px-2.5 py-2 text-sm leading-5 text-blue-950 dark:bg-blue-950/50 dark:text-blue-100" role="status">
              <BookOpenCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              Select the supporting words in the reference, then choose “Use this passage”.
            </p>
          ) : null}
        </div>
        {onPick ? (
          <ReferencePassagePicker reference={reference} page={passage?.page ?? page} quote={passage?.text ?? ""} picking onPick={onPick} />
        ) : (
          <ReferenceDocument reference={reference} passage={passage} page={page} fill />
        )}
      </SheetContent>
    </Sheet>
  );
}
