import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, Check, Copy, GitCompare, Package } from "lucide-react";
import { useState, type ReactNode } from "react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import {
  audienceLabel,
  expiryState,
  formatBytes,
  moduleKindLabel,
  moduleStatusLabel,
  moduleStatusVariant,
  versionKindLabel,
} from "@/lib/content-types";
import { formatDate, formatDateTime } from "@/lib/format-time";
import { cn } from "@/lib/utils";
import type { Asset } from "@/entities/assets";
import type { Person } from "@/entities/members";
import { versionModulesQuery } from "@/entities/modules";
import type { ProductSummary } from "@/entities/products";
import type { VersionSummary } from "@/entities/versions";

function Row({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn("grid grid-cols-[8.5rem_minmax(0,1fr)] gap-3 py-2 text-sm", className)}>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

/** A member's name, else e-mail, else "Someone". */
function personName(p: Person | undefined): string {
  if (!p) return "Someone";
  const name = p.full_name.trim();
  if (name) return name;
  return p.email || "Someone";
}

/** "in 12 days", "today", "3 days ago" for a 'YYYY-MM-DD' date. */
function daysFromToday(date: string): string {
  const [y, m, d] = date.split("-").map(Number);
  const end = Date.UTC(y ?? 0, (m ?? 1) - 1, d ?? 1);
  const now = new Date();
  const today = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());
  const days = Math.round((end - today) / 86_400_000);
  if (days === 0) return "today";
  const n = Math.abs(days);
  return days > 0 ? `in ${n} ${n === 1 ? "day" : "days"}` : `${n} ${n === 1 ? "day" : "days"} ago`;
}

/** The expiry date with a warning when it is near or past. */
export function ExpiryValue({ date }: { date: string | null }) {
  if (!date) return <span className="text-muted-foreground">No expiry set</span>;
  const state = expiryState(date);
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      {formatDate(`${date}T00:00:00`)}
      {state ? (
        <Badge variant={state === "expired" ? "red" : "amber"}>
          <AlertTriangle aria-hidden="true" className="size-3" />
          {state === "expired" ? `Expired ${daysFromToday(date)}` : `Expires ${daysFromToday(date)}`}
        </Badge>
      ) : null}
    </span>
  );
}

function CopyHash({ hash }: { hash: string }) {
  const [copied, setCopied] = useState(false);
  if (!hash) return <span className="text-muted-foreground">—</span>;
  return (
    <span className="inline-flex items-center gap-1">
      <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs" title={hash}>
        {hash.slice(0, 12)}…
      </code>
      <Button
        variant="ghost"
        size="icon"
        className="size-7"
        aria-label="Copy the full SHA-256"
        onClick={() => {
          void navigator.clipboard.writeText(hash).then(
            () => {
              setCopied(true);
              toast.success("SHA-256 copied");
              window.setTimeout(() => {
                setCopied(false);
              }, 2000);
            },
            () => toast.error("The SHA-256 could not be copied."),
          );
        }}
      >
        {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
      </Button>
    </span>
  );
}

/** The asset's metadata and the shown version's rendition facts. */
export function DetailsPanel({
  asset,
  version,
  versions,
  product,
  owner,
}: {
  asset: Asset;
  version: VersionSummary | undefined;
  versions: VersionSummary[];
  product: ProductSummary | undefined;
  owner: Person | undefined;
}) {
  const approved = versions.find((v) => v.id === asset.approved_version_id);
  return (
    <div className="grid gap-5">
      <section aria-labelledby="details-asset">
        <h3 id="details-asset" className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
          Asset
        </h3>
        <dl className="mt-1 divide-y">
          <Row label="Product">
            {product ? (
              <>
                {product.brand_name}
                {product.established_name ? <span className="text-muted-foreground"> ({product.established_name})</span> : null}
              </>
            ) : asset.product_id ? (
              <Skeleton className="h-4 w-24" />
            ) : (
              <span className="text-muted-foreground">No product</span>
            )}
          </Row>
          <Row label="Audience">{audienceLabel(asset.audience)}</Row>
          <Row label="Channel">{asset.channel || <span className="text-muted-foreground">—</span>}</Row>
          <Row label="Market">{asset.market || <span className="text-muted-foreground">—</span>}</Row>
          <Row label="Owner">{owner ? owner.full_name || owner.email : <span className="text-muted-foreground">—</span>}</Row>
          <Row label="Job code">
            <code className="font-mono text-xs">{asset.job_code}</code>
          </Row>
          <Row label="Expiry">
            <ExpiryValue date={asset.expires_at} />
          </Row>
          <Row label="Current version">{asset.current_version_number ? `v${asset.current_version_number}` : "—"}</Row>
          <Row label="Approved version">{approved ? `v${approved.number}` : <span className="text-muted-foreground">None yet</span>}</Row>
          <Row label="Created">{formatDateTime(asset.created_at)}</Row>
          <Row label="Updated">{formatDateTime(asset.updated_at)}</Row>
        </dl>
      </section>
      {version ? (
        <section aria-labelledby="details-version">
          <h3 id="details-version" className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
            Version {version.number}
          </h3>
          <dl className="mt-1 divide-y">
            <Row label="Kind">{versionKindLabel(version.kind)}</Row>
            {version.file_name ? <Row label="File">{version.file_name}</Row> : null}
            {version.file_size != null ? <Row label="Size">{formatBytes(version.file_size)}</Row> : null}
            <Row label="Pages">{version.page_count}</Row>
            <Row label="SHA-256">
              <CopyHash hash={version.sha256} />
            </Row>
          </dl>
        </section>
      ) : null}
    </div>
  );
}

/**
 * The version history, newest first: number, author, date, change note and
 * kind; "View" shows a version and two ticked versions can be compared.
 */
export function VersionsPanel({
  asset,
  versions,
  people,
  shown,
  onView,
  onCompare,
}: {
  asset: Asset;
  versions: VersionSummary[];
  people: Person[];
  shown: number | undefined;
  onView: (n: number) => void;
  onCompare: (from: number, to: number) => void;
}) {
  const [picked, setPicked] = useState<number[]>([]);
  const toggle = (n: number, on: boolean) => {
    setPicked((p) => (on ? [...p.filter((x) => x !== n), n].slice(-2) : p.filter((x) => x !== n)));
  };
  const [x, y] = [...picked].sort((a, b) => a - b);
  return (
    <div className="grid gap-3">
      {versions.length > 1 ? (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-muted/60 px-3 py-2 text-sm">
          <span className="text-muted-foreground">{picked.length < 2 ? "Tick two versions to compare them." : `v${x} and v${y} selected.`}</span>
          <Button
            size="sm"
            variant="outline"
            disabled={x === undefined || y === undefined}
            onClick={() => {
              if (x !== undefined && y !== undefined) onCompare(x, y);
            }}
          >
            <GitCompare aria-hidden="true" /> Compare
          </Button>
        </div>
      ) : null}
      <ol className="grid gap-2" aria-label="Versions">
        {versions.map((v) => {
          const author = people.find((p) => p.id === v.created_by);
          const current = v.id === asset.current_version_id;
          const isShown = v.number === shown;
          return (
            <li
              key={v.id}
              data-testid={`version-${v.number}`}
              className={cn("grid gap-1.5 rounded-lg border p-3", isShown ? "border-primary/60 bg-primary/5" : "bg-card")}
            >
              <div className="flex items-center gap-2">
                {versions.length > 1 ? (
                  <Checkbox
                    aria-label={`Select v${v.number} to compare`}
                    checked={picked.includes(v.number)}
                    onCheckedChange={(c) => {
                      toggle(v.number, c === true);
                    }}
                  />
                ) : null}
                <span className="font-semibold">v{v.number}</span>
                {current ? <Badge variant="blue">Current</Badge> : null}
                {v.id === asset.approved_version_id ? <Badge variant="green">Approved</Badge> : null}
                <Button
                  variant={isShown ? "secondary" : "ghost"}
                  size="sm"
                  className="ml-auto"
                  aria-label={`View v${v.number}`}
                  aria-current={isShown ? "true" : undefined}
                  onClick={() => {
                    onView(v.number);
                  }}
                >
                  {isShown ? "Viewing" : "View"}
                </Button>
              </div>
              <p className="text-sm leading-5 wrap-anywhere">{v.change_note || <span className="text-muted-foreground">No change note</span>}</p>
              <p className="text-xs text-muted-foreground wrap-anywhere">
                {personName(author)} · {formatDateTime(v.created_at)} · {versionKindLabel(v.kind)}
                {v.kind === "file" && v.page_count > 1 ? ` · ${v.page_count} pages` : ""}
              </p>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** The modules (version_modules) the shown version uses. */
export function ModulesPanel({ version }: { version: VersionSummary | undefined }) {
  const modules = useQuery(versionModulesQuery(version?.kind === "authored" ? version.id : null));
  if (!version) return null;
  if (version.kind !== "authored") {
    return (
      <EmptyState icon={Package} title="No modules tracked">
        Uploaded files carry no module links. Write a version in Fairbalance to insert approved modules.
      </EmptyState>
    );
  }
  if (modules.isPending) {
    return (
      <div className="grid gap-2">
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    );
  }
  if (modules.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        The modules could not be loaded.
      </p>
    );
  }
  if (modules.data.length === 0) {
    return (
      <EmptyState icon={Package} title="No modules in this version">
        Insert approved claims, ISI and disclaimers from the editor when you write the next version.
      </EmptyState>
    );
  }
  return (
    <ul className="grid gap-2" aria-label="Modules used">
      {modules.data.map((m) => {
        const expiry = expiryState(m.expires_at);
        return (
          <li key={m.id} className="grid gap-1 rounded-lg border bg-card p-3">
            <div className="flex items-center gap-2">
              <span className="rounded bg-violet-700 px-1.5 text-[0.625rem] leading-4 font-semibold tracking-wide text-white uppercase">
                {moduleKindLabel(m.kind)}
              </span>
              <Badge variant={moduleStatusVariant(m.status)} className="ml-auto">
                {moduleStatusLabel(m.status)}
              </Badge>
            </div>
            <p className="text-sm font-medium wrap-anywhere">{m.title}</p>
            {expiry && m.expires_at ? (
              <p className="text-xs">
                <ExpiryValue date={m.expires_at} />
              </p>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
