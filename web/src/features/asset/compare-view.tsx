import { useQuery } from "@tanstack/react-query";
import { ArrowLeftRight, GitCompare, X } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { cn } from "@/lib/utils";
import { versionTextQuery, type VersionSummary } from "@/entities/versions";
import { useSignedUrl } from "./api";
import { collapseUnchanged, diffPages, type DiffPart, type PageDiff } from "./text-diff";
import { pageTexts, renditionOf } from "./types";

const INS = "rounded-sm bg-green-50 px-px text-green-900 underline decoration-green-700 decoration-2 underline-offset-2 dark:bg-green-950 dark:text-green-100 dark:decoration-green-400";
const DEL = "rounded-sm bg-red-50 px-px text-red-900 line-through decoration-red-700 decoration-2 dark:bg-red-950 dark:text-red-100 dark:decoration-red-400";

/**
 * Two versions of an asset side by side in time: a word-level diff of their
 * text (page by page for PDFs), with insertions underlined in green and
 * deletions struck through in red — as <ins> and <del>, so the meaning does
 * not rest on colour — and, for images, the two renditions side by side and
 * as an overlay with a slider.
 */
export function CompareView({
  versions,
  from,
  to,
  onChange,
  onClose,
}: {
  versions: VersionSummary[];
  from: number;
  to: number;
  onChange: (from: number, to: number) => void;
  onClose: () => void;
}) {
  const a = versions.find((v) => v.number === from);
  const b = versions.find((v) => v.number === to);
  const ids = useId();
  const [changesOnly, setChangesOnly] = useState(false);
  const textA = useQuery(versionTextQuery(a?.id));
  const textB = useQuery(versionTextQuery(b?.id));
  const images = a && b && renditionOf(a) === "image" && renditionOf(b) === "image";

  const diff = useMemo(() => {
    if (!textA.data || !textB.data) return null;
    return diffPages(pageTexts(textA.data), pageTexts(textB.data));
  }, [textA.data, textB.data]);

  const added = diff?.reduce((s, p) => s + p.added, 0) ?? 0;
  const removed = diff?.reduce((s, p) => s + p.removed, 0) ?? 0;
  const changedPages = diff?.filter((p) => p.added + p.removed > 0) ?? [];
  const shown = changesOnly ? changedPages : (diff ?? []);
  const paged = diff?.[0]?.page != null;
  // Images carry no text: the word counts, filter and legend would say nothing.
  const textless = Boolean(images) && (diff?.every((p) => p.parts.length === 0) ?? false);

  const sorted = [...versions].sort((x, y) => x.number - y.number);

  return (
    <div className="flex min-h-0 flex-col" data-testid="compare-view">
      <div className="grid gap-3 border-b px-4 py-3">
        <div className="flex flex-wrap items-end gap-3">
          <div className="grid gap-1">
            <Label htmlFor={`${ids}-from`}>From</Label>
            <NativeSelect
              id={`${ids}-from`}
              value={String(from)}
              onChange={(e) => {
                onChange(Number(e.target.value), to);
              }}
              className="w-28"
            >
              {sorted.map((v) => (
                <option key={v.id} value={v.number}>
                  v{v.number}
                </option>
              ))}
            </NativeSelect>
          </div>
          <Button
            variant="ghost"
            size="icon"
            aria-label="Swap the versions"
            onClick={() => {
              onChange(to, from);
            }}
          >
            <ArrowLeftRight aria-hidden="true" />
          </Button>
          <div className="grid gap-1">
            <Label htmlFor={`${ids}-to`}>To</Label>
            <NativeSelect
              id={`${ids}-to`}
              value={String(to)}
              onChange={(e) => {
                onChange(from, Number(e.target.value));
              }}
              className="w-28"
            >
              {sorted.map((v) => (
                <option key={v.id} value={v.number}>
                  v{v.number}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="ml-auto flex items-center gap-2">
            <Button variant="outline" size="sm" onClick={onClose}>
              <X aria-hidden="true" /> Close compare
            </Button>
          </div>
        </div>
        {textless ? null : (
          <div className="flex flex-wrap items-center gap-x-5 gap-y-2 text-sm">
            {diff ? (
              <p data-testid="diff-summary" className="flex items-center gap-2 font-medium">
                <span className="text-green-800 dark:text-green-300">+{added} {added === 1 ? "word" : "words"}</span>
                <span className="text-red-800 dark:text-red-300">−{removed} {removed === 1 ? "word" : "words"}</span>
                {paged ? (
                  <span className="font-normal text-muted-foreground">
                    · {changedPages.length} of {diff.length} pages changed
                  </span>
                ) : null}
              </p>
            ) : null}
            <div className="flex items-center gap-2">
              <Switch id={`${ids}-only`} checked={changesOnly} onCheckedChange={setChangesOnly} />
              <Label htmlFor={`${ids}-only`}>Changes only</Label>
            </div>
            <p className="flex items-center gap-3 text-muted-foreground" aria-label="Legend">
              <span>
                <ins className={INS}>inserted</ins>
              </span>
              <span>
                <del className={DEL}>deleted</del>
              </span>
            </p>
          </div>
        )}
      </div>

      {images && a.file_bucket && a.file_path && b.file_bucket && b.file_path ? (
        <ImageCompare
          from={{ number: a.number, bucket: a.file_bucket, path: a.file_path }}
          to={{ number: b.number, bucket: b.file_bucket, path: b.file_path }}
        />
      ) : null}

      {textless ? null : (
        <div className="max-h-[min(75dvh,60rem)] min-h-40 overflow-auto bg-muted/40 p-3 sm:p-5" role="region" aria-label={`Changes from v${from} to v${to}`} tabIndex={0}>
          {from === to ? (
            <EmptyState icon={GitCompare} title="Pick two different versions">
              Choose the version to compare from and the one to compare to.
            </EmptyState>
          ) : textA.isError || textB.isError ? (
            <p role="alert" className="text-sm text-destructive">
              The text of these versions could not be loaded.
            </p>
          ) : !diff ? (
            <div className="grid gap-3" aria-busy="true">
              <Skeleton className="h-5 w-40" />
              <Skeleton className="h-4 w-full" />
              <Skeleton className="h-4 w-11/12" />
              <Skeleton className="h-4 w-3/4" />
            </div>
          ) : diff.every((p) => p.parts.length === 0) ? (
            <EmptyState icon={GitCompare} title="No text to compare">
              {images ? "Images carry no text; compare them above." : "Neither version has text."}
            </EmptyState>
          ) : shown.length === 0 ? (
            <EmptyState icon={GitCompare} title="No changes in the text">
              v{from} and v{to} have the same words{images ? "; compare the images above" : ""}.
            </EmptyState>
          ) : (
            <div className="mx-auto grid max-w-3xl gap-4">
              {changesOnly && paged && diff.length > changedPages.length ? (
                <p className="text-sm text-muted-foreground">
                  {diff.length - changedPages.length} unchanged {diff.length - changedPages.length === 1 ? "page is" : "pages are"} hidden.
                </p>
              ) : null}
              {shown.map((p) => (
                <PageDiffView key={p.page ?? 0} diff={p} changesOnly={changesOnly} />
              ))}
            </div>
          )}
        </div>
      )}
    </div>
  );
}

function PageDiffView({ diff, changesOnly }: { diff: PageDiff; changesOnly: boolean }) {
  const parts: DiffPart[] = changesOnly ? collapseUnchanged(diff.parts) : diff.parts;
  const changed = diff.added + diff.removed > 0;
  return (
    <section className="rounded-md bg-card p-4 shadow-sm ring-1 ring-black/5 sm:p-6" aria-label={diff.page ? `Page ${diff.page}` : "Text"}>
      {diff.page ? (
        <h3 className="mb-2 flex items-center gap-2 text-sm font-semibold">
          Page {diff.page}
          {changed ? (
            <Badge variant="outline" className="font-normal">
              +{diff.added} −{diff.removed}
            </Badge>
          ) : (
            <span className="font-normal text-muted-foreground">unchanged</span>
          )}
        </h3>
      ) : null}
      <p className="text-[0.95rem] leading-7 break-words whitespace-pre-wrap">
        {parts.map((part, i) =>
          part.kind === "ins" ? (
            <ins key={i} className={INS}>
              {part.text}
            </ins>
          ) : part.kind === "del" ? (
            <del key={i} className={DEL}>
              {part.text}
            </del>
          ) : part.kind === "gap" ? (
            <span key={i} className="mx-1 inline-block rounded bg-muted px-1.5 text-xs text-muted-foreground">
              … {part.words} unchanged words …
            </span>
          ) : (
            <span key={i}>{part.text}</span>
          ),
        )}
      </p>
    </section>
  );
}

interface ImageSide {
  number: number;
  bucket: string;
  path: string;
}

function ImageCompare({ from, to }: { from: ImageSide; to: ImageSide }) {
  const a = useSignedUrl(from.bucket, from.path);
  const b = useSignedUrl(to.bucket, to.path);
  const [split, setSplit] = useState(50);
  const sliderId = useId();
  return (
    <Tabs defaultValue="side" className="border-b px-4 py-3">
      <TabsList>
        <TabsTrigger value="side">Side by side</TabsTrigger>
        <TabsTrigger value="overlay">Overlay</TabsTrigger>
      </TabsList>
      <TabsContent value="side" className="grid gap-3 sm:grid-cols-2">
        {[
          { side: from, url: a.data },
          { side: to, url: b.data },
        ].map(({ side, url }) => (
          <figure key={side.number} className="grid gap-1">
            <div className="flex aspect-[4/3] items-center justify-center overflow-hidden rounded-md bg-muted/70 p-2">
              {url ? <img src={url} alt={`Version ${side.number}`} className="max-h-full max-w-full object-contain" /> : <Skeleton className="size-full" />}
            </div>
            <figcaption className="text-center text-xs text-muted-foreground">v{side.number}</figcaption>
          </figure>
        ))}
      </TabsContent>
      <TabsContent value="overlay" className="grid gap-2">
        <div className="relative mx-auto aspect-[4/3] w-full max-w-3xl overflow-hidden rounded-md bg-muted/70">
          {a.data ? <img src={a.data} alt={`Version ${from.number}`} className="absolute inset-0 size-full object-contain" /> : null}
          {b.data ? (
            <img
              src={b.data}
              alt={`Version ${to.number}, overlaid`}
              className="absolute inset-0 size-full object-contain"
              style={{ clipPath: `inset(0 0 0 ${split}%)` }}
            />
          ) : null}
          <div aria-hidden="true" className="absolute inset-y-0 w-0.5 bg-primary shadow" style={{ left: `${split}%` }} />
          <span className="absolute top-2 left-2 rounded bg-background/90 px-1.5 text-xs font-medium">v{from.number}</span>
          <span className="absolute top-2 right-2 rounded bg-background/90 px-1.5 text-xs font-medium">v{to.number}</span>
        </div>
        <div className="mx-auto flex w-full max-w-3xl items-center gap-3">
          <Label htmlFor={sliderId} className={cn("shrink-0 text-xs text-muted-foreground")}>
            Reveal v{to.number}
          </Label>
          <input
            id={sliderId}
            type="range"
            min={0}
            max={100}
            value={100 - split}
            aria-valuetext={`${100 - split}% of v${to.number} shown`}
            onChange={(e) => {
              setSplit(100 - Number(e.target.value));
            }}
            className="w-full accent-[var(--primary)]"
          />
        </div>
      </TabsContent>
    </Tabs>
  );
}
