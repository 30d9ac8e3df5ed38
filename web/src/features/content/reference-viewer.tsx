import { ExternalLink } from "lucide-react";
import { Link } from "react-router";
import { buttonVariants } from "@/components/ui/button-variants";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import type { Passage } from "@/components/document-viewer/pdf-viewer";
import { ReferenceDocument } from "@/components/document-viewer/reference-document";
import type { ReferenceSummary } from "@/entities/references";
import { referenceKindLabel } from "@/lib/content-types";
import { cn } from "@/lib/utils";
import { referencePath } from "@/components/document-viewer/reference-path";

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
