import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, ArrowLeft, FileQuestion, Paperclip } from "lucide-react";
import { Link, useParams, useSearchParams } from "react-router";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import type { Passage } from "@/components/document-viewer/pdf-viewer";
import { referenceQuery, type ReferenceSummary } from "@/entities/references";
import { referenceKindLabel, referenceStatusLabel, referenceStatusVariant } from "@/lib/content-types";
import { useDocumentTitle } from "@/lib/use-document-title";
import { passageFromSearch } from "@/components/document-viewer/reference-path";
import { ReferenceDocument } from "@/components/document-viewer/reference-document";

const REFERENCES_TAB = "/content?tab=references";

/**
 * A reference's PDF (/content/references/{id}): its title, citation and
 * file, and the document viewer. `?page=N&quote=…` opens it at a claim's
 * passage with the words highlighted; `?page=N` alone opens at that page.
 * A reference of another organisation is "not found", exactly like one
 * that does not exist.
 */
export function ReferencePage() {
  const { id = "" } = useParams();
  const [params] = useSearchParams();
  const reference = useQuery(referenceQuery(id));
  if (reference.isPending) return <ReferenceSkeleton />;
  if (reference.isError) {
    return (
      <ReferenceError
        onRetry={() => {
          void reference.refetch();
        }}
      />
    );
  }
  if (!reference.data) return <ReferenceNotFound />;
  const { passage, page } = passageFromSearch(params);
  return <ReferenceDetail key={`${String(page)}|${passage?.text ?? ""}`} reference={reference.data} passage={passage} page={page} />;
}

function BackLink() {
  return (
    <Link to={REFERENCES_TAB} className="inline-flex items-center gap-1.5 justify-self-start text-sm text-muted-foreground hover:text-foreground hover:underline">
      <ArrowLeft aria-hidden="true" className="size-4" />
      References
    </Link>
  );
}

function ReferenceDetail({ reference, passage, page }: { reference: ReferenceSummary; passage: Passage | null; page: number }) {
  useDocumentTitle(reference.title);
  return (
    <div className="grid min-w-0 gap-5">
      <header className="grid min-w-0 gap-3">
        <BackLink />
        <div className="grid min-w-0 gap-2">
          <h1 className="text-2xl leading-8 font-semibold tracking-tight wrap-anywhere">{reference.title}</h1>
          {reference.citation ? <p className="max-w-3xl text-sm leading-6 wrap-anywhere text-muted-foreground">{reference.citation}</p> : null}
          <div className="flex min-w-0 flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <Badge variant={referenceStatusVariant(reference.status)}>{referenceStatusLabel(reference.status)}</Badge>
            <Badge variant="outline">{referenceKindLabel(reference.kind)}</Badge>
            {reference.file_path ? (
              <span className="inline-flex min-w-0 items-center gap-1">
                <Paperclip aria-hidden="true" className="size-3.5 shrink-0" />
                <span className="min-w-0 truncate">{reference.file_name ?? "PDF"}</span>
                <span className="shrink-0">
                  · {reference.page_count} {reference.page_count === 1 ? "page" : "pages"}
                </span>
              </span>
            ) : null}
          </div>
        </div>
      </header>
      <Card className="min-w-0 gap-0 overflow-hidden p-0">
        <ReferenceDocument reference={reference} passage={passage} page={page} />
      </Card>
    </div>
  );
}

function ReferenceSkeleton() {
  return (
    <div className="grid gap-5" aria-busy="true" aria-label="Loading the reference">
      <Skeleton className="h-4 w-24" />
      <Skeleton className="h-8 w-2/3" />
      <Skeleton className="h-4 w-1/3" />
      <Skeleton className="h-[min(78dvh,60rem)] w-full rounded-xl" />
    </div>
  );
}

function ReferenceNotFound() {
  useDocumentTitle("Reference not found");
  return (
    <div className="mx-auto grid w-full max-w-lg gap-4 py-12 text-center">
      <span className="mx-auto inline-flex size-12 items-center justify-center rounded-full bg-muted">
        <FileQuestion aria-hidden="true" className="size-6 text-muted-foreground" />
      </span>
      <h1 className="text-2xl font-semibold tracking-tight">Reference not found</h1>
      <p className="text-sm leading-6 text-muted-foreground">
        There is no reference at this address in your organisation. It may have been removed, or the link may be incomplete.
      </p>
      <div>
        <Link to={REFERENCES_TAB} className={buttonVariants({ variant: "outline" })}>
          Go to References
        </Link>
      </div>
    </div>
  );
}

function ReferenceError({ onRetry }: { onRetry: () => void }) {
  useDocumentTitle("Reference");
  return (
    <div className="grid max-w-2xl gap-4">
      <BackLink />
      <h1 className="text-2xl font-semibold tracking-tight">Reference</h1>
      <Alert variant="destructive">
        <AlertTriangle aria-hidden="true" />
        <AlertTitle>The reference could not be loaded.</AlertTitle>
        <AlertDescription>
          Check your connection and try again.
          <div className="mt-3">
            <Button variant="outline" size="sm" onClick={onRetry}>
              Retry
            </Button>
          </div>
        </AlertDescription>
      </Alert>
    </div>
  );
}
