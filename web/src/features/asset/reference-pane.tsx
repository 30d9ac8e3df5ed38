import { useQuery } from "@tanstack/react-query";
import { BookOpenCheck, ExternalLink, X } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { Skeleton } from "@/components/ui/skeleton";
import type { Passage } from "@/components/document-viewer/pdf-viewer";
import { ReferencePassagePicker } from "@/components/document-viewer/reference-picker";
import { referencePath } from "@/components/document-viewer/reference-path";
import { referenceQuery, type ReferenceSummary } from "@/entities/references";
import { referenceKindLabel } from "@/lib/content-types";
import { cn } from "@/lib/utils";

/** What the reference beside the version shows: a claim's passage, or the reference to pick one from. */
export interface ReferenceView {
  referenceId: string;
  /** The page to open at (the passage's). */
  page: number;
  /** The passage to highlight; "" for none. */
  quote: string;
  /** "pick": the user selects a passage for the annotate dialog. */
  mode: "view" | "pick";
}

/**
 * A reference's PDF beside the version (claim substantiation): in a column
 * of its own on a wide screen (`layout` "split"), in a sheet over the page
 * on a narrow one. It opens at the passage's page with the passage
 * highlighted; in "pick" mode, selecting words in it offers "Use this
 * passage", which hands their page and text back.
 */
export function ReferencePane({
  view,
  layout,
  onPick,
  onClose,
}: {
  view: ReferenceView;
  layout: "split" | "sheet";
  onPick: (passage: Passage) => void;
  onClose: () => void;
}) {
  const reference = useQuery(referenceQuery(view.referenceId));
  const body = reference.isPending ? (
    <div className="grid gap-3 p-4" aria-busy="true" aria-label="Loading the reference">
      <Skeleton className="h-6 w-2/3" />
      <Skeleton className="h-[50dvh] w-full" />
    </div>
  ) : !reference.data ? (
    <p role="alert" className="p-4 text-sm text-destructive">
      The reference could not be loaded.
    </p>
  ) : (
    <ReferenceBody reference={reference.data} view={view} onPick={onPick} />
  );

  if (layout === "sheet") {
    return (
      <Sheet
        open
        onOpenChange={(open) => {
          if (!open) onClose();
        }}
      >
        <SheetContent side="right" className="w-full gap-0 sm:max-w-2xl" data-testid="reference-pane">
          <Header reference={reference.data} view={view} title={(t) => <SheetTitle className="text-base leading-6 font-semibold wrap-anywhere">{t}</SheetTitle>} description={(d) => <SheetDescription className="line-clamp-2 text-sm wrap-anywhere text-muted-foreground">{d}</SheetDescription>} />
          {body}
        </SheetContent>
      </Sheet>
    );
  }
  return (
    <section
      aria-label="Reference beside the version"
      className="flex h-[min(calc(78dvh+3rem),63rem)] min-w-0 flex-col overflow-hidden rounded-xl border bg-card shadow-sm"
      data-testid="reference-pane"
    >
      <div className="relative">
        <Header
          reference={reference.data}
          view={view}
          title={(t) => <h2 className="text-base leading-6 font-semibold wrap-anywhere">{t}</h2>}
          description={(d) => <p className="line-clamp-2 text-sm wrap-anywhere text-muted-foreground">{d}</p>}
        />
        <Button variant="ghost" size="icon" className="absolute top-2 right-2" aria-label="Close the reference" onClick={onClose}>
          <X aria-hidden="true" />
        </Button>
      </div>
      {body}
    </section>
  );
}

function Header({
  reference,
  view,
  title,
  description,
}: {
  reference: ReferenceSummary | null | undefined;
  view: ReferenceView;
  title: (text: string) => ReactNode;
  description: (text: string) => ReactNode;
}) {
  const meta = reference ? [referenceKindLabel(reference.kind), reference.citation].filter(Boolean).join(" · ") : "";
  const passage = view.quote ? { page: view.page, text: view.quote } : null;
  return (
    <div className="grid gap-1 border-b px-4 py-3 pr-12">
      {title(reference?.title ?? "Reference")}
      {meta ? description(meta) : null}
      {reference ? (
        <Link to={referencePath(reference.id, passage)} className={cn(buttonVariants({ variant: "link", size: "sm" }), "h-auto justify-self-start p-0")}>
          <ExternalLink aria-hidden="true" />
          Open full page
        </Link>
      ) : null}
      {view.mode === "pick" ? (
        <p className="mt-1 flex items-start gap-2 rounded-md bg-blue-50 px-2.5 py-2 text-sm leading-5 text-blue-950 dark:bg-blue-950/50 dark:text-blue-100" role="status">
          <BookOpenCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          Select the supporting words in the reference, then choose “Use this passage”.
        </p>
      ) : null}
    </div>
  );
}

function ReferenceBody({ reference, view, onPick }: { reference: ReferenceSummary; view: ReferenceView; onPick: (passage: Passage) => void }) {
  return <ReferencePassagePicker reference={reference} page={view.page} quote={view.quote} picking={view.mode === "pick"} onPick={onPick} />;
}
