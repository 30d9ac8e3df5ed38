import { useQuery } from "@tanstack/react-query";
import { CircleAlert, LoaderCircle } from "lucide-react";
import { useId, useMemo, useRef, useState } from "react";
import { Badge } from "@/components/ui/badge";
import {
  type CheckContext,
  type CheckFinding,
  checkTextQuery,
  segmentText,
  severityLabel,
  severityMarkClass,
  severityRank,
  severityVariant,
  stillThere,
} from "@/entities/compliance";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { cn } from "@/lib/utils";
import { type DraftRule, draftMatches } from "./draft-matches";

/** How long typing must pause before the text is checked. */
export const CHECK_DEBOUNCE_MS = 250;

/** The same box for the text and the marks behind it, so the marks sit under the words. */
const BOX = "min-h-36 w-full rounded-md px-3 py-2 text-sm leading-6 font-[inherit] whitespace-pre-wrap break-words [overflow-wrap:anywhere]";

/**
 * A text box that checks what is typed (check_text, after a pause of
 * 250 ms) and marks the matches in the text itself, in their severity's
 * colour, as one types: the marks are drawn on a layer behind the
 * transparent text area, and listed under it (the list is what assistive
 * technology reads). With a `draft`, the rule being edited is matched too
 * (in the browser, before it is saved).
 */
export function TryItBox({
  label = "Try it on sample text",
  hint,
  initialText = "",
  context,
  draft,
}: {
  label?: string;
  hint?: string;
  initialText?: string;
  context?: CheckContext;
  draft?: DraftRule | null;
}) {
  const id = useId();
  const [text, setText] = useState(initialText);
  const settled = useDebouncedValue(text, CHECK_DEBOUNCE_MS);
  const check = useQuery(checkTextQuery(settled, context ?? {}));
  const backdrop = useRef<HTMLDivElement>(null);

  const server = useMemo(() => (text.trim() === "" ? [] : stillThere(text, check.data ?? [])), [text, check.data]);
  const own = useMemo(() => (draft ? draftMatches(text, draft) : []), [text, draft]);
  const findings = useMemo(() => sortFindings([...own.map((f) => ({ ...f, draft: true })), ...server.map((f) => ({ ...f, draft: false }))]), [own, server]);
  const segments = useMemo(() => segmentText(text, findings), [text, findings]);
  const checking = check.isFetching || settled !== text;

  return (
    <div className="grid min-w-0 gap-2" data-testid="try-it">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground" aria-hidden="true">
          {checking && text.trim() !== "" ? (
            <>
              <LoaderCircle className="size-3.5 animate-spin" /> Checking…
            </>
          ) : null}
        </span>
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs leading-5 text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <div className="relative min-w-0 rounded-md border border-input bg-background shadow-xs focus-within:ring-2 focus-within:ring-ring">
        <div ref={backdrop} aria-hidden="true" data-testid="try-it-marks" className={cn(BOX, "pointer-events-none absolute inset-0 overflow-hidden text-transparent")}>
          {segments.map((s) =>
            s.severity ? (
              <mark key={s.start} data-severity={s.severity} className={cn("rounded-[2px] text-transparent", severityMarkClass(s.severity))}>
                {s.text}
              </mark>
            ) : (
              <span key={s.start}>{s.text}</span>
            ),
          )}
          {/* A last line break needs something after it to take its height. */}
          {"\u200b"}
        </div>
        <textarea
          id={id}
          value={text}
          rows={5}
          spellCheck={false}
          aria-describedby={[hint ? `${id}-hint` : "", `${id}-result`].filter(Boolean).join(" ")}
          placeholder="Paste or type promotional copy, e.g. “the best treatment for hypertension”"
          onChange={(e) => {
            setText(e.target.value);
          }}
          onScroll={(e) => {
            if (backdrop.current) backdrop.current.scrollTop = e.currentTarget.scrollTop;
          }}
          className={cn(BOX, "relative block resize-y bg-transparent text-foreground caret-foreground outline-none placeholder:text-muted-foreground")}
        />
      </div>
      <div id={`${id}-result`} aria-live="polite" className="grid gap-2">
        {check.isError ? (
          <p role="alert" className="flex items-center gap-2 text-sm text-destructive">
            <CircleAlert aria-hidden="true" className="size-4" /> The text could not be checked.
          </p>
        ) : text.trim() === "" ? null : findings.length === 0 ? (
          checking ? null : <p className="text-sm text-muted-foreground">No findings in this text.</p>
        ) : (
          <>
            <p className="text-sm font-medium" data-testid="try-it-count">
              {findings.length === 1 ? "1 finding" : `${findings.length} findings`}
            </p>
            <ul className="grid gap-2" data-testid="try-it-findings">
              {findings.map((f) => (
                <li key={`${f.draft ? "d" : "s"}-${f.rule}-${f.start}-${f.end}`} className="grid gap-1 rounded-md border px-3 py-2 text-sm">
                  <div className="flex flex-wrap items-center gap-2">
                    <Badge variant={severityVariant(f.severity)}>{severityLabel(f.severity)}</Badge>
                    <code className="font-mono text-xs">{f.rule}</code>
                    {f.draft ? <Badge variant="outline">This rule, not saved yet</Badge> : null}
                    <q className="min-w-0 font-medium wrap-anywhere">{f.quote}</q>
                  </div>
                  {f.message ? <p className="leading-5 text-muted-foreground wrap-anywhere">{f.message}</p> : null}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </div>
  );
}

/** Findings in the text's order, the more serious first where they start together. */
function sortFindings<T extends CheckFinding>(list: T[]): T[] {
  return list.sort((a, b) => a.start - b.start || severityRank(b.severity) - severityRank(a.severity) || a.end - b.end);
}
