import { useEffect, useRef, useState, type RefObject } from "react";
import { type Box, boxOfRect } from "./page-box";
import { selectionQuote } from "./selection";

/** A selection of text that can become an annotation. */
export interface PendingQuote {
  page: number;
  exact: string;
  prefix: string;
  suffix: string;
  /** Where the selection ends, in units of its page (the action sits there). */
  at: Box;
}

/** Where a selection is: its page, the element holding its text, and the element boxes are relative to. */
export interface SelectionScope {
  page: number;
  root: Element;
  frame: Element;
}

/**
 * Follows the text selection inside `scope`: once the pointer is released
 * (or the keyboard changed it), a non-empty selection that `locate` places
 * on one page becomes a pending quote; anything else clears it.
 */
export function useQuoteSelection(
  scope: RefObject<HTMLElement | null>,
  locate: (range: Range) => SelectionScope | null,
  enabled: boolean,
): { pending: PendingQuote | null; clear: () => void } {
  const [pending, setPending] = useState<PendingQuote | null>(null);
  const locateRef = useRef(locate);
  useEffect(() => {
    locateRef.current = locate;
  });

  useEffect(() => {
    const el = scope.current;
    if (!enabled || !el) return;
    let pointerDown = false;
    let frame = 0;
    const read = () => {
      const selection = window.getSelection();
      const range = selection && selection.rangeCount > 0 ? selection.getRangeAt(0) : null;
      if (!range || range.collapsed || !el.contains(range.commonAncestorContainer)) {
        setPending(null);
        return;
      }
      const where = locateRef.current(range);
      const quote = where ? selectionQuote(where.root, range) : null;
      if (!where || !quote) {
        setPending(null);
        return;
      }
      const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
      const last = rects[rects.length - 1] ?? range.getBoundingClientRect();
      setPending({ page: where.page, ...quote, at: boxOfRect(last, where.frame.getBoundingClientRect()) });
    };
    const schedule = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(read);
    };
    const onDown = () => {
      pointerDown = true;
    };
    const onUp = () => {
      pointerDown = false;
      schedule();
    };
    const onChange = () => {
      if (!pointerDown) schedule();
    };
    el.addEventListener("pointerdown", onDown);
    window.addEventListener("pointerup", onUp);
    document.addEventListener("selectionchange", onChange);
    return () => {
      cancelAnimationFrame(frame);
      el.removeEventListener("pointerdown", onDown);
      window.removeEventListener("pointerup", onUp);
      document.removeEventListener("selectionchange", onChange);
      setPending(null);
    };
  }, [scope, enabled]);

  return {
    pending,
    clear: () => {
      window.getSelection()?.removeAllRanges();
      setPending(null);
    },
  };
}

