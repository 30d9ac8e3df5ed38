import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { type Annotation, versionAnnotationsQuery } from "@/entities/annotations";
import { versionTextQuery, type VersionSummary } from "@/entities/versions";
import { pageStarts, type Place, placeOf, readingOrder, threadNumbers } from "./annotation-threads";
import { pageTexts as textsOf, renditionOf } from "./types";

/** A version's threads as the viewer and the panel show them. */
export interface VersionThreads {
  /** In reading order. */
  annotations: Annotation[];
  /** Each thread's number on this version. */
  numbers: ReadonlyMap<string, number>;
  /** Each annotation's place (page, how far down), by id; none for an orphan or a quote without offsets. */
  places: ReadonlyMap<string, Place>;
  /** The version's text page by page (one page for composed text), once read. */
  pageTexts: string[] | null;
  /** Where each page starts in the plain text, in code points. */
  starts: number[];
  isPending: boolean;
  isError: boolean;
  refetch: () => void;
}

const NONE: Annotation[] = [];

/**
 * The annotations of `version` in reading order with their numbers and
 * places. The version's text (for pages and offsets) is read with them,
 * unless it is an image.
 */
export function useVersionThreads(assetId: string, version: VersionSummary | undefined, enabled = true): VersionThreads {
  const query = useQuery(versionAnnotationsQuery(assetId, version?.id, enabled));
  const needsText = version !== undefined && renditionOf(version) !== "image";
  const text = useQuery({ ...versionTextQuery(version?.id), enabled: enabled && needsText });
  const pageTexts = useMemo(() => (text.data ? textsOf(text.data) : null), [text.data]);
  const data = query.data ?? NONE;

  return useMemo(() => {
    const texts = pageTexts ?? [];
    const starts = pageStarts(texts);
    const lengths = texts.map((t) => Array.from(t).length);
    const places = new Map<string, Place>();
    for (const a of data) {
      // An orphan's quote was not found on this version: it has no place here.
      if (a.anchor_status === "orphaned") continue;
      const at = placeOf(a.target, starts, lengths);
      if (at) places.set(a.id, at);
    }
    const annotations = readingOrder(data, (a) => places.get(a.id) ?? null);
    return {
      annotations,
      numbers: threadNumbers(annotations),
      places,
      pageTexts,
      starts,
      isPending: query.isPending,
      isError: query.isError,
      refetch: () => void query.refetch(),
    };
    // query.refetch is stable; the flags are read as they are now.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, pageTexts, query.isPending, query.isError]);
}
