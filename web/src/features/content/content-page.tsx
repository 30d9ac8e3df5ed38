import { useQuery } from "@tanstack/react-query";
import { FilePlus2, Plus, Search, SlidersHorizontal, X } from "lucide-react";
import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { NativeSelect } from "@/components/ui/select";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { contentCountsQuery, type ContentFilters } from "@/entities/content";
import { membersQuery } from "@/entities/members";
import { productsQuery } from "@/entities/products";
import { useProfile } from "@/entities/profile";
import {
  ASSET_STATUSES,
  ASSET_TYPES,
  assetStatusLabel,
  assetTypeLabel,
  CLAIM_STATUSES,
  canWriteContent,
  claimStatusLabel,
  MODULE_KINDS,
  MODULE_STATUSES,
  moduleKindLabel,
  moduleStatusLabel,
  REFERENCE_KINDS,
  REFERENCE_STATUSES,
  referenceKindLabel,
  referenceStatusLabel,
} from "@/lib/content-types";
import { useReadOnly } from "@/lib/auth";
import { useDocumentTitle } from "@/lib/use-document-title";
import { cn } from "@/lib/utils";
import { AssetsTab } from "./assets-tab";
import { ClaimsTab, ModulesTab, ReferencesTab } from "./library-tabs";
import { type SortKey, SORTS, type Tab, TAB_SORTS, TABS } from "./tabs";
import { useMediaQuery } from "@/lib/use-media-query";

// The create dialog carries the editor (ProseMirror); it loads on first use.
const CreateAssetDialog = lazy(() => import("./create-asset-dialog").then((m) => ({ default: m.CreateAssetDialog })));

const TAB_LABELS: Record<Tab, string> = {
  assets: "Assets",
  modules: "Modules",
  claims: "Claims",
  references: "References",
};

const FILTER_KEYS = ["status", "type", "product", "owner", "market"] as const;

/** Markets offered even before products name any. */
const COMMON_MARKETS = ["US", "EU", "UK", "CA", "JP"];

function parseTab(value: string | null): Tab {
  return (TABS as readonly string[]).includes(value ?? "") ? (value as Tab) : "assets";
}

function parseSort(value: string | null, tab: Tab): SortKey {
  return (TAB_SORTS[tab] as readonly string[]).includes(value ?? "") ? (value as SortKey) : "updated";
}

interface Option {
  value: string;
  label: string;
}

function options<T extends string>(values: readonly T[], label: (v: T) => string): Option[] {
  return values.map((v) => ({ value: v, label: label(v) }));
}

function FilterSelect({
  label,
  all,
  value,
  choices,
  onChange,
  className,
}: {
  className?: string;
  label: string;
  all: string;
  value: string;
  choices: Option[];
  onChange: (value: string) => void;
}) {
  const known = value === "" || choices.some((c) => c.value === value);
  return (
    <NativeSelect
      aria-label={label}
      value={value}
      className={cn("min-w-0 sm:w-40", value && "[&_select]:border-primary/60 [&_select]:bg-primary/5", className)}
      onChange={(e) => {
        onChange(e.target.value);
      }}
    >
      <option value="">{all}</option>
      {choices.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
      {known ? null : <option value={value}>{value}</option>}
    </NativeSelect>
  );
}

/**
 * The Content & Modules Hub (/content, /content-hub): the organisation's
 * assets, modules, claims and references in tabs, with filters, sort and
 * ranked full-text search kept in the URL (so any view can be shared), lists
 * read by keyset in pages of 25, and — for owners, admins and marketers —
 * creating assets (composed in the editor or uploaded) and library items.
 * The server decides what each member may see and change; the buttons only
 * spare people a refusal.
 */
export function ContentPage() {
  useDocumentTitle("Content & Modules Hub");
  const [params, setParams] = useSearchParams();
  const profile = useProfile();
  // The read-only demo shows the library but offers no way to change it.
  const readOnly = useReadOnly();
  const canWrite = canWriteContent(profile.data?.role) && !readOnly;
  const tab = parseTab(params.get("tab"));
  const sort = parseSort(params.get("sort"), tab);
  const query = params.get("q") ?? "";
  const filters: ContentFilters = useMemo(
    () => ({
      status: params.get("status") ?? "",
      type: params.get("type") ?? "",
      product: params.get("product") ?? "",
      owner: params.get("owner") ?? "",
      market: params.get("market") ?? "",
    }),
    [params],
  );
  const creating = params.get("new") === "1" && canWrite;

  const inline = useMediaQuery("(min-width: 640px)");
  const [filtersOpen, setFiltersOpen] = useState(false);
  const counts = useQuery(contentCountsQuery());
  const products = useQuery(productsQuery());
  const members = useQuery(membersQuery(profile.data?.org_id));

  const update = (changes: Record<string, string | null>, replace = false) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === "") next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace });
  };

  // The search box updates the URL 300 ms after typing stops.
  const [typed, setTyped] = useState(query);
  const [lastQuery, setLastQuery] = useState(query);
  if (query !== lastQuery) {
    setLastQuery(query);
    setTyped(query);
  }
  useEffect(() => {
    if (typed.trim() === query.trim()) return;
    const timer = setTimeout(() => {
      const next = new URLSearchParams(window.location.search);
      if (typed.trim() === "") next.delete("q");
      else next.set("q", typed);
      setParams(next, { replace: true });
    }, 300);
    return () => {
      clearTimeout(timer);
    };
  }, [typed, query, setParams]);

  const productOptions = useMemo(
    () => (products.data ?? []).map((p) => ({ value: p.id, label: p.active ? p.brand_name : `${p.brand_name} (inactive)` })),
    [products.data],
  );
  // Only authors own content (owners, admins, marketers: product.md §2);
  // a member chosen in the URL stays listed so the filter shows what it is.
  const ownerOptions = useMemo(
    () =>
      (members.data ?? [])
        .filter((m) => canWriteContent(m.role) || m.id === filters.owner)
        .map((m) => ({ value: m.id, label: m.full_name || m.email })),
    [members.data, filters.owner],
  );
  const marketOptions = useMemo(() => {
    const set = new Set(COMMON_MARKETS);
    for (const p of products.data ?? []) for (const m of p.markets) set.add(m);
    return [...set].sort().map((m) => ({ value: m, label: m }));
  }, [products.data]);

  const setFilter = (key: (typeof FILTER_KEYS)[number]) => (value: string) => {
    update({ [key]: value });
  };
  const activeFilters = FILTER_KEYS.filter((k) => filters[k] !== "").length;
  const count = (t: Tab) => counts.data?.[t];

  // Library items are created in dialogs opened through the URL (?new=module…).
  const libraryCreate = (noun: string) => ({
    creating: canWrite && params.get("new") === noun,
    onCreate: () => {
      update({ new: noun });
    },
    onCreateClosed: () => {
      update({ new: null }, true);
    },
  });
  const NOUNS: Partial<Record<Tab, string>> = { modules: "module", claims: "claim", references: "reference" };
  const noun = NOUNS[tab];

  const openCreate = () => {
    update({ new: "1" });
  };
  const closeCreate = () => {
    update({ new: null }, true);
  };

  return (
    <div className="grid min-w-0 grid-cols-1 gap-6">
      <PageHeader
        title="Content & Modules Hub"
        description="Every asset your team is creating or has approved, and the modules, claims and references they are built from."
        actions={
          canWrite ? (
            <Button onClick={openCreate}>
              <FilePlus2 aria-hidden="true" />
              New asset
            </Button>
          ) : readOnly ? (
            <ReadOnlyNote />
          ) : null
        }
      />

      <Tabs
        value={tab}
        onValueChange={(value) => {
          const next = new URLSearchParams();
          if (value !== "assets") next.set("tab", value);
          if (query) next.set("q", query);
          setParams(next);
        }}
        className="min-w-0"
      >
        <div className="-mx-1 overflow-x-auto px-1 pb-1">
          <TabsList aria-label="Content library">
            {TABS.map((t) => (
              <TabsTrigger key={t} value={t} className="px-2.5 sm:px-3">
                {TAB_LABELS[t]}
                <span
                  className="min-w-5 rounded-full bg-muted-foreground/10 px-1.5 text-xs leading-5 font-medium tabular-nums"
                  aria-label={count(t) === undefined ? undefined : `${count(t)} items`}
                >
                  {count(t) ?? "·"}
                </span>
              </TabsTrigger>
            ))}
          </TabsList>
        </div>

        <div className="mt-4 grid gap-2">
          <div className="flex gap-2">
            <div className="relative min-w-0 flex-1 sm:max-w-xl">
              <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
              <Input
                type="search"
                value={typed}
                aria-label={`Search ${TAB_LABELS[tab].toLowerCase()}`}
                placeholder={`Search ${TAB_LABELS[tab].toLowerCase()} by any word…`}
                className="pr-9 pl-9 [&::-webkit-search-cancel-button]:appearance-none"
                onChange={(e) => {
                  setTyped(e.target.value);
                }}
              />
              {typed ? (
                <button
                  type="button"
                  aria-label="Clear search"
                  className="absolute top-1/2 right-2 inline-flex size-6 -translate-y-1/2 items-center justify-center rounded text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  onClick={() => {
                    setTyped("");
                    update({ q: null }, true);
                  }}
                >
                  <X aria-hidden="true" className="size-4" />
                </button>
              ) : null}
            </div>
            {inline ? null : (
              <Button
                variant="outline"
                className="h-10 shrink-0"
                aria-expanded={filtersOpen}
                aria-controls="content-filters"
                onClick={() => {
                  setFiltersOpen((o) => !o);
                }}
              >
                <SlidersHorizontal aria-hidden="true" />
                Filters
                {activeFilters > 0 ? <span className="rounded-full bg-primary px-1.5 text-xs leading-5 text-primary-foreground">{activeFilters}</span> : null}
              </Button>
            )}
            {canWrite && noun ? (
              <Button
                variant="outline"
                className="ml-auto h-10 shrink-0"
                onClick={() => {
                  update({ new: noun });
                }}
              >
                <Plus aria-hidden="true" />
                <span className={inline ? undefined : "sr-only"}>New {noun}</span>
              </Button>
            ) : null}
          </div>
          <div id="content-filters" className={cn("grid grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:items-center", !inline && !filtersOpen && "hidden")}>
            {tab === "assets" ? (
              <>
                <FilterSelect label="Status" all="All statuses" value={filters.status} choices={options(ASSET_STATUSES, assetStatusLabel)} onChange={setFilter("status")} />
                <FilterSelect label="Type" all="All types" value={filters.type} choices={options(ASSET_TYPES, assetTypeLabel)} onChange={setFilter("type")} />
                <FilterSelect label="Product" all="All products" value={filters.product} choices={productOptions} onChange={setFilter("product")} />
                <FilterSelect label="Owner" all="All owners" value={filters.owner} choices={ownerOptions} onChange={setFilter("owner")} />
                <FilterSelect label="Market" all="All markets" value={filters.market} choices={marketOptions} onChange={setFilter("market")} />
              </>
            ) : null}
            {tab === "modules" ? (
              <>
                <FilterSelect label="Status" all="All statuses" value={filters.status} choices={options(MODULE_STATUSES, moduleStatusLabel)} onChange={setFilter("status")} />
                <FilterSelect label="Kind" all="All kinds" value={filters.type} choices={options(MODULE_KINDS, moduleKindLabel)} onChange={setFilter("type")} />
                <FilterSelect label="Product" all="All products" value={filters.product} choices={productOptions} onChange={setFilter("product")} />
              </>
            ) : null}
            {tab === "claims" ? (
              <>
                <FilterSelect label="Status" all="All statuses" value={filters.status} choices={options(CLAIM_STATUSES, claimStatusLabel)} onChange={setFilter("status")} />
                <FilterSelect label="Product" all="All products" value={filters.product} choices={productOptions} onChange={setFilter("product")} />
              </>
            ) : null}
            {tab === "references" ? (
              <>
                <FilterSelect label="Status" all="All statuses" value={filters.status} choices={options(REFERENCE_STATUSES, referenceStatusLabel)} onChange={setFilter("status")} />
                <FilterSelect label="Kind" all="All kinds" value={filters.type} choices={options(REFERENCE_KINDS, referenceKindLabel)} onChange={setFilter("type")} />
              </>
            ) : null}
            {query ? null : (
              <FilterSelect
                className="sm:ml-auto sm:w-48"
                label="Sort by"
                all={`Sort: ${SORTS.updated.label}`}
                value={sort === "updated" ? "" : sort}
                choices={TAB_SORTS[tab].filter((s) => s !== "updated").map((s) => ({ value: s, label: `Sort: ${SORTS[s].label}` }))}
                onChange={(value) => {
                  update({ sort: value });
                }}
              />
            )}
            {activeFilters > 0 ? (
              <Button
                variant="ghost"
                size="sm"
                onClick={() => {
                  update(Object.fromEntries(FILTER_KEYS.map((k) => [k, null])));
                }}
              >
                Clear filters
              </Button>
            ) : null}
          </div>
        </div>

        <TabsContent value="assets">
          <AssetsTab
            filters={filters}
            sort={sort}
            query={query.trim()}
            canWrite={canWrite}
            products={products.data ?? []}
            members={members.data ?? []}
            onCreate={openCreate}
            filtered={activeFilters > 0}
          />
        </TabsContent>
        <TabsContent value="modules">
          <ModulesTab {...libraryCreate("module")} filters={filters} sort={sort} query={query.trim()} canWrite={canWrite} products={products.data ?? []} filtered={activeFilters > 0} />
        </TabsContent>
        <TabsContent value="claims">
          <ClaimsTab {...libraryCreate("claim")} filters={filters} sort={sort} query={query.trim()} canWrite={canWrite} products={products.data ?? []} filtered={activeFilters > 0} />
        </TabsContent>
        <TabsContent value="references">
          <ReferencesTab {...libraryCreate("reference")} filters={filters} sort={sort} query={query.trim()} canWrite={canWrite} products={products.data ?? []} filtered={activeFilters > 0} />
        </TabsContent>
      </Tabs>

      {creating ? (
        <Suspense fallback={null}>
          <CreateAssetDialog
            open
            onOpenChange={(open) => {
              if (!open) closeCreate();
            }}
            products={products.data ?? []}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
