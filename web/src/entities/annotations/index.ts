import { queryOptions, type QueryClient } from "@tanstack/react-query";
import type { AnchorStatus, AnnotationCategory, AnnotationState } from "@/lib/annotation-types";
import { unwrap } from "@/lib/data";
import type { FunctionArgs, Json, Row } from "@/lib/db-types";
import { isUuid } from "@/lib/early";
import { getSupabase } from "@/lib/supabase";

/**
 * Annotations' server state (issue 16): the threads of comments anchored in
 * a version (`version_annotations`), and the functions that write them
 * (`create_annotation`, `reply_annotation`, `resolve_annotation`,
 * `reopen_annotation`) as typed fetchers, each with the caches it changes
 * ({@link invalidateAfterAnnotation}). The server is the authority: it
 * locates a quote in the version's text, checks who may write, and audits.
 *
 * A thread reaches every later version it was carried forward to, one row
 * (an annotation) per version, all with the same `thread_id`; its replies
 * belong to the thread and are listed on every row.
 */

/**
 * A quote in the version's text (W3C TextQuoteSelector with a
 * TextPositionSelector): `start`/`end` are offsets in Unicode code points
 * into the version's plain text, PDF pages joined by form feeds.
 */
export interface TextTarget {
  type: "text";
  exact: string;
  prefix?: string;
  suffix?: string;
  start?: number;
  end?: number;
}

/** A box on a page (from 1; 1 for an image), in page-relative units 0..1 from the top left. */
export interface RegionTarget {
  type: "region";
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where an annotation points. */
export type AnnotationTarget = TextTarget | RegionTarget;

/** A reply in a thread. */
export interface AnnotationReply {
  id: string;
  /** The row (version) it was written on. */
  annotation_id: string;
  body: string;
  created_by: string;
  author_name: string;
  created_at: string;
}

/** One version's row of a thread, as version_annotations gives it. */
export interface Annotation {
  id: string;
  /** Stable across versions. */
  thread_id: string;
  version_id: string;
  asset_id: string;
  category: AnnotationCategory;
  body: string;
  state: AnnotationState;
  anchor_status: AnchorStatus;
  /** As anchored on this version (an orphan keeps its old quote). */
  target: AnnotationTarget;
  reference_id: string | null;
  reference_page: number | null;
  reference_quote: string;
  created_by: string;
  author_name: string;
  created_at: string;
  resolved_by: string | null;
  resolved_at: string | null;
  /** The row on the previous version this one was carried from. */
  carried_from: string | null;
  replies: AnnotationReply[];
}

/** What create_annotation takes. */
export interface NewAnnotation {
  versionId: string;
  category: AnnotationCategory;
  body: string;
  target: AnnotationTarget;
  /** A claim-substantiation annotation's reference, page and quoted passage. */
  reference?: { id: string; page?: number | undefined; quote?: string | undefined } | undefined;
}

export const annotationKeys = {
  all: ["annotations"] as const,
  /** Every version's annotations of an asset: a reply or a resolution reaches all rows of its thread. */
  asset: (assetId: string) => [...annotationKeys.all, "asset", assetId] as const,
  version: (assetId: string, versionId: string) => [...annotationKeys.asset(assetId), "version", versionId] as const,
};

/** The annotations on a version, in reading order (page and offset; regions by page and y). */
export function versionAnnotationsQuery(assetId: string, versionId: string | null | undefined, enabled = true) {
  return queryOptions({
    queryKey: annotationKeys.version(assetId, versionId ?? ""),
    enabled: enabled && isUuid(versionId ?? ""),
    // Reviewers comment in parallel: coming back to the tab shows what the others wrote.
    refetchOnWindowFocus: true,
    queryFn: async (): Promise<Annotation[]> => {
      const sb = await getSupabase();
      const rows = unwrap(await sb.rpc("version_annotations", { version_id: versionId ?? "" })) as unknown as Annotation[] | null;
      return rows ?? [];
    },
  });
}

/**
 * The version an annotation was written on (the data API serves the
 * table read-only), or null when there is no such annotation for the
 * caller: where a change request pointing at it leads when its thread
 * did not reach the current version.
 */
export async function fetchAnnotationVersion(annotationId: string): Promise<string | null> {
  if (!isUuid(annotationId)) return null;
  const sb = await getSupabase();
  const row = unwrap<Pick<Row<"annotations">, "version_id"> | null>(await sb.from("annotations").select("version_id").eq("id", annotationId).maybeSingle());
  return row?.version_id ?? null;
}

/**
 * Annotates a version (create_annotation). A text target's quote is located
 * by the server in the version's text (white space aside; prefix and
 * suffix decide between repeats; `start` is a hint): not found is 422
 * (22023). Returns the annotation with its canonical target and no replies.
 */
export async function createAnnotation(input: NewAnnotation): Promise<Annotation> {
  const sb = await getSupabase();
  const args: FunctionArgs<"create_annotation"> = {
    version_id: input.versionId,
    category: input.category,
    body: input.body,
    target: input.target as unknown as Json,
  };
  if (input.reference) {
    args.reference_id = input.reference.id;
    if (input.reference.page !== undefined) args.reference_page = input.reference.page;
    if (input.reference.quote) args.reference_quote = input.reference.quote;
  }
  return unwrap(await sb.rpc("create_annotation", args)) as unknown as Annotation;
}

/** Replies in a thread (reply_annotation); `@Full Name` of a member notifies them. */
export async function replyAnnotation(annotationId: string, body: string): Promise<AnnotationReply> {
  const sb = await getSupabase();
  return unwrap(await sb.rpc("reply_annotation", { annotation_id: annotationId, body })) as unknown as AnnotationReply;
}

/** Resolves a thread (resolve_annotation): its author or a reviewer. */
export async function resolveAnnotation(annotationId: string): Promise<Annotation> {
  const sb = await getSupabase();
  return unwrap(await sb.rpc("resolve_annotation", { annotation_id: annotationId })) as unknown as Annotation;
}

/** Reopens a resolved thread (reopen_annotation): its author or a reviewer. */
export async function reopenAnnotation(annotationId: string): Promise<Annotation> {
  const sb = await getSupabase();
  return unwrap(await sb.rpc("reopen_annotation", { annotation_id: annotationId })) as unknown as Annotation;
}

// ---- what each function changes

/** The annotation functions. */
export type AnnotationChange = "create" | "reply" | "resolve" | "reopen";

/**
 * What `change` changes: a new annotation only its version's list; a
 * reply, a resolution or a reopening the thread, whose rows (and
 * replies) are listed on every version it reached.
 */
export function annotationEffects(change: AnnotationChange): "version" | "asset" {
  return change === "create" ? "version" : "asset";
}

/** Refreshes what `change` changed (see {@link annotationEffects}). */
export async function invalidateAfterAnnotation(queryClient: QueryClient, change: AnnotationChange, assetId: string, versionId: string): Promise<void> {
  const key = annotationEffects(change) === "version" ? annotationKeys.version(assetId, versionId) : annotationKeys.asset(assetId);
  await queryClient.invalidateQueries({ queryKey: key });
}
