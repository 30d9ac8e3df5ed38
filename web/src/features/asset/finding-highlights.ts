import { useEffect, useMemo, useRef } from "react";
import { type Anchor, anchorQuotes, paintHighlight } from "./annotation-anchors";
import type { FindingMark } from "./findings";

/**
 * Compliance findings in the document viewer, beside the comments: each
 * open finding's quote found in the page's text and painted over the words
 * in its severity's colour (the CSS Custom Highlight API, as comments'
 * quotes are), and brought into view on "Show in document".
 */

/** What the viewer needs to mark findings. */
export interface FindingLayer {
  marks: readonly FindingMark[];
  selected: string | null;
  onSelect: (findingId: string) => void;
  /** Brings a finding into view (each new nonce once). */
  focus: { findingId: string; nonce: number } | null;
}

/** The highlight names the stylesheet paints by severity (annotations.css). */
export const FINDING_HIGHLIGHT = { critical: "fb-finding-critical", warning: "fb-finding-warning", info: "fb-finding-info", selected: "fb-finding-selected" } as const;

/** A page's text, built: where to look for quotes and what their boxes are relative to. */
interface TextLayer {
  container: Element;
  page: Element;
}

/** Each built page's findings found in its text, by page. */
export function useFindingAnchors(layer: FindingLayer | undefined, layers: ReadonlyMap<number, TextLayer>): ReadonlyMap<number, ReadonlyMap<string, Anchor>> {
  const byPage = useMemo(() => {
    const out = new Map<number, { id: string; exact: string; prefix?: string | undefined; suffix?: string | undefined }[]>();
    for (const m of layer?.marks ?? []) {
      const list = out.get(m.page) ?? [];
      list.push({ id: m.id, exact: m.target.exact, prefix: m.target.prefix, suffix: m.target.suffix });
      out.set(m.page, list);
    }
    return out;
  }, [layer?.marks]);
  return useMemo(() => {
    const out = new Map<number, Map<string, Anchor>>();
    for (const [page, built] of layers) {
      const wanted = byPage.get(page);
      if (wanted) out.set(page, anchorQuotes(built.container, built.page, wanted));
    }
    return out;
  }, [layers, byPage]);
}

/** Paints the findings' quotes by severity, the selected one apart. */
export function useFindingHighlights(anchors: ReadonlyMap<number, ReadonlyMap<string, Anchor>>, layer: FindingLayer | undefined) {
  const severities = useMemo(() => new Map((layer?.marks ?? []).map((m) => [m.id, m.severity])), [layer?.marks]);
  const selected = layer?.selected ?? null;
  useEffect(() => {
    const groups: Record<keyof typeof FINDING_HIGHLIGHT, Range[]> = { critical: [], warning: [], info: [], selected: [] };
    for (const page of anchors.values()) {
      for (const [id, anchor] of page) {
        const severity = severities.get(id);
        const group = id === selected ? "selected" : severity === "critical" || severity === "warning" ? severity : "info";
        groups[group].push(...anchor.ranges);
      }
    }
    const clears = (Object.keys(groups) as (keyof typeof FINDING_HIGHLIGHT)[]).map((k) => paintHighlight(FINDING_HIGHLIGHT[k], groups[k], k === "selected" ? 2 : 0));
    return () => {
      for (const clear of clears) clear();
    };
  }, [anchors, severities, selected]);
}

/** Brings each new focus's finding into view: its page at once, its line once laid out. */
export function useFindingFocus(layer: FindingLayer | undefined, anchors: ReadonlyMap<number, ReadonlyMap<string, Anchor>>, goTo: (page: number, y: number) => void) {
  const went = useRef<{ nonce: number; exact: boolean } | null>(null);
  const goToRef = useRef(goTo);
  useEffect(() => {
    goToRef.current = goTo;
  });
  const focus = layer?.focus ?? null;
  const marks = layer?.marks;
  useEffect(() => {
    if (!focus) return;
    if (went.current?.nonce === focus.nonce && went.current.exact) return;
    const mark = marks?.find((m) => m.id === focus.findingId);
    if (!mark) return;
    const line = anchors.get(mark.page)?.get(mark.id)?.boxes[0];
    if (line) {
      goToRef.current(mark.page, line.y);
      went.current = { nonce: focus.nonce, exact: true };
    } else if (went.current?.nonce !== focus.nonce) {
      goToRef.current(mark.page, 0);
      went.current = { nonce: focus.nonce, exact: false };
    }
  }, [focus, marks, anchors]);
}

