import { type InfiniteData, useInfiniteQuery, type UseInfiniteQueryResult, useQuery } from "@tanstack/react-query";
import { BookOpen, Boxes, Eye, FileSearch, FileText, type LucideIcon, Paperclip, Plus, Quote } from "lucide-react";
import { type ReactNode, useMemo, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { EmptyState } from "@/components/ui/empty-state";
import {
  claimStatusLabel,
  claimStatusVariant,
  moduleKindLabel,
  moduleStatusLabel,
  moduleStatusVariant,
  referenceKindLabel,
  referenceStatusLabel,
  referenceStatusVariant,
} from "@/lib/content-types";
import { errorMessage } from "@/lib/errors";
import { formatRelativeTime } from "@/lib/format-time";
import { type Claim, claimListQuery, fetchClaim } from "@/entities/claims";
import { type ContentFilters, searchQuery, type SearchResult } from "@/entities/content";
import { type ContentModule, fetchModule, moduleListQuery } from "@/entities/modules";
import type { Product } from "@/entities/products";
import { fetchReference, type Reference, referenceListQuery } from "@/entities/references";
import { SearchResults } from "./assets-tab";
import { ClaimDialog } from "./claim-dialog";
import { ModuleDialog } from "./module-dialog";
import { Expiry, ListSkeleton, LoadError, LoadMore } from "./parts";
import { ReferenceDialog } from "./reference-dialog";
import { referencePath } from "@/components/document-viewer/reference-path";
import { type SortKey, SORTS, type Tab, TAB_KIND } from "./tabs";

interface TabProps {
  /** The page asks for the create dialog (`?new=<noun>` in the URL). */
  creating: boolean;
  /** Opens the create dialog (through the URL). */
  onCreate: () => void;
  /** Closes the create dialog. */
  onCreateClosed: () => void;
  filters: ContentFilters;
  sort: SortKey;
  query: string;
  canWrite: boolean;
  products: Product[];
  filtered: boolean;
}

/** What a library tab needs to list its rows and open one. */
interface Spec<T> {
  tab: Exclude<Tab, "assets">;
  /** One row by id (a search match opened). */
  fetch: (id: string) => Promise<T>;
  noun: string;
  plural: string;
  label: string;
  icon: LucideIcon;
  emptyWriter: string;
  emptyReader: string;
  row: (item: T, productName: Map<string, string>) => ReactNode;
  /** Something to do with a row besides opening it, shown beside it (a link to a reference's PDF). */
  aside?: (item: T) => ReactNode;
}

/** The row being edited; undefined when none is. */
type Editing<T> = T | undefined;

/** A resource's list, read by keyset in pages (its infinite query). */
type ListResult<T> = UseInfiniteQueryResult<InfiniteData<T[]>>;

function Library<T extends { id: string }>({
  spec,
  props,
  list,
  onOpen,
}: {
  spec: Spec<T>;
  props: TabProps;
  list: ListResult<T>;
  onOpen: (item: T) => void;
}) {
  const { filters, query, canWrite, products, filtered } = props;
  const search = useQuery(searchQuery(TAB_KIND[spec.tab], query, filters));
  const productName = useMemo(() => new Map(products.map((p) => [p.id, p.brand_name])), [products]);
  const rows = useMemo(() => list.data?.pages.flat() ?? [], [list.data]);
  const Icon = spec.icon;

  const openResult = async (r: SearchResult) => {
    try {
      onOpen(await spec.fetch(r.id));
    } catch (err) {
      toast.error(errorMessage(err, `The ${spec.noun} could not be opened.`));
    }
  };

  const newButton = canWrite ? (
    <Button variant="outline" onClick={props.onCreate}>
      <Plus aria-hidden="true" />
      New {spec.noun}
    </Button>
  ) : null;

  let body: ReactNode;
  if (query) {
    body = <SearchResults query={query} search={search} what={spec.plural} onSelect={(r) => void openResult(r)} />;
  } else if (list.isPending) {
    body = <ListSkeleton />;
  } else if (list.isError) {
    body = <LoadError what={spec.plural} error={list.error} onRetry={() => void list.refetch()} />;
  } else if (rows.length === 0) {
    body = filtered ? (
      <EmptyState icon={FileSearch} title={`No ${spec.plural} match these filters`}>
        Change or clear the filters above to see more.
      </EmptyState>
    ) : (
      <EmptyState icon={Icon} title={`No ${spec.plural} yet`} action={newButton}>
        {canWrite ? spec.emptyWriter : spec.emptyReader}
      </EmptyState>
    );
  } else {
    body = (
      <div className="grid grid-cols-1 gap-3">
        <ul className="divide-y overflow-hidden rounded-xl border bg-card" aria-label={spec.label}>
          {rows.map((item) => {
            const aside = spec.aside?.(item);
            return (
              <li key={item.id} className={aside ? "flex items-stretch" : undefined}>
                <button
                  type="button"
                  className="block w-full min-w-0 px-4 py-3 text-left transition-colors hover:bg-accent/50 focus-visible:bg-accent/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none focus-visible:ring-inset"
                  onClick={() => {
                    onOpen(item);
                  }}
                >
                  {spec.row(item, productName)}
                </button>
                {aside ? <div className="flex shrink-0 items-center pr-2 sm:pr-3">{aside}</div> : null}
              </li>
            );
          })}
        </ul>
        <LoadMore shown={rows.length} hasMore={list.hasNextPage} loading={list.isFetchingNextPage} onMore={() => void list.fetchNextPage()} />
      </div>
    );
  }

  return body;
}

function RowLine({ title, meta, badges, clamp = false }: { title: string; meta: ReactNode; badges: ReactNode; clamp?: boolean }) {
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
      <div className="min-w-0">
        <p className={clamp ? "line-clamp-2 text-sm font-medium" : "truncate text-sm font-medium"}>{title}</p>
        <p className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs text-muted-foreground">{meta}</p>
      </div>
      <div className="flex shrink-0 items-center gap-2">{badges}</div>
    </div>
  );
}

const Dot = () => <span aria-hidden="true">·</span>;

const MODULES: Spec<ContentModule> = {
  tab: "modules",
  fetch: fetchModule,
  noun: "module",
  plural: "modules",
  label: "Modules",
  icon: Boxes,
  emptyWriter: "Modules are approved building blocks — ISI, claims, disclaimers, copy — that authors insert into assets. Create the first one.",
  emptyReader: "Modules appear here once your marketers create them.",
  row: (m, productName) => (
    <RowLine
      title={m.title}
      meta={
        <>
          <span>{moduleKindLabel(m.kind)}</span>
          {m.product_id ? (
            <>
              <Dot />
              <span>{productName.get(m.product_id) ?? "—"}</span>
            </>
          ) : null}
          <Dot />
          <span>Updated {formatRelativeTime(m.updated_at)}</span>
          {m.expires_at ? (
            <>
              <Dot />
              <Expiry date={m.expires_at} />
            </>
          ) : null}
        </>
      }
      badges={<Badge variant={moduleStatusVariant(m.status)}>{moduleStatusLabel(m.status)}</Badge>}
    />
  ),
};

const CLAIMS: Spec<Claim> = {
  tab: "claims",
  fetch: fetchClaim,
  noun: "claim",
  plural: "claims",
  label: "Claims",
  icon: Quote,
  emptyWriter: "Claims are the statements your organisation may make, each substantiated by reference passages. Add the first claim.",
  emptyReader: "Claims appear here once your marketers add them.",
  row: (c, productName) => (
    <RowLine
      clamp
      title={c.text}
      meta={
        <>
          <span>{c.product_id ? (productName.get(c.product_id) ?? "—") : "No product"}</span>
          {c.variants.length > 0 ? (
            <>
              <Dot />
              <span>
                {c.variants.length} {c.variants.length === 1 ? "variant" : "variants"}
              </span>
            </>
          ) : null}
          <Dot />
          <span>Updated {formatRelativeTime(c.updated_at)}</span>
          {c.expires_at ? (
            <>
              <Dot />
              <Expiry date={c.expires_at} />
            </>
          ) : null}
        </>
      }
      badges={<Badge variant={claimStatusVariant(c.status)}>{claimStatusLabel(c.status)}</Badge>}
    />
  ),
};

const REFERENCES: Spec<Reference> = {
  tab: "references",
  fetch: fetchReference,
  noun: "reference",
  plural: "references",
  label: "References",
  icon: BookOpen,
  emptyWriter: "References are the documents that substantiate your claims: prescribing information, studies, data on file. Add one and attach its PDF.",
  emptyReader: "References appear here once your marketers add them.",
  row: (r) => (
    <RowLine
      title={r.title}
      meta={
        <>
          <span>{referenceKindLabel(r.kind)}</span>
          {r.citation ? (
            <>
              <Dot />
              <span className="max-w-[40ch] truncate">{r.citation}</span>
            </>
          ) : null}
          <Dot />
          {r.file_path ? (
            <span className="inline-flex items-center gap-1">
              <Paperclip aria-hidden="true" className="size-3" />
              PDF · {r.page_count} {r.page_count === 1 ? "page" : "pages"}
            </span>
          ) : (
            <span className="inline-flex items-center gap-1">
              <FileText aria-hidden="true" className="size-3" />
              No PDF yet
            </span>
          )}
        </>
      }
      badges={<Badge variant={referenceStatusVariant(r.status)}>{referenceStatusLabel(r.status)}</Badge>}
    />
  ),
  aside: (r) =>
    r.file_path ? (
      <Link to={referencePath(r.id)} className={buttonVariants({ variant: "ghost", size: "sm" })} aria-label={`View PDF of ${r.title}`}>
        <Eye aria-hidden="true" />
        <span className="hidden sm:inline">View PDF</span>
      </Link>
    ) : null,
};

/**
 * One library tab: its list (or search results) and, when a row is opened
 * or "New" was asked for, its dialog (`dialog(null, …)` to create).
 */
function LibraryTab<T extends { id: string }>({
  spec,
  props,
  list,
  dialog,
}: {
  spec: Spec<T>;
  props: TabProps;
  list: ListResult<T>;
  dialog: (item: T | null, onClose: () => void) => ReactNode;
}) {
  const [editing, setEditing] = useState<Editing<T>>(undefined);
  const close = () => {
    if (editing === undefined) props.onCreateClosed();
    setEditing(undefined);
  };
  return (
    <>
      <Library spec={spec} props={props} list={list} onOpen={setEditing} />
      {editing !== undefined || props.creating ? dialog(editing ?? null, close) : null}
    </>
  );
}

/** Modules: list, search, and create/edit for writers. */
export function ModulesTab(props: TabProps) {
  const list = useInfiniteQuery(moduleListQuery(props.filters, SORTS[props.sort].spec, props.query === ""));
  return (
    <LibraryTab
      spec={MODULES}
      props={props}
      list={list}
      dialog={(module, onClose) => (
        <ModuleDialog module={module} products={props.products} canWrite={props.canWrite} onClose={onClose} />
      )}
    />
  );
}

/** Claims: list, search, and create/edit with reference passages for writers. */
export function ClaimsTab(props: TabProps) {
  const list = useInfiniteQuery(claimListQuery(props.filters, SORTS[props.sort].spec, props.query === ""));
  return (
    <LibraryTab
      spec={CLAIMS}
      props={props}
      list={list}
      dialog={(claim, onClose) => (
        <ClaimDialog claim={claim} products={props.products} canWrite={props.canWrite} onClose={onClose} />
      )}
    />
  );
}

/** References: list, search, and create/edit with the PDF upload for writers. */
export function ReferencesTab(props: TabProps) {
  const list = useInfiniteQuery(referenceListQuery(props.filters, SORTS[props.sort].spec, props.query === ""));
  return (
    <LibraryTab
      spec={REFERENCES}
      props={props}
      list={list}
      dialog={(reference, onClose) => <ReferenceDialog reference={reference} canWrite={props.canWrite} onClose={onClose} />}
    />
  );
}
