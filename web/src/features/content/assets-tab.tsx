import { useInfiniteQuery, useQuery, type UseQueryResult } from "@tanstack/react-query";
import { ChevronRight, FilePlus2, FileSearch, Files } from "lucide-react";
import { useMemo } from "react";
import { Link, useNavigate } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { MemberAvatar } from "@/components/ui/member-avatar";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { assetStatusLabel, assetStatusVariant, assetTypeLabel, searchKindLabel, statusBadge } from "@/lib/content-types";
import { formatRelativeTime } from "@/lib/format-time";
import { type Asset, assetListQuery } from "@/entities/assets";
import { type ContentFilters, type SearchAnswer, searchQuery, type SearchResult } from "@/entities/content";
import type { Member } from "@/entities/members";
import type { Product } from "@/entities/products";
import { Expiry, ListSkeleton, LoadError, LoadMore, Meta, Snippet } from "./parts";
import { type SortKey, SORTS } from "./tabs";
import { useMediaQuery } from "@/lib/use-media-query";

interface Props {
  filters: ContentFilters;
  sort: SortKey;
  query: string;
  canWrite: boolean;
  products: Product[];
  members: Member[];
  onCreate: () => void;
  filtered: boolean;
}

/** The assets list (keyset pages) or, while searching, the ranked matches. */
export function AssetsTab(props: Props) {
  return props.query ? <AssetSearch {...props} /> : <AssetList {...props} />;
}

function AssetList({ filters, sort, canWrite, products, members, onCreate, filtered }: Props) {
  const wide = useMediaQuery("(min-width: 768px)");
  const list = useInfiniteQuery(assetListQuery(filters, SORTS[sort].spec));
  const rows = useMemo(() => list.data?.pages.flat() ?? [], [list.data]);
  const productName = useMemo(() => new Map(products.map((p) => [p.id, p.brand_name])), [products]);
  const memberById = useMemo(() => new Map(members.map((m) => [m.id, m])), [members]);

  if (list.isPending) return <ListSkeleton />;
  if (list.isError) return <LoadError what="assets" error={list.error} onRetry={() => void list.refetch()} />;
  if (rows.length === 0) {
    return filtered ? (
      <EmptyState icon={FileSearch} title="No assets match these filters">
        Change or clear the filters above to see more.
      </EmptyState>
    ) : (
      <EmptyState
        icon={Files}
        title="No assets yet"
        action={
          canWrite ? (
            <Button onClick={onCreate}>
              <FilePlus2 aria-hidden="true" />
              New asset
            </Button>
          ) : null
        }
      >
        {canWrite
          ? "Compose an email, web page or detail aid in the editor, or upload a PDF or image, to start its review."
          : "Assets appear here once your marketers create them."}
      </EmptyState>
    );
  }

  const shared = { productName, memberById };
  return (
    <div className="grid grid-cols-1 gap-3">
      {wide ? <AssetTable rows={rows} {...shared} /> : <AssetCards rows={rows} {...shared} />}
      <LoadMore
        shown={rows.length}
        hasMore={list.hasNextPage}
        loading={list.isFetchingNextPage}
        onMore={() => void list.fetchNextPage()}
      />
    </div>
  );
}

interface RowProps {
  rows: Asset[];
  productName: Map<string, string>;
  memberById: Map<string, Member>;
}

function Owner({ member, compact = false }: { member: Member | undefined; compact?: boolean }) {
  if (!member) return <span className="text-muted-foreground">—</span>;
  const name = member.full_name || member.email;
  return (
    <span className="flex min-w-0 items-center gap-2">
      <MemberAvatar name={member.full_name} email={member.email} src={member.avatar_url || null} className="size-6 text-[10px]" />
      <span className={compact ? "truncate" : "truncate text-sm"}>{name}</span>
    </span>
  );
}

function AssetTable({ rows, productName, memberById }: RowProps) {
  const navigate = useNavigate();
  return (
    <div className="overflow-hidden rounded-xl border bg-card">
      <Table className="table-fixed" aria-label="Assets">
        <colgroup>
          <col />
          <col className="w-28" />
          <col className="hidden w-32 xl:table-column" />
          <col className="w-36" />
          <col className="w-14" />
          <col className="hidden w-44 lg:table-column" />
          <col className="w-24" />
          <col className="w-36" />
        </colgroup>
        <TableHeader>
          <TableRow>
            <TableHead>Asset</TableHead>
            <TableHead>Type</TableHead>
            <TableHead className="hidden xl:table-cell">Product</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="text-right">Ver.</TableHead>
            <TableHead className="hidden lg:table-cell">Owner</TableHead>
            <TableHead>Updated</TableHead>
            <TableHead>Expiry</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((a) => (
            <TableRow
              key={a.id}
              className="cursor-pointer"
              onClick={(e) => {
                if ((e.target as HTMLElement).closest("a")) return;
                void navigate(`/assets/${a.id}`);
              }}
            >
              <TableCell className="min-w-0">
                <Link
                  to={`/assets/${a.id}`}
                  title={a.title}
                  className="line-clamp-2 font-medium break-words hover:underline focus-visible:underline focus-visible:outline-none"
                >
                  {a.title}
                </Link>
                <span className="block truncate font-mono text-xs text-muted-foreground">{a.job_code}</span>
              </TableCell>
              <TableCell className="truncate text-sm">{assetTypeLabel(a.type)}</TableCell>
              <TableCell className="hidden truncate text-sm xl:table-cell">{a.product_id ? (productName.get(a.product_id) ?? "—") : "—"}</TableCell>
              <TableCell>
                <Badge variant={assetStatusVariant(a.status)}>{assetStatusLabel(a.status)}</Badge>
              </TableCell>
              <TableCell className="text-right text-sm tabular-nums">{a.current_version_number ? `v${a.current_version_number}` : "—"}</TableCell>
              <TableCell className="hidden lg:table-cell">
                <Owner member={a.owner_id ? memberById.get(a.owner_id) : undefined} />
              </TableCell>
              <TableCell className="text-sm whitespace-nowrap text-muted-foreground" title={a.updated_at}>
                {formatRelativeTime(a.updated_at)}
              </TableCell>
              <TableCell className="text-sm">
                <Expiry date={a.expires_at} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

function AssetCards({ rows, productName, memberById }: RowProps) {
  return (
    <ul className="grid grid-cols-1 gap-2" aria-label="Assets">
      {rows.map((a) => (
        <li key={a.id}>
          <Link
            to={`/assets/${a.id}`}
            className="block rounded-xl border bg-card p-4 transition-colors hover:bg-accent/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="line-clamp-2 font-medium break-words">{a.title}</p>
                <p className="truncate font-mono text-xs text-muted-foreground">{a.job_code}</p>
              </div>
              <Badge variant={assetStatusVariant(a.status)}>{assetStatusLabel(a.status)}</Badge>
            </div>
            <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2">
              <Meta label="Type">{assetTypeLabel(a.type)}</Meta>
              <Meta label="Product">{a.product_id ? (productName.get(a.product_id) ?? "—") : "—"}</Meta>
              <Meta label="Owner">
                <Owner member={a.owner_id ? memberById.get(a.owner_id) : undefined} compact />
              </Meta>
              <Meta label="Expiry">
                <Expiry date={a.expires_at} />
              </Meta>
            </dl>
            <p className="mt-3 text-xs text-muted-foreground">
              {a.current_version_number ? `Version ${a.current_version_number} · ` : ""}Updated {formatRelativeTime(a.updated_at)}
            </p>
          </Link>
        </li>
      ))}
    </ul>
  );
}

function AssetSearch({ query, filters }: Props) {
  const search = useQuery(searchQuery("asset", query, filters));
  return <SearchResults query={query} search={search} what="assets" />;
}

/**
 * Ranked search matches with highlighted snippets; `onSelect` opens a
 * non-asset match. An asset found only in an older version says which one
 * and opens at it.
 */
export function SearchResults({
  query,
  search,
  what,
  onSelect,
}: {
  query: string;
  search: UseQueryResult<SearchAnswer>;
  what: string;
  onSelect?: (result: SearchResult) => void;
}) {
  if (search.isPending) return <ListSkeleton rows={4} />;
  if (search.isError) return <LoadError what="search results" error={search.error} onRetry={() => void search.refetch()} />;
  const results = search.data.results;
  if (results.length === 0) {
    return (
      <EmptyState icon={FileSearch} title={`No ${what} match “${query}”`}>
        Try another word, a job code, or fewer filters. Search looks at titles, job codes and the text of every version.
      </EmptyState>
    );
  }
  return (
    <div className="grid grid-cols-1 gap-2">
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {results.length} {results.length === 1 ? "match" : "matches"}, best first
      </p>
      <ul className="grid grid-cols-1 gap-2" aria-label="Search results">
        {results.map((r) => {
          const body = (
            <>
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <p className="truncate font-medium">{r.title}</p>
                  {r.subtitle ? <p className="truncate font-mono text-xs text-muted-foreground">{r.subtitle}</p> : null}
                </div>
                <span className="flex shrink-0 items-center gap-2">
                  {r.kind !== "asset" ? <Badge variant="outline">{searchKindLabel(r.kind)}</Badge> : null}
                  {r.status ? <Badge variant={statusBadge(r.kind, r.status).variant}>{statusBadge(r.kind, r.status).label}</Badge> : null}
                  <ChevronRight aria-hidden="true" className="size-4 text-muted-foreground" />
                </span>
              </div>
              {r.version ? (
                <p className="mt-2 text-xs font-medium text-muted-foreground">Found in v{r.version}, an earlier version</p>
              ) : null}
              {r.snippet ? <Snippet text={r.snippet} className="mt-2 line-clamp-3" /> : null}
            </>
          );
          const cls =
            "block w-full rounded-xl border bg-card p-4 text-left transition-colors hover:bg-accent/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none";
          const assetId = r.kind === "asset" ? r.id : r.asset_id;
          return (
            <li key={`${r.kind}:${r.id}`}>
              {assetId && !onSelect ? (
                <Link to={r.version ? `/assets/${assetId}?v=${r.version}` : `/assets/${assetId}`} className={cls}>
                  {body}
                </Link>
              ) : (
                <button type="button" className={cls} onClick={() => onSelect?.(r)}>
                  {body}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
