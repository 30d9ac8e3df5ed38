import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { BookOpenCheck, CheckCircle2, MessageSquareText, Reply, RotateCcw } from "lucide-react";
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { FormProvider, useController, useForm } from "react-hook-form";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormError, FormField } from "@/components/ui/form";
import { type MentionPerson, mentionParts, MentionTextarea } from "@/components/ui/mention-textarea";
import { Skeleton } from "@/components/ui/skeleton";
import { type Annotation, invalidateAfterAnnotation, replyAnnotation, reopenAnnotation, resolveAnnotation } from "@/entities/annotations";
import { type ReplyInput, replySchema } from "@/entities/annotations/schema";
import { referenceOptionsQuery } from "@/entities/references";
import {
  anchorStatusLabel,
  anchorStatusVariant,
  annotationCategoryLabel,
  annotationCategoryVariant,
  annotationStateLabel,
  annotationStateVariant,
} from "@/lib/annotation-types";
import { applyServerError } from "@/lib/form-errors";
import { formatDateTime, formatRelative } from "@/lib/format-time";
import { describeServerError, toastServerError } from "@/lib/server-error";
import { cn } from "@/lib/utils";
import { canAnnotate, canResolve, filterThreads, targetLabel, type ThreadFilter } from "./annotation-threads";
import type { Viewer } from "./review-rules";
import type { Rendition } from "./types";
import type { VersionThreads } from "./use-version-threads";

const HOW_TO: Record<Rendition, string> = {
  pdf: "Select text on a page, or use “Comment on an area” to draw a box, to comment on it.",
  authored: "Select text in the document to comment on it.",
  image: "Use “Comment on an area” and draw a box on the image to comment on it.",
  other: "",
};

/**
 * The threads panel of an asset's page: the version's comments in reading
 * order, each with its number (as on the page), category, state and how it
 * was anchored on this version — an orphan keeps its old quote, struck
 * through — its comment, replies and the reply box with `@` mentions; and
 * resolve or reopen for the thread's author and reviewers. Choosing a
 * thread shows it in the document; a thread chosen in the document is
 * brought into view here.
 */
export function AnnotationPanel({
  assetId,
  versionId,
  versionNumber,
  isCurrent,
  threads,
  people,
  viewer,
  selected,
  rendition,
  onShow,
  onOpenReference,
}: {
  assetId: string;
  versionId: string;
  versionNumber: number;
  /** The version shown is the current one (new comments go there). */
  isCurrent: boolean;
  threads: VersionThreads;
  people: readonly MentionPerson[];
  viewer: Viewer;
  selected: string | null;
  /** How the version is shown (what can be annotated: text, areas, or both). */
  rendition: Rendition;
  /** Selects a thread and brings it into view in the document. */
  onShow: (threadId: string) => void;
  /** Opens a claim's reference beside the version, at its passage. */
  onOpenReference: (annotation: Annotation) => void;
}) {
  const image = rendition === "image";
  const headingId = useId();
  const [filter, setFilter] = useState<ThreadFilter>("open");
  const list = useRef<HTMLOListElement>(null);
  const { annotations } = threads;
  const open = annotations.filter((a) => a.state === "open").length;
  const shown = filterThreads(annotations, filter);
  const needsReferences = annotations.some((a) => a.reference_id !== null);
  const references = useQuery(referenceOptionsQuery(needsReferences));
  const titles = useMemo(() => new Map((references.data ?? []).map((r) => [r.id, r.title])), [references.data]);
  const names = useMemo(() => people.map((p) => p.name), [people]);

  // A thread chosen in the document is brought into view in the list (only
  // the list scrolls: on a phone the page stays on the document).
  useEffect(() => {
    const el = list.current;
    if (!el || !selected) return;
    const item = el.querySelector<HTMLElement>(`[data-thread="${CSS.escape(selected)}"]`);
    if (!item || el.scrollHeight <= el.clientHeight) return;
    const top = item.offsetTop - el.offsetTop;
    if (top < el.scrollTop || top + item.offsetHeight > el.scrollTop + el.clientHeight) el.scrollTo({ top: Math.max(0, top - 8) });
  }, [selected]);
  // A resolved thread chosen in the document is listed.
  const chosen = annotations.find((a) => a.thread_id === selected);
  const effective: ThreadFilter = chosen && filter !== "all" && chosen.state !== filter ? "all" : filter;
  const listed = effective === filter ? shown : filterThreads(annotations, effective);

  return (
    <section aria-labelledby={headingId} className="grid min-w-0 gap-3" data-testid="threads-panel">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="flex items-center gap-2 text-base font-semibold">
          <MessageSquareText aria-hidden="true" className="size-4 text-muted-foreground" /> Comments
        </h2>
        <span className="text-xs text-muted-foreground tabular-nums" data-testid="threads-count">
          {open} open · {annotations.length - open} resolved
        </span>
      </div>
      {!isCurrent ? (
        <p className="rounded-md bg-muted/60 px-3 py-2 text-xs leading-5 text-muted-foreground">
          The comments on v{versionNumber}. New comments go on the current version; open ones were carried forward to it.
        </p>
      ) : canAnnotate(viewer) && HOW_TO[rendition] ? (
        <p className="text-xs leading-5 text-muted-foreground">{HOW_TO[rendition]}</p>
      ) : null}
      {threads.isPending ? (
        <div className="grid gap-2" aria-busy="true" aria-label="Loading the comments">
          <Skeleton className="h-20 w-full" />
          <Skeleton className="h-20 w-full" />
        </div>
      ) : threads.isError ? (
        <p role="alert" className="text-sm text-destructive">
          The comments could not be loaded.{" "}
          <Button variant="link" className="h-auto p-0" onClick={threads.refetch}>
            Retry
          </Button>
        </p>
      ) : annotations.length === 0 ? (
        <p className="rounded-lg border border-dashed px-3 py-4 text-center text-sm text-muted-foreground">No comments on this version yet.</p>
      ) : (
        <>
          <div role="radiogroup" aria-label="Show" className="inline-flex w-full rounded-lg bg-muted p-1 text-sm">
            {(["open", "resolved", "all"] as const).map((f) => {
              const count = f === "open" ? open : f === "resolved" ? annotations.length - open : annotations.length;
              return (
                <button
                  key={f}
                  type="button"
                  role="radio"
                  aria-checked={filter === f}
                  onClick={() => {
                    setFilter(f);
                  }}
                  className={cn(
                    "flex-1 rounded-md px-2 py-1 font-medium whitespace-nowrap text-muted-foreground transition-colors hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
                    filter === f && "bg-card text-foreground shadow-sm",
                  )}
                >
                  {f === "open" ? "Open" : f === "resolved" ? "Resolved" : "All"} <span className="tabular-nums">{count}</span>
                </button>
              );
            })}
          </div>
          {listed.length === 0 ? (
            <p className="text-sm text-muted-foreground">{filter === "open" ? "Every thread is resolved." : "No resolved threads."}</p>
          ) : (
            <ol ref={list} className="grid gap-2 lg:max-h-[min(70dvh,48rem)] lg:overflow-y-auto lg:pr-1" aria-labelledby={headingId}>
              {listed.map((a) => (
                <ThreadCard
                  key={a.id}
                  annotation={a}
                  number={threads.numbers.get(a.thread_id)}
                  selected={a.thread_id === selected}
                  assetId={assetId}
                  versionId={versionId}
                  viewer={viewer}
                  people={people}
                  names={names}
                  image={image}
                  referenceTitle={a.reference_id ? titles.get(a.reference_id) : undefined}
                  onShow={onShow}
                  onOpenReference={onOpenReference}
                />
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}

/** A body with its `@Name` mentions marked. */
function Body({ text, names, className }: { text: string; names: readonly string[]; className?: string }) {
  return (
    <p className={cn("text-sm leading-6 wrap-anywhere whitespace-pre-line", className)}>
      {mentionParts(text, names).map((part, i) =>
        part.mention ? (
          <span key={i} className="rounded bg-blue-50 px-0.5 font-medium text-blue-800 dark:bg-blue-950 dark:text-blue-200">
            {part.text}
          </span>
        ) : (
          part.text
        ),
      )}
    </p>
  );
}

function Byline({ name, at }: { name: string; at: string }) {
  return (
    <p className="text-xs leading-5 text-muted-foreground">
      <span className="font-medium text-foreground">{name || "A former member"}</span> ·{" "}
      <time dateTime={at} title={formatDateTime(at)}>
        {formatRelative(at)}
      </time>
    </p>
  );
}

function ThreadCard({
  annotation: a,
  number,
  selected,
  assetId,
  versionId,
  viewer,
  people,
  names,
  image,
  referenceTitle,
  onShow,
  onOpenReference,
}: {
  annotation: Annotation;
  number: number | undefined;
  selected: boolean;
  assetId: string;
  versionId: string;
  viewer: Viewer;
  people: readonly MentionPerson[];
  names: readonly string[];
  image: boolean;
  referenceTitle: string | undefined;
  onShow: (threadId: string) => void;
  onOpenReference: (annotation: Annotation) => void;
}) {
  const queryClient = useQueryClient();
  const [replying, setReplying] = useState(false);
  const orphaned = a.anchor_status === "orphaned";
  const toggle = useMutation({
    mutationFn: () => (a.state === "open" ? resolveAnnotation(a.id) : reopenAnnotation(a.id)),
    onSuccess: async () => {
      toast.success(a.state === "open" ? `Comment ${number ?? ""} resolved`.replace("  ", " ") : `Comment ${number ?? ""} reopened`.replace("  ", " "));
      await invalidateAfterAnnotation(queryClient, a.state === "open" ? "resolve" : "reopen", assetId, versionId);
    },
    onError: async (error) => {
      const verb = a.state === "open" ? "resolved" : "reopened";
      toastServerError(`The comment could not be ${verb}`, describeServerError(error, `The comment could not be ${verb}.`));
      await invalidateAfterAnnotation(queryClient, "resolve", assetId, versionId);
    },
  });
  const quote = a.target.type === "text" ? a.target.exact : null;

  return (
    <li
      data-thread={a.thread_id}
      data-testid="thread"
      aria-current={selected ? "true" : undefined}
      className={cn(
        "grid gap-2 rounded-lg border bg-card p-3 [contain-intrinsic-size:auto_9rem] [content-visibility:auto]",
        selected && "border-orange-400 ring-2 ring-orange-400/60",
        a.state === "resolved" && !selected && "bg-muted/40",
      )}
    >
      <div className="flex flex-wrap items-center gap-1.5">
        <span
          className={cn(
            "inline-flex h-5 min-w-5 items-center justify-center rounded-full px-1 text-[11px] font-semibold text-white tabular-nums",
            selected ? "bg-orange-600" : a.state === "open" ? "bg-amber-600" : "bg-slate-500",
          )}
          aria-hidden="true"
        >
          {number}
        </span>
        <Badge variant={annotationCategoryVariant(a.category)} data-testid="thread-category">
          {annotationCategoryLabel(a.category)}
        </Badge>
        {a.state === "resolved" ? <Badge variant={annotationStateVariant(a.state)}>{annotationStateLabel(a.state)}</Badge> : null}
        <Badge variant={anchorStatusVariant(a.anchor_status)} className="ml-auto" data-testid="anchor-status">
          {anchorStatusLabel(a.anchor_status)}
        </Badge>
      </div>
      <button
        type="button"
        disabled={orphaned}
        onClick={() => {
          onShow(a.thread_id);
        }}
        className="grid gap-1 rounded-md text-left focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none enabled:hover:bg-muted/60 disabled:cursor-default"
        aria-label={orphaned ? undefined : `Show comment ${number ?? ""} in the document`}
      >
        {quote !== null ? (
          <span
            className={cn(
              "line-clamp-3 border-l-2 pl-2 text-sm leading-5 italic wrap-anywhere",
              orphaned ? "border-red-300 text-muted-foreground line-through decoration-red-400/80" : "border-amber-400 text-foreground/80",
            )}
            data-testid="thread-quote"
          >
            “{quote}”
          </span>
        ) : (
          <span className={cn("text-sm font-medium", orphaned && "text-muted-foreground line-through")} data-testid="thread-quote">
            {targetLabel(a.target, { image })}
          </span>
        )}
        {orphaned ? (
          <span className="text-xs font-medium text-red-800 dark:text-red-300" data-testid="orphan-note">
            Not found in this version
          </span>
        ) : a.anchor_status === "moved" ? (
          <span className="text-xs text-muted-foreground">Moved: found at a new place in this version</span>
        ) : null}
      </button>
      <div className="grid gap-0.5">
        <Body text={a.body} names={names} />
        <Byline name={a.author_name} at={a.created_at} />
      </div>
      {a.reference_id ? (
        <div className="grid gap-1.5 rounded-md border bg-muted/40 p-2 text-xs leading-5" data-testid="thread-reference">
          <p className="min-w-0 wrap-anywhere">
            <span className="text-muted-foreground">Reference: </span>
            <span className="font-medium">{referenceTitle ?? "A reference"}</span>
            {a.reference_page ? `, page ${a.reference_page}` : ""}
          </p>
          {a.reference_quote ? <p className="line-clamp-2 italic wrap-anywhere text-muted-foreground">“{a.reference_quote}”</p> : null}
          <div>
            <Button
              size="sm"
              variant="outline"
              onClick={() => {
                onOpenReference(a);
              }}
            >
              <BookOpenCheck aria-hidden="true" /> Open reference
            </Button>
          </div>
        </div>
      ) : null}
      {a.replies.length > 0 ? (
        <ol className="grid gap-2 border-l-2 pl-3" aria-label={`Replies to comment ${number ?? ""}`}>
          {a.replies.map((r) => (
            <li key={r.id} className="grid gap-0.5" data-testid="reply">
              <Body text={r.body} names={names} />
              <Byline name={r.author_name} at={r.created_at} />
            </li>
          ))}
        </ol>
      ) : null}
      {a.state === "resolved" && a.resolved_at ? (
        <p className="text-xs text-muted-foreground">
          Resolved <time dateTime={a.resolved_at}>{formatRelative(a.resolved_at)}</time>
        </p>
      ) : null}
      {replying ? (
        <ReplyForm
          annotation={a}
          number={number}
          assetId={assetId}
          versionId={versionId}
          people={people}
          onDone={() => {
            setReplying(false);
          }}
        />
      ) : canAnnotate(viewer) || canResolve(viewer, a) ? (
        <div className="flex flex-wrap gap-2">
          {canAnnotate(viewer) ? (
            <Button
              size="sm"
              variant="outline"
              onClick={() => {
                setReplying(true);
              }}
            >
              <Reply aria-hidden="true" /> Reply
            </Button>
          ) : null}
          {canResolve(viewer, a) ? (
            <Button
              size="sm"
              variant="ghost"
              disabled={toggle.isPending}
              onClick={() => {
                toggle.mutate();
              }}
            >
              {a.state === "open" ? <CheckCircle2 aria-hidden="true" /> : <RotateCcw aria-hidden="true" />}
              {a.state === "open" ? "Resolve" : "Reopen"}
            </Button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** The reply box: a comment with mentions, sent to the thread. */
function ReplyForm({
  annotation,
  number,
  assetId,
  versionId,
  people,
  onDone,
}: {
  annotation: Annotation;
  number: number | undefined;
  assetId: string;
  versionId: string;
  people: readonly MentionPerson[];
  onDone: () => void;
}): ReactNode {
  const queryClient = useQueryClient();
  const form = useForm<ReplyInput, unknown, { body: string }>({ resolver: zodResolver(replySchema), defaultValues: { body: "" } });
  const submit = form.handleSubmit(async ({ body }) => {
    try {
      await replyAnnotation(annotation.id, body);
      toast.success("Reply sent");
      await invalidateAfterAnnotation(queryClient, "reply", assetId, versionId);
      onDone();
    } catch (error) {
      await applyServerError(form.setError, error, { fallback: "The reply could not be sent.", fields: ["body"] });
    }
  });
  return (
    <FormProvider {...form}>
      <form className="grid gap-2" noValidate onSubmit={(e) => void submit(e)}>
        <FormField name="body" label={`Reply to comment ${number ?? ""}`.trim()} hint="Type @ and a name to mention a member.">
          <ReplyBody people={people} />
        </FormField>
        <FormError />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" size="sm" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? "Sending…" : "Send reply"}
          </Button>
          <Button size="sm" variant="ghost" onClick={onDone}>
            Cancel
          </Button>
        </div>
      </form>
    </FormProvider>
  );
}

function ReplyBody({ people, ...props }: { people: readonly MentionPerson[] }) {
  const {
    field: { ref, name, value, onChange, onBlur },
  } = useController<ReplyInput, "body">({ name: "body" });
  return (
    <MentionTextarea
      {...props}
      people={people}
      rows={2}
      autoFocus
      ref={ref}
      name={name}
      value={value}
      onChange={onChange}
      onBlur={onBlur}
    />
  );
}
