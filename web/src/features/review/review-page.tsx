import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { CircleAlert, ClipboardCheck, FileSearch, Inbox, RefreshCw, Send } from "lucide-react";
import { type ReactNode, useMemo } from "react";
import { Link, useSearchParams } from "react-router";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { NativeSelect } from "@/components/ui/select";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { peopleQuery } from "@/entities/members";
import { productsQuery } from "@/entities/products";
import { useProfile } from "@/entities/profile";
import { type QueueFilters, type QueueTab, QUEUE_TABS, reviewQueueQuery } from "@/entities/review-queue";
import { useAuth } from "@/lib/auth";
import { ASSET_TYPES, assetTypeLabel, canWriteContent } from "@/lib/content-types";
import { errorMessage } from "@/lib/errors";
import { isReviewerRole, REVIEWER_ROLES, reviewerRoleLabel } from "@/lib/review-types";
import { useDocumentTitle } from "@/lib/use-document-title";
import { useMediaQuery } from "@/lib/use-media-query";
import { cn } from "@/lib/utils";
import { QueueCards, QueueSkeleton, QueueTable, type RowContext } from "./queue-list";
import { type Choice, countsComparable, FILTER_KEYS, isFiltered, paramsForTab, readView, statusChoices, TAB_LABELS } from "./queue-state";

/** Shorter tab names where three full ones do not fit (phones). */
const SHORT_TAB_LABELS: Record<QueueTab, string> = {
  mine: "My queue",
  open: "Open",
  submitted: "Submitted",
};

/**
 * The Review Center (/review): the review steps waiting for me (claimed by
 * me, or active and unclaimed for my role), every open round of the
 * organisation, and the rounds I submitted — overdue first, then by due
 * date — with their counts, filters by product, type, reviewer role and
 * status kept in the URL, and keyset pages. Each row opens the asset,
 * where steps are claimed and decided. The server decides what each tab
 * holds for the caller; this screen only asks.
 */
export function ReviewPage() {
  useDocumentTitle("Review Center");
  const { user } = useAuth();
  const profile = useProfile();
  const role = profile.data?.role;
  const [params, setParams] = useSearchParams();
  const view = readView(params, role);
  const { tab, filters } = view;
  // Without a tab in the URL the role picks it: wait for the role rather than load a tab to throw away.
  const ready = params.has("tab") || !profile.isPending;

  const queue = useInfiniteQuery({ ...reviewQueueQuery(tab, filters), enabled: ready });
  const products = useQuery(productsQuery());
  const people = useQuery(peopleQuery());
  const wide = useMediaQuery("(min-width: 1024px)");

  const counts = queue.data?.pages[0]?.counts ?? null;
  const items = useMemo(() => queue.data?.pages.flatMap((p) => p.items) ?? [], [queue.data]);
  const ctx: RowContext = useMemo(
    () => ({
      me: user?.id,
      names: new Map((people.data ?? []).map((p) => [p.id, p.full_name || p.email])),
      products: new Map((products.data ?? []).map((p) => [p.id, p.brand_name])),
      now: new Date(),
    }),
    [user?.id, people.data, products.data],
  );

  const update = (changes: Partial<Record<string, string>>) => {
    const next = new URLSearchParams(params);
    if (!next.has("tab")) next.set("tab", tab);
    for (const [key, value] of Object.entries(changes)) {
      if (!value) next.delete(key);
      else next.set(key, value);
    }
    setParams(next);
  };
  const clearFilters = () => {
    update(Object.fromEntries(FILTER_KEYS.map((k) => [k, ""])));
  };

  const productChoices = useMemo(
    () => (products.data ?? []).map((p) => ({ value: p.id, label: p.active ? p.brand_name : `${p.brand_name} (inactive)` })),
    [products.data],
  );
  const showCount = (t: QueueTab) => (counts && (t === tab || countsComparable(filters)) ? counts[t] : undefined);

  return (
    <div className="grid min-w-0 grid-cols-1 gap-6">
      <PageHeader
        title="Review Center"
        description="Medical, legal and regulatory review of submitted content: the steps waiting for you, every open round and what you submitted, overdue first."
      />

      <Tabs
        value={tab}
        onValueChange={(value) => {
          setParams(paramsForTab(params, value as QueueTab));
        }}
        className="min-w-0"
      >
        <div className="-mx-1 overflow-x-auto px-1 pb-1">
          <TabsList aria-label="Review queue">
            {QUEUE_TABS.map((t) => {
              const n = showCount(t);
              return (
                <TabsTrigger key={t} value={t} className="px-2 sm:px-3" data-testid={`queue-tab-${t}`}>
                  <span className="sm:hidden">{SHORT_TAB_LABELS[t]}</span>
                  <span className="hidden sm:inline">{TAB_LABELS[t]}</span>
                  <span
                    className="min-w-5 rounded-full bg-muted-foreground/10 px-1.5 text-xs leading-5 font-medium tabular-nums"
                    data-testid={`queue-count-${t}`}
                    aria-label={n === undefined ? undefined : `${n} ${n === 1 ? "item" : "items"}`}
                  >
                    {n ?? "·"}
                  </span>
                </TabsTrigger>
              );
            })}
          </TabsList>
        </div>

        <div className="mt-4 grid grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:items-center">
          <FilterSelect label="Product" all="All products" value={filters.product} choices={productChoices} onChange={(v) => { update({ product: v }); }} />
          <FilterSelect
            label="Type"
            all="All types"
            value={filters.type}
            choices={ASSET_TYPES.map((t) => ({ value: t, label: assetTypeLabel(t) }))}
            onChange={(v) => {
              update({ type: v });
            }}
          />
          <FilterSelect
            label="Reviewer role"
            all="All roles"
            value={filters.role}
            choices={REVIEWER_ROLES.map((r) => ({ value: r, label: reviewerRoleLabel(r) }))}
            onChange={(v) => {
              update({ role: v });
            }}
          />
          <FilterSelect
            label="Status"
            all="Any status"
            value={filters.status}
            choices={statusChoices(tab)}
            onChange={(v) => {
              update({ status: v });
            }}
          />
          {isFiltered(filters) ? (
            <Button variant="ghost" size="sm" className="col-span-2 justify-self-start sm:col-span-1" onClick={clearFilters}>
              Clear filters
            </Button>
          ) : null}
        </div>

        {QUEUE_TABS.map((t) => (
          <TabsContent key={t} value={t} className="min-w-0">
            {!ready || queue.isPending ? (
              <QueueSkeleton />
            ) : queue.isError ? (
              <Alert variant="destructive">
                <CircleAlert aria-hidden="true" />
                <AlertTitle>Couldn’t load the review queue</AlertTitle>
                <AlertDescription className="flex flex-wrap items-center justify-between gap-3">
                  <span>{errorMessage(queue.error, "The server did not answer. Check your connection and try again.")}</span>
                  <Button variant="outline" size="sm" onClick={() => void queue.refetch()}>
                    <RefreshCw aria-hidden="true" />
                    Retry
                  </Button>
                </AlertDescription>
              </Alert>
            ) : items.length === 0 ? (
              <QueueEmpty tab={tab} role={role} filters={filters} onClear={clearFilters} />
            ) : (
              <div className="grid grid-cols-1 gap-3">
                {wide ? <QueueTable items={items} ctx={ctx} label={TAB_LABELS[tab]} /> : <QueueCards items={items} ctx={ctx} label={TAB_LABELS[tab]} />}
                <LoadMore
                  shown={items.length}
                  total={counts?.[tab]}
                  hasMore={queue.hasNextPage}
                  loading={queue.isFetchingNextPage}
                  onMore={() => void queue.fetchNextPage()}
                />
              </div>
            )}
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}

function FilterSelect({ label, all, value, choices, onChange }: { label: string; all: string; value: string; choices: Choice[]; onChange: (value: string) => void }) {
  const known = value === "" || choices.some((c) => c.value === value);
  return (
    <NativeSelect
      aria-label={label}
      value={value}
      className={cn("min-w-0 sm:w-44", value && "[&_select]:border-primary/60 [&_select]:bg-primary/5")}
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

/** "Showing 25 of 31" under a tab, and "Load more" while there are more pages. */
function LoadMore({ shown, total, hasMore, loading, onMore }: { shown: number; total: number | undefined; hasMore: boolean; loading: boolean; onMore: () => void }) {
  return (
    <div className="flex items-center justify-between gap-3 pt-1 text-sm text-muted-foreground">
      <span aria-live="polite" data-testid="queue-shown">
        {total !== undefined && total >= shown ? `Showing ${shown} of ${total}` : `${shown} shown`}
        {hasMore ? "" : " · end of list"}
      </span>
      {hasMore ? (
        <Button variant="outline" size="sm" onClick={onMore} disabled={loading}>
          {loading ? "Loading…" : "Load more"}
        </Button>
      ) : null}
    </div>
  );
}

const tabLink = (tab: QueueTab, label: string) => (
  <Link to={`/review?tab=${tab}`} className={buttonVariants({ variant: "outline", size: "sm" })}>
    {label}
  </Link>
);

const hubLink = (
  <Link to="/content" className={buttonVariants({ variant: "outline", size: "sm" })}>
    Go to the Content Hub
  </Link>
);

/** What an empty tab says to this member: why it is empty and where to go instead. */
function QueueEmpty({ tab, role, filters, onClear }: { tab: QueueTab; role: string | null | undefined; filters: QueueFilters; onClear: () => void }) {
  if (isFiltered(filters)) {
    return (
      <EmptyState
        icon={FileSearch}
        title="Nothing matches these filters"
        action={
          <Button variant="outline" size="sm" onClick={onClear}>
            Clear filters
          </Button>
        }
      >
        Change or clear the filters above to see more.
      </EmptyState>
    );
  }
  const reviewer = isReviewerRole(role);
  const author = canWriteContent(role);
  let icon = Inbox;
  let title: string;
  let body: ReactNode;
  let action: ReactNode = null;
  if (tab === "mine") {
    if (reviewer) {
      const kind = reviewerRoleLabel(role).toLowerCase();
      title = "Nothing is waiting for you";
      body = `When a round needs a ${kind} review, its step shows here until it is decided. Claim a step on the asset's page to tell other ${kind} reviewers you have it.`;
      action = tabLink("open", "See all open rounds");
    } else {
      icon = ClipboardCheck;
      title = "Review steps go to reviewers";
      body =
        role === "marketer"
          ? "Medical, legal and regulatory reviewers decide the steps of each round. The rounds you submitted, and where each of their steps stands, are under My submissions."
          : "Medical, legal and regulatory reviewers decide the steps of each round. Every round in review, and where its steps stand, is under All open rounds.";
      action = role === "marketer" ? tabLink("submitted", "See my submissions") : tabLink("open", "See all open rounds");
    }
  } else if (tab === "open") {
    title = "No rounds in review";
    if (author) {
      body = "Nothing is in review right now. Open an asset in the Content Hub and submit it for review to start a round.";
      action = hubLink;
    } else {
      body = reviewer
        ? "Nothing is in review right now. When a marketer submits content, its round shows here and the steps for your role in My queue."
        : "Nothing is in review right now. Rounds show here as soon as content is submitted for review.";
    }
  } else {
    icon = Send;
    if (author) {
      title = "You have not submitted anything yet";
      body = "Open one of your assets in the Content Hub and choose Submit for review: each round you start shows here, with every reviewer’s progress.";
      action = hubLink;
    } else {
      title = "Nothing submitted by you";
      body = reviewer
        ? "Rounds are submitted by marketers and administrators. The steps waiting for you are under My queue."
        : "Rounds are submitted by marketers and administrators; every round in review is under All open rounds.";
      action = reviewer ? tabLink("mine", "See my queue") : tabLink("open", "See all open rounds");
    }
  }
  return (
    <EmptyState icon={icon} title={title} action={action}>
      {body}
    </EmptyState>
  );
}

