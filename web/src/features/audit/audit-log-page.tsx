import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ChevronDown, ChevronLeft, ChevronRight, CircleAlert, Download, FileSearch, History, RefreshCw, SlidersHorizontal } from "lucide-react";
import { useCallback, useMemo, useState, useSyncExternalStore } from "react";
import { useSearchParams } from "react-router";
import { toast } from "sonner";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Spinner } from "@/components/ui/spinner";
import { saveBlob } from "@/lib/download";
import { errorMessage } from "@/lib/errors";
import { useDocumentTitle } from "@/lib/use-document-title";
import { cn } from "@/lib/utils";
import { auditKeys, auditSubjectsQuery, subjectRefs } from "@/entities/audit";
import { membersQuery } from "@/entities/members";
import { useProfile } from "@/entities/profile";
import { type AuditEntry, type AuditMember, exportCsv, fetchCount, fetchPage, newerCursor, resolveFilters } from "./api";
import { AuditEntrySheet } from "./audit-entry-sheet";
import { AuditFilterBar } from "./audit-filter-bar";
import { AuditList, AuditSkeleton, AuditTable } from "./audit-table";
import { ChainPanel } from "./chain-panel";
import { type AuditFilters, csvFilename, cursorFromSearch, EMPTY_FILTERS, filtersFromSearch, hasFilters, KNOWN_ACTIONS, searchFromFilters } from "./filters";

/** Wide enough for the table (with the sidebar open); narrower screens get the list. */
const TABLE_QUERY = "(min-width: 1280px)";
/** Wide enough to show the filters without a toggle. */
const FILTERS_QUERY = "(min-width: 640px)";

function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const mq = window.matchMedia(query);
      mq.addEventListener("change", onChange);
      return () => {
        mq.removeEventListener("change", onChange);
      };
    },
    () => window.matchMedia(query).matches,
    () => true,
  );
}

function entryFromSearch(params: URLSearchParams): number | null {
  const raw = params.get("entry");
  return raw && /^\d+$/.test(raw) ? Number(raw) : null;
}

/**
 * The Audit Log (/audit-log): the organisation's hash-chained trail,
 * newest first, filtered by actor, action, object type and period (kept in
 * the URL with the page cursor and the open entry, so any view can be
 * shared), read 50 entries at a time by id so it stays fast at a million
 * entries; entry detail with before/after; CSV export of the current
 * filter; and the chain verification.
 */
export function AuditLogPage() {
  useDocumentTitle("Audit Log");
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const wide = useMediaQuery(TABLE_QUERY);
  const filtersInline = useMediaQuery(FILTERS_QUERY);
  const [filtersOpen, setFiltersOpen] = useState(false);

  const filters = useMemo(() => filtersFromSearch(params), [params]);
  const before = cursorFromSearch(params);
  const entryId = entryFromSearch(params);
  const filterKey = searchFromFilters(filters).toString();

  const profile = useProfile();
  const members = useQuery(membersQuery(profile.data?.org_id));
  const memberMap = useMemo(() => new Map<string, AuditMember>((members.data ?? []).map((m) => [m.id, m])), [members.data]);

  // Actions seen on screen join the suggestions. (Only the built-in list
  // decides exact versus substring matching, so a shared URL means the same
  // thing to everyone.)
  const [seenActions, setSeenActions] = useState<ReadonlySet<string>>(() => new Set(KNOWN_ACTIONS));

  const page = useQuery({
    queryKey: auditKeys.page(filterKey, before),
    queryFn: async ({ signal }) => fetchPage(await resolveFilters(filters), before, signal),
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  });
  const count = useQuery({
    queryKey: auditKeys.count(filterKey),
    queryFn: async ({ signal }) => fetchCount(await resolveFilters(filters), signal),
    staleTime: 15_000,
  });

  const entries = useMemo(() => page.data?.entries ?? [], [page.data]);
  const subjects = useQuery(auditSubjectsQuery(subjectRefs(entries)));
  const newActions = entries.some((e) => !seenActions.has(e.action));
  if (newActions) {
    setSeenActions(new Set([...seenActions, ...entries.map((e) => e.action)]));
  }
  const suggestions = useMemo(() => [...seenActions].sort(), [seenActions]);

  const navigate = useCallback(
    (next: AuditFilters, cursor: number | null, opts: { replace?: boolean; entry?: number | null } = {}) => {
      const search = searchFromFilters(next, cursor);
      const entry = opts.entry === undefined ? entryFromSearch(params) : opts.entry;
      if (entry !== null) search.set("entry", String(entry));
      setParams(search, { replace: opts.replace ?? false });
    },
    [params, setParams],
  );

  const [opened, setOpened] = useState<AuditEntry | undefined>();
  const openEntry = (e: AuditEntry) => {
    setOpened(e);
    navigate(filters, before, { entry: e.id });
  };

  const newer = useMutation({
    mutationFn: async (newestId: number) => newerCursor(await resolveFilters(filters), newestId),
    onSuccess: (cursor) => {
      navigate(filters, cursor, { entry: null });
    },
    onError: (err) => toast.error(errorMessage(err, "Couldn’t load newer entries")),
  });

  const exporter = useMutation({
    mutationFn: async () => exportCsv(await resolveFilters(filters)),
    onSuccess: (blob) => {
      const name = csvFilename();
      saveBlob(blob, name);
      toast.success("Audit log exported", { description: name });
    },
    onError: (err) => toast.error("Export failed", { description: errorMessage(err, "Please try again.") }),
  });

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: auditKeys.all });
  };

  const filtered = hasFilters(filters);
  const activeFilters = [filters.actor, filters.action, filters.type, filters.period].filter(Boolean).length;
  const first = entries[0];
  const last = entries.at(-1);
  // A substring match is not counted on the server, but a first page with
  // nothing older holds every match.
  const total = count.data === null && page.data && !page.isPlaceholderData && before === null && !page.data.hasOlder ? entries.length : count.data;

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Audit Log"
        description="Every change in your organisation — who did what, to which record, and when. Entries are append-only and hash-chained, so any alteration is detectable."
        actions={
          <>
            <Button variant="outline" onClick={refresh} disabled={page.isFetching}>
              <RefreshCw aria-hidden="true" className={cn(page.isFetching && !page.isPending && "animate-spin motion-reduce:animate-none")} />
              Refresh
            </Button>
            <Button
              variant="outline"
              onClick={() => {
                exporter.mutate();
              }}
              disabled={exporter.isPending}
            >
              {exporter.isPending ? <Spinner size="sm" label={null} className="text-current" /> : <Download aria-hidden="true" />}
              {exporter.isPending ? "Exporting…" : "Export CSV"}
            </Button>
          </>
        }
      />

      <ChainPanel members={memberMap} />

      <Card className="p-4 sm:p-5">
        {!filtersInline ? (
          <Button
            variant="outline"
            className="w-full justify-between"
            aria-expanded={filtersOpen}
            aria-controls="audit-filters"
            onClick={() => {
              setFiltersOpen((o) => !o);
            }}
          >
            <span className="inline-flex items-center gap-2">
              <SlidersHorizontal aria-hidden="true" />
              Filters
              {activeFilters > 0 ? (
                <span className="rounded-full bg-primary px-1.5 text-xs leading-5 text-primary-foreground">{activeFilters}</span>
              ) : null}
            </span>
            <ChevronDown aria-hidden="true" className={cn("transition-transform", filtersOpen && "rotate-180")} />
          </Button>
        ) : null}
        <div id="audit-filters" hidden={!filtersInline && !filtersOpen} className={cn(!filtersInline && "mt-4")}>
          <AuditFilterBar
            filters={filters}
            members={members.data ?? []}
            actionSuggestions={suggestions}
            onChange={(next, opts) => {
              navigate(next, null, { replace: opts?.typing ?? false, entry: null });
            }}
          />
        </div>
      </Card>

      <Card
        className="overflow-hidden"
        role="region"
        aria-labelledby="audit-results-title"
        aria-busy={page.isFetching}
        data-testid="audit-results"
        data-view={searchFromFilters(filters, before).toString()}
        data-loaded={!page.isPending && !page.isPlaceholderData}
      >
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 border-b px-4 py-3 sm:px-5">
          <h2 id="audit-results-title" className="text-sm font-semibold">
            {filtered ? "Matching entries" : "All entries"}
          </h2>
          <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="audit-count">
            {count.isPending ? (
              "Counting…"
            ) : count.isError ? (
              "Total unavailable"
            ) : total === null ? (
              <span title="Counting partial action names would read the whole trail; pick a suggested action for an exact count.">
                Partial action match — not counted
              </span>
            ) : (
              <>
                <span className="font-medium text-foreground tabular-nums">{(total ?? 0).toLocaleString("en-US")}</span>{" "}
                {filtered ? (total === 1 ? "entry matches" : "entries match") : total === 1 ? "entry in the trail" : "entries in the trail"}
              </>
            )}
          </p>
        </div>

        {page.isPending ? (
          <>
            <span className="sr-only" role="status">
              Loading audit entries…
            </span>
            <AuditSkeleton />
          </>
        ) : page.isError ? (
          <div className="p-4 sm:p-5">
            <Alert variant="destructive">
              <CircleAlert aria-hidden="true" />
              <AlertTitle>Couldn’t load the audit log</AlertTitle>
              <AlertDescription className="grid gap-3">
                <span>{errorMessage(page.error, "The server did not answer. Please try again.")}</span>
                <span>
                  <Button variant="outline" size="sm" onClick={() => void page.refetch()}>
                    Try again
                  </Button>
                </span>
              </AlertDescription>
            </Alert>
          </div>
        ) : entries.length === 0 ? (
          <div className="p-4 sm:p-5">
            {filtered || before !== null ? (
              <EmptyState
                icon={FileSearch}
                title={before !== null && !filtered ? "No older entries" : "No entries match these filters"}
                action={
                  <Button
                    variant="outline"
                    onClick={() => {
                      navigate(EMPTY_FILTERS, null, { entry: null });
                    }}
                  >
                    Show all entries
                  </Button>
                }
              >
                Try a longer period, another actor, or part of an action name (for example “invite”).
              </EmptyState>
            ) : (
              <EmptyState icon={History} title="No audit entries yet">
                Changes in your organisation — members invited, settings changed, records created — are recorded here as they happen.
              </EmptyState>
            )}
          </div>
        ) : wide ? (
          <AuditTable entries={entries} members={memberMap} subjects={subjects.data} onOpen={openEntry} />
        ) : (
          <AuditList entries={entries} members={memberMap} subjects={subjects.data} onOpen={openEntry} />
        )}

        {entries.length > 0 || before !== null ? (
          <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3 border-t px-4 py-3 sm:px-5">
            <p className="text-sm text-muted-foreground" data-testid="audit-range">
              {first && last ? (
                <>
                  Entries <span className="font-mono tabular-nums">#{first.id}</span> to <span className="font-mono tabular-nums">#{last.id}</span>
                  {before === null ? " · newest" : ""}
                </>
              ) : null}
            </p>
            <div className="flex items-center gap-2">
              {before !== null ? (
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => {
                    navigate(filters, null, { entry: null });
                  }}
                >
                  Newest
                </Button>
              ) : null}
              <Button
                variant="outline"
                size="sm"
                disabled={before === null || newer.isPending || page.isFetching}
                onClick={() => {
                  if (first) newer.mutate(first.id);
                  else navigate(filters, null, { entry: null });
                }}
              >
                <ChevronLeft aria-hidden="true" />
                Newer
              </Button>
              <Button
                variant="outline"
                size="sm"
                disabled={!page.data?.hasOlder || page.isFetching}
                onClick={() => {
                  if (last) navigate(filters, last.id, { entry: null });
                }}
              >
                Older
                <ChevronRight aria-hidden="true" />
              </Button>
            </div>
          </nav>
        ) : null}
      </Card>

      <AuditEntrySheet
        entryId={entryId}
        initial={opened?.id === entryId ? opened : entries.find((e) => e.id === entryId)}
        members={memberMap}
        onClose={() => {
          navigate(filters, before, { entry: null });
        }}
      />
    </div>
  );
}
