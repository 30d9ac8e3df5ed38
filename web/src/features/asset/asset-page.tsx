import { useQuery, useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, Archive, ChevronDown, FileQuestion, FileText, FileUp, PencilLine, Send, Settings2 } from "lucide-react";
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { Card } from "@/components/ui/card";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { EmptyState } from "@/components/ui/empty-state";
import { NativeSelect } from "@/components/ui/select";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import type { MentionPerson } from "@/components/ui/mention-textarea";
import { type Annotation, type AnnotationTarget, fetchAnnotationVersion, versionAnnotationsQuery } from "@/entities/annotations";
import { annotateValues } from "@/entities/annotations/schema";
import { type VersionFinding, versionFindingsQuery } from "@/entities/compliance";
import { type Asset, assetQuery } from "@/entities/assets";
import { ownMemberQuery, peopleQuery } from "@/entities/members";
import { productSummariesQuery } from "@/entities/products";
import { useProfile } from "@/entities/profile";
import { assetRoundsQuery, invalidateAssetReview } from "@/entities/reviews";
import { invalidateVersions, versionsQuery, type VersionSummary } from "@/entities/versions";
import { useAuth, useReadOnly } from "@/lib/auth";
import { assetStatusLabel, assetStatusVariant, assetTypeLabel, canWriteContent, expiryState } from "@/lib/content-types";
import { firstScreenShown } from "@/lib/idle";
import { useDocumentTitle } from "@/lib/use-document-title";
import { useMediaQuery } from "@/lib/use-media-query";
import { cn } from "@/lib/utils";
import type { AnnotateDraft } from "./annotate-dialog";
import { AnnotatedAuthored, AnnotatedImage, AnnotatedPdf, type AnnotationProps } from "./annotated-viewer";
import { AnnotationPanel } from "./annotation-panel";
import { canAnnotate } from "./annotation-threads";
import { ArchiveDialog } from "./asset-dialogs";
import { CompareView } from "./compare-view";
import { prefetchCurrentPdf } from "./early";
import type { NewVersionMode } from "./new-version-dialog";
import { preparePdf } from "@/components/document-viewer/pdf";
import { ReferencePane, type ReferenceView } from "./reference-pane";
import { type ReviewDialogState, ReviewCard, ReviewStrip } from "./review-panel";
import { answersForAsset, submittable, type Viewer } from "./review-rules";
import { DetailsPanel, ModulesPanel, VersionsPanel } from "./side-panel";
import { renditionOf } from "./types";
import { useVersionThreads } from "./use-version-threads";
import { canDismissFinding, canReopenFinding, findingMarks } from "./findings";
import { DismissFindingDialog, FindingsPanel } from "./findings-panel";
import type { FindingLayer } from "./finding-highlights";

// The forms (react-hook-form, zod) are needed only once someone edits or
// adds a version: they load then, not with the page's first paint.
const EditDetailsDialog = lazy(() => import("./details-dialog").then((m) => ({ default: m.EditDetailsDialog })));
const NewVersionDialog = lazy(() => import("./new-version-dialog").then((m) => ({ default: m.NewVersionDialog })));
const ReviewDialogHost = lazy(() => import("./review-dialogs").then((m) => ({ default: m.ReviewDialogHost })));
const AnnotateDialog = lazy(() => import("./annotate-dialog").then((m) => ({ default: m.AnnotateDialog })));

/** The newest version's PDF starts opening as soon as the versions arrive. */
function prefetchNewest(rows: VersionSummary[]) {
  prefetchCurrentPdf(rows[0]);
}

// Most assets under MLR review are PDFs: pdf.js and its worker start loading
// as soon as this screen's code does (if the app's boot has not already
// started them), alongside the asset queries rather than after them, so the
// first page shows sooner. Cached after the first asset.
void preparePdf().catch(() => undefined);
performance.mark("asset:code-loaded");

/** Why a new version cannot be added in this state (the server's own words), or null. */
function newVersionBlocked(status: string): string | null {
  if (status === "in_review") return "This asset is in review: its version cannot change while the round is open.";
  if (status === "archived") return "Archived assets cannot change.";
  return null;
}

/** The printed name a signature will carry (the server's rule): the full name, else the e-mail address. */
function signerName(fullName: string | undefined, email: string | undefined): string {
  const name = fullName?.trim() ?? "";
  return name !== "" ? name : (email ?? "");
}

/** "2,3" → [2, 3]; anything else → null. */
function parseCompare(value: string | null): [number, number] | null {
  const m = /^(\d+),(\d+)$/.exec(value ?? "");
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/**
 * Asset detail (/assets/{id}): the header with the asset's status, type,
 * product, version picker and the actions this member may take in this
 * state; the version viewer (written text, PDF pages, image) or the
 * comparison of two versions; and a side panel with the details, the
 * version history and the modules used. An asset of another organisation
 * is "not found", exactly like one that does not exist.
 *
 * URL state: `?v=N` shows version N (default: the current one);
 * `?compare=A,B` compares version A with version B; `?thread=ID` selects
 * a comment thread (and brings it into view when the page opens).
 */
export function AssetPage() {
  const { id = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const asset = useQuery(assetQuery(id));
  const versions = useQuery(versionsQuery(id, prefetchNewest));

  if (asset.isPending || (asset.data && versions.isPending)) return <AssetSkeleton />;
  if (asset.isError || versions.isError) {
    return (
      <AssetError
        onRetry={() => {
          void asset.refetch();
          void versions.refetch();
        }}
      />
    );
  }
  if (!asset.data) return <AssetNotFound />;
  return <AssetDetail asset={asset.data} versions={versions.data ?? []} params={params} setParams={setParams} />;
}

function AssetDetail({
  asset,
  versions,
  params,
  setParams,
}: {
  asset: Asset;
  versions: VersionSummary[];
  params: URLSearchParams;
  setParams: ReturnType<typeof useSearchParams>[1];
}) {
  useDocumentTitle(asset.title);
  // The read-only demo shows the asset with no way to change it.
  const readOnly = useReadOnly();
  const { user } = useAuth();
  const profile = useProfile();
  const queryClient = useQueryClient();
  const products = useQuery(productSummariesQuery());
  const people = useQuery(peopleQuery());
  const role = profile.data?.role;

  // A new version or new details change what the ready-for-review gate says.
  const refresh = async () => {
    await Promise.all([invalidateVersions(queryClient, asset.id), invalidateAssetReview(queryClient, asset.id)]);
  };
  const versionSelectId = useId();
  const [dialog, setDialog] = useState<null | "details" | "archive" | NewVersionMode>(null);
  const [reviewDialog, setReviewDialog] = useState<ReviewDialogState | null>(null);
  const [tab, setTab] = useState("details");
  const viewer: Viewer = { userId: user?.id ?? null, role, readOnly };
  const mayRequestReview = answersForAsset(viewer, asset) && submittable(asset.status) && asset.current_version_id !== null;

  const current = versions.find((v) => v.id === asset.current_version_id) ?? versions[0];
  const requested = Number(params.get("v"));
  const shown = versions.find((v) => v.number === requested) ?? current;
  const compare = parseCompare(params.get("compare"));
  const product = products.data?.find((p) => p.id === asset.product_id);
  const owner = people.data?.find((p) => p.id === asset.owner_id);
  const writer = canWriteContent(profile.data?.role) && !readOnly;
  const blocked = newVersionBlocked(asset.status);
  const archived = asset.status === "archived";
  const expiry = expiryState(asset.expires_at);

  // Beside a PDF, the side panel is drawn once page 1 is on screen: on a
  // cold start its first date formatting alone (the browser loading its
  // locale data) costs the main thread about 100 ms, which page 1 should not
  // wait for. A PDF that never reports (a failed file) releases it after 1.5 s.
  const [pdfShown, setPdfShown] = useState(false);
  const showPanel = useCallback(() => {
    setPdfShown(true);
    firstScreenShown();
  }, []);
  const panelReady = pdfShown || compare !== null || !shown || renditionOf(shown) !== "pdf";
  // The review is read with the side panel, once page 1 is on screen.
  const rounds = useQuery({ ...assetRoundsQuery(asset.id), enabled: panelReady });
  // Whether the signer has a verified authenticator (the sign dialog then asks for its code up front).
  const self = useQuery({ ...ownMemberQuery(user?.id), enabled: panelReady && Boolean(user?.id) && Boolean(role?.startsWith("reviewer_")) && !readOnly });
  useEffect(() => {
    if (panelReady) return;
    const timer = window.setTimeout(showPanel, 1500);
    return () => {
      window.clearTimeout(timer);
    };
  }, [panelReady, showPanel]);

  const update = (change: (p: URLSearchParams) => void) => {
    const next = new URLSearchParams(params);
    change(next);
    setParams(next, { replace: false });
  };
  const view = (n: number) => {
    update((p) => {
      p.delete("compare");
      if (n === current?.number) p.delete("v");
      else p.set("v", String(n));
    });
  };
  const openCompare = (a: number, b: number) => {
    update((p) => {
      p.set("compare", `${a},${b}`);
    });
  };

  // ---- comments (annotations) on the version shown
  const threads = useVersionThreads(asset.id, shown, !compare);
  const selected = params.get("thread");
  const [focus, setFocus] = useState<AnnotationProps["focus"]>(() => (selected ? { threadId: selected, nonce: 1 } : null));
  const [draft, setDraft] = useState<AnnotateDraft | null>(null);
  const [reference, setReference] = useState<ReferenceView | null>(null);
  const wide = useMediaQuery("(min-width: 80rem)");
  const viewerCard = useRef<HTMLDivElement>(null);
  const isCurrent = shown !== undefined && shown.id === current?.id;
  const mayAnnotate = canAnnotate(viewer) && isCurrent && !archived;
  const mentionable = useMemo<MentionPerson[]>(
    () => (people.data ?? []).filter((p) => p.full_name.trim() !== "").map((p) => ({ id: p.id, name: p.full_name.trim(), detail: p.email })),
    [people.data],
  );

  const selectThread = useCallback(
    (threadId: string) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.set("thread", threadId);
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  /** Selects a thread and brings it into view in the document (on a phone, the document into view first). */
  const showThread = (threadId: string) => {
    selectThread(threadId);
    setFocus((f) => ({ threadId, nonce: (f?.nonce ?? 0) + 1 }));
    const card = viewerCard.current?.getBoundingClientRect();
    if (card && (card.bottom < 96 || card.top > window.innerHeight * 0.6)) viewerCard.current?.scrollIntoView({ block: "start", behavior: "smooth" });
  };
  /**
   * A change request's "Show in document": its thread on the current version,
   * else on the version its annotation was made on.
   */
  const showChangeThread = async (threadId: string, annotationId: string | null) => {
    let target = current;
    if (current) {
      const rows = await queryClient.query(versionAnnotationsQuery(asset.id, current.id)).catch(() => [] as Annotation[]);
      if (!rows.some((a) => a.thread_id === threadId) && annotationId) {
        const versionId = await fetchAnnotationVersion(annotationId).catch(() => null);
        target = versions.find((v) => v.id === versionId) ?? current;
      }
    }
    update((p) => {
      p.delete("compare");
      if (!target || target.id === current?.id) p.delete("v");
      else p.set("v", String(target.number));
      p.set("thread", threadId);
    });
    setFocus((f) => ({ threadId, nonce: (f?.nonce ?? 0) + 1 }));
    viewerCard.current?.scrollIntoView({ block: "start", behavior: "smooth" });
  };
  const openReference = (a: Annotation) => {
    if (!a.reference_id) return;
    showThread(a.thread_id);
    setReference({ referenceId: a.reference_id, page: a.reference_page ?? 1, quote: a.reference_quote, mode: "view" });
  };
  // ---- compliance findings on the version shown
  const findings = useQuery(versionFindingsQuery(asset.id, shown?.id, !compare));
  const [selectedFinding, setSelectedFinding] = useState<string | null>(null);
  const [findingFocus, setFindingFocus] = useState<FindingLayer["focus"]>(null);
  const [dismissing, setDismissing] = useState<VersionFinding | null>(null);
  const marks = useMemo(() => findingMarks(findings.data?.findings ?? [], threads.starts), [findings.data, threads.starts]);
  const findingLayer: FindingLayer = {
    marks,
    selected: selectedFinding,
    onSelect: (id) => {
      setSelectedFinding(id);
      document.getElementById("findings")?.scrollIntoView({ block: "nearest", behavior: "smooth" });
    },
    focus: findingFocus,
  };
  const showFinding = (f: VersionFinding) => {
    setSelectedFinding(f.id);
    setFindingFocus((x) => ({ findingId: f.id, nonce: (x?.nonce ?? 0) + 1 }));
    const card = viewerCard.current?.getBoundingClientRect();
    if (card && (card.bottom < 96 || card.top > window.innerHeight * 0.6)) viewerCard.current?.scrollIntoView({ block: "start", behavior: "smooth" });
  };
  const annotationProps: AnnotationProps = {
    threads,
    selected,
    onSelect: selectThread,
    focus,
    findings: findingLayer,
    onAnnotate: mayAnnotate
      ? (target: AnnotationTarget) => {
          setDraft({ target, values: annotateValues(role) });
        }
      : null,
  };
  const picking = reference?.mode === "pick";
  /** A passage selected in the reference goes back to the annotate dialog, and stays highlighted. */
  const pickPassage = (passage: { page: number; text: string }) => {
    setDraft((d) => (d ? { ...d, values: { ...d.values, reference_page: String(passage.page), reference_quote: passage.text } } : d));
    setReference((r) => (r ? { ...r, page: passage.page, quote: passage.text, mode: "view" } : r));
  };
  const closeReference = () => {
    setReference(null);
  };
  const split = wide && !compare;

  const versionLabel = (v: VersionSummary) =>
    `v${v.number}${v.id === asset.current_version_id ? " · current" : ""}${v.id === asset.approved_version_id ? " · approved" : ""}`;

  const newVersionButton = blocked ? (
    <Tooltip>
      <TooltipTrigger asChild>
        {/* A disabled button gets no pointer events; the wrapper carries the explanation. */}
        <span tabIndex={0} className="rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none" aria-describedby={`${versionSelectId}-blocked`}>
          <Button disabled>
            <FileUp aria-hidden="true" /> New version
          </Button>
        </span>
      </TooltipTrigger>
      <TooltipContent id={`${versionSelectId}-blocked`}>{blocked}</TooltipContent>
    </Tooltip>
  ) : (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant={mayRequestReview ? "outline" : "default"}>
          <FileUp aria-hidden="true" /> New version <ChevronDown aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem
          onSelect={() => {
            setDialog("upload");
          }}
        >
          <FileUp aria-hidden="true" /> Upload a file
        </DropdownMenuItem>
        <DropdownMenuItem
          onSelect={() => {
            setDialog("edit");
          }}
        >
          <PencilLine aria-hidden="true" /> Edit the text
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );

  return (
    <div className="grid min-w-0 gap-5">
      <header className="grid gap-3">
        <nav aria-label="Breadcrumb" className="text-sm text-muted-foreground">
          <ol className="flex flex-wrap items-center gap-1.5">
            <li>
              <Link to="/content" className="hover:text-foreground hover:underline">
                Content &amp; Modules Hub
              </Link>
            </li>
            <li aria-hidden="true">/</li>
            <li aria-current="page" className="font-mono text-xs wrap-anywhere">
              {asset.job_code}
            </li>
          </ol>
        </nav>
        <div className="flex flex-col gap-3 lg:flex-row lg:items-start lg:justify-between">
          <div className="grid min-w-0 gap-2">
            <h1 className="text-2xl leading-8 font-semibold tracking-tight wrap-anywhere">{asset.title}</h1>
            <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
              <Badge variant={assetStatusVariant(asset.status)} data-testid="asset-status">
                {assetStatusLabel(asset.status)}
              </Badge>
              <Badge variant="outline">{assetTypeLabel(asset.type)}</Badge>
              <span className="font-mono text-xs text-foreground wrap-anywhere">{asset.job_code}</span>
              {product ? (
                <>
                  <span aria-hidden="true">·</span>
                  <span className="wrap-anywhere">{product.brand_name}</span>
                </>
              ) : null}
              {expiry ? (
                <Badge variant={expiry === "expired" ? "red" : "amber"}>
                  <AlertTriangle aria-hidden="true" className="size-3" />
                  {expiry === "expired" ? "Past expiry" : "Expires soon"}
                </Badge>
              ) : null}
            </div>
            {panelReady ? <ReviewStrip asset={asset} /> : null}
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {versions.length > 0 && shown ? (
              <>
                <label htmlFor={versionSelectId} className="sr-only">
                  Version
                </label>
                <NativeSelect
                  id={versionSelectId}
                  value={String(shown.number)}
                  onChange={(e) => {
                    view(Number(e.target.value));
                  }}
                  className="w-auto max-w-full min-w-40"
                >
                  {versions.map((v) => (
                    <option key={v.id} value={v.number}>
                      {versionLabel(v)}
                    </option>
                  ))}
                </NativeSelect>
              </>
            ) : null}
            {mayRequestReview ? (
              <Button
                onClick={() => {
                  setReviewDialog({ kind: "submit" });
                }}
              >
                <Send aria-hidden="true" /> {asset.status === "changes_requested" ? "Resubmit" : "Submit for review"}
              </Button>
            ) : null}
            {writer ? (
              <>
                {newVersionButton}
                {!archived ? (
                  <>
                    <Button
                      variant="outline"
                      onClick={() => {
                        setDialog("details");
                      }}
                    >
                      <Settings2 aria-hidden="true" /> Edit details
                    </Button>
                    <Button
                      variant="ghost"
                      onClick={() => {
                        setDialog("archive");
                      }}
                    >
                      <Archive aria-hidden="true" /> Archive
                    </Button>
                  </>
                ) : null}
              </>
            ) : readOnly ? (
              <ReadOnlyNote />
            ) : null}
          </div>
        </div>
      </header>

      <div
        className={cn(
          "grid min-w-0 items-start gap-5 lg:grid-cols-[minmax(0,1fr)_22rem] xl:grid-cols-[minmax(0,1fr)_24rem]",
          // The reference beside the version: the two documents share the width, the panel goes under
          // them (beside them on the widest screens).
          reference && split && "xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] 2xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_22rem]",
        )}
      >
        <Card ref={viewerCard} className="min-w-0 scroll-mt-20 gap-0 overflow-hidden p-0">
          {compare ? (
            <CompareView
              versions={versions}
              from={compare[0]}
              to={compare[1]}
              onChange={openCompare}
              onClose={() => {
                update((p) => {
                  p.delete("compare");
                });
              }}
            />
          ) : shown ? (
            <>
              {current && shown.id !== current.id ? (
                <div className="flex flex-wrap items-center justify-between gap-2 border-b bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:bg-amber-950/50 dark:text-amber-100">
                  <span>
                    You are viewing v{shown.number}; the current version is v{current.number}.
                  </span>
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => {
                      view(current.number);
                    }}
                  >
                    Show current
                  </Button>
                </div>
              ) : null}
              <VersionViewer key={shown.id} version={shown} title={`${asset.title}, v${shown.number}`} onShown={showPanel} annotations={annotationProps} />
            </>
          ) : (
            <EmptyState icon={FileText} title="No versions yet" className="m-6">
              {writer ? "Add the first version by uploading a file or writing the text." : "Nobody has added a version yet."}
            </EmptyState>
          )}
        </Card>

        {reference && split ? (
          <ReferencePane
            view={reference}
            layout="split"
            onPick={(passage) => {
              pickPassage(passage);
            }}
            onClose={closeReference}
          />
        ) : null}

        <div className={cn("grid min-w-0 content-start gap-5", reference && split && "xl:col-span-2 xl:grid-cols-2 2xl:col-span-1 2xl:grid-cols-1")}>
          <Card id="review" className="min-w-0 scroll-mt-20 p-4" data-testid="review-card">
            {!panelReady ? (
              <PanelSkeleton label="Loading the review" rows={4} />
            ) : (
              <ReviewCard
                asset={asset}
                versions={versions}
                people={people.data ?? []}
                viewer={viewer}
                onOpen={setReviewDialog}
                onShowThread={(threadId, annotationId) => {
                  void showChangeThread(threadId, annotationId);
                }}
              />
            )}
          </Card>
          {shown && !compare ? (
            <Card id="findings" className="min-w-0 scroll-mt-20 p-4" data-testid="findings-card">
              <FindingsPanel
                assetId={asset.id}
                versionNumber={shown.number}
                isCurrent={isCurrent}
                data={findings.data}
                isPending={findings.isPending}
                isError={findings.isError}
                onRetry={() => void findings.refetch()}
                selected={selectedFinding}
                mayDismiss={canDismissFinding(viewer) && !archived}
                mayReopen={canReopenFinding(viewer) && !archived}
                onShow={showFinding}
                onDismiss={setDismissing}
              />
            </Card>
          ) : null}
          {shown && !compare ? (
            <Card id="comments" className="min-w-0 scroll-mt-20 p-4" data-testid="comments-card">
              {!panelReady ? (
                <PanelSkeleton label="Loading the comments" rows={3} />
              ) : (
                <AnnotationPanel
                  assetId={asset.id}
                  versionId={shown.id}
                  versionNumber={shown.number}
                  isCurrent={isCurrent}
                  threads={threads}
                  people={mentionable}
                  viewer={viewer}
                  selected={selected}
                  rendition={renditionOf(shown)}
                  onShow={showThread}
                  onOpenReference={openReference}
                />
              )}
            </Card>
          ) : null}
        <Card className="min-w-0 gap-0 p-4">
          {!panelReady ? (
            <PanelSkeleton />
          ) : (
          <Tabs value={tab} onValueChange={setTab}>
            <TabsList className="grid w-full grid-cols-3">
              <TabsTrigger value="details">Details</TabsTrigger>
              <TabsTrigger value="versions">
                Versions
                <span className="rounded-full bg-muted px-1.5 text-xs tabular-nums">{versions.length}</span>
              </TabsTrigger>
              <TabsTrigger value="modules">Modules</TabsTrigger>
            </TabsList>
            <TabsContent value="details">
              <DetailsPanel asset={asset} version={shown} versions={versions} product={product} owner={owner} />
            </TabsContent>
            <TabsContent value="versions">
              <VersionsPanel
                asset={asset}
                versions={versions}
                people={people.data ?? []}
                shown={compare ? undefined : shown?.number}
                onView={view}
                onCompare={openCompare}
              />
            </TabsContent>
            <TabsContent value="modules">
              <h3 className="sr-only">Modules used in v{shown?.number}</h3>
              <ModulesPanel version={shown} />
            </TabsContent>
          </Tabs>
          )}
        </Card>
        </div>
      </div>

      {reference && !split ? (
        <ReferencePane
          view={reference}
          layout="sheet"
          onPick={(passage) => {
            pickPassage(passage);
          }}
          onClose={closeReference}
        />
      ) : null}

      {draft && shown && !picking ? (
        <Suspense fallback={null}>
          <AnnotateDialog
            assetId={asset.id}
            versionId={shown.id}
            draft={draft}
            people={mentionable}
            image={renditionOf(shown) === "image"}
            onPickPassage={(d) => {
              setDraft(d);
              setReference({ referenceId: d.values.reference_id, page: Number(d.values.reference_page) || 1, quote: d.values.reference_quote, mode: "pick" });
            }}
            onCreated={(a) => {
              selectThread(a.thread_id);
            }}
            onClose={() => {
              setDraft(null);
              setReference((r) => (r?.mode === "pick" ? null : r));
            }}
          />
        </Suspense>
      ) : null}

      {reviewDialog && !readOnly ? (
        <Suspense fallback={null}>
          <ReviewDialogHost
            dialog={reviewDialog}
            context={{
              asset,
              versions,
              rounds: rounds.data?.length ?? 0,
              orgId: profile.data?.org_id ?? null,
              signerName: signerName(profile.data?.full_name, user?.email),
              hasAuthenticator: self.data?.mfa_enabled === true,
            }}
            onClose={() => {
              setReviewDialog(null);
            }}
          />
        </Suspense>
      ) : null}

      {writer ? (
        <>
          {dialog === "upload" || dialog === "edit" ? (
            <Suspense fallback={null}>
              <NewVersionDialog
                assetId={asset.id}
                versions={versions}
                open
                initialMode={dialog}
                onOpenChange={(o) => {
                  if (!o) setDialog(null);
                }}
                onCreated={async () => {
                  await refresh();
                  update((p) => {
                    p.delete("v");
                    p.delete("compare");
                  });
                }}
              />
            </Suspense>
          ) : null}
          {dialog === "details" ? (
            <Suspense fallback={null}>
              <EditDetailsDialog
                asset={asset}
                products={products.data ?? []}
                people={people.data ?? []}
                onClose={() => {
                  setDialog(null);
                }}
              />
            </Suspense>
          ) : null}
          <ArchiveDialog
            asset={asset}
            open={dialog === "archive"}
            onOpenChange={(o) => {
              if (!o) setDialog(null);
            }}
            onArchived={refresh}
          />
        </>
      ) : null}
      {dismissing ? (
        <DismissFindingDialog
          assetId={asset.id}
          finding={dismissing}
          onClose={() => {
            setDismissing(null);
          }}
        />
      ) : null}
    </div>
  );
}

/** Shows one version with its annotations; `onShown` is called once a PDF's first page is painted. */
function VersionViewer({ version, title, onShown, annotations }: { version: VersionSummary; title: string; onShown: () => void; annotations: AnnotationProps }) {
  const rendition = renditionOf(version);
  if (rendition === "authored") return <AnnotatedAuthored html={version.content_html ?? ""} title={title} annotations={annotations} />;
  if (rendition === "pdf" && version.file_bucket && version.file_path) {
    return <AnnotatedPdf version={{ ...version, file_bucket: version.file_bucket, file_path: version.file_path }} title={title} onShown={onShown} annotations={annotations} />;
  }
  if (rendition === "image" && version.file_bucket && version.file_path) {
    return <AnnotatedImage bucket={version.file_bucket} path={version.file_path} alt={title} annotations={annotations} />;
  }
  return (
    <EmptyState icon={FileQuestion} title="This file cannot be shown here" className="m-6">
      {version.file_name ?? "The file"} is stored with the asset but Fairbalance cannot display its type.
    </EmptyState>
  );
}

function PanelSkeleton({ label = "Loading the details", rows = 8 }: { label?: string; rows?: number }) {
  return (
    <div className="grid content-start gap-3" aria-busy="true" aria-label={label}>
      <Skeleton className="h-9 w-full" />
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-5 w-full" />
      ))}
    </div>
  );
}

function AssetSkeleton() {
  return (
    <div className="grid gap-5" aria-busy="true" aria-label="Loading the asset">
      <div className="grid gap-3">
        <Skeleton className="h-4 w-48" />
        <Skeleton className="h-8 w-2/3 max-w-xl" />
        <div className="flex gap-2">
          <Skeleton className="h-5 w-20 rounded-full" />
          <Skeleton className="h-5 w-24 rounded-full" />
          <Skeleton className="h-5 w-28" />
        </div>
      </div>
      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_22rem] xl:grid-cols-[minmax(0,1fr)_24rem]">
        <Skeleton className="h-[min(78dvh,60rem)] w-full rounded-xl" />
        <div className="grid content-start gap-3 rounded-xl border bg-card p-4">
          <Skeleton className="h-9 w-full" />
          {Array.from({ length: 8 }, (_, i) => (
            <Skeleton key={i} className="h-5 w-full" />
          ))}
        </div>
      </div>
    </div>
  );
}

function AssetNotFound() {
  useDocumentTitle("Asset not found");
  return (
    <div className="mx-auto grid w-full max-w-lg gap-4 py-12 text-center">
      <span className="mx-auto inline-flex size-12 items-center justify-center rounded-full bg-muted">
        <FileQuestion aria-hidden="true" className="size-6 text-muted-foreground" />
      </span>
      <h1 className="text-2xl font-semibold tracking-tight">Asset not found</h1>
      <p className="text-sm leading-6 text-muted-foreground">
        There is no asset at this address in your organisation. It may have been moved, or the link may be incomplete.
      </p>
      <div>
        <Link to="/content" className={buttonVariants({ variant: "outline" })}>
          Go to the Content &amp; Modules Hub
        </Link>
      </div>
    </div>
  );
}

function AssetError({ onRetry }: { onRetry: () => void }) {
  useDocumentTitle("Asset");
  return (
    <div className="grid max-w-2xl gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">Asset</h1>
      <Alert variant="destructive">
        <AlertTriangle aria-hidden="true" />
        <AlertTitle>The asset could not be loaded.</AlertTitle>
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
