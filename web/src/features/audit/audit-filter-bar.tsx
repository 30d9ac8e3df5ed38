import { useEffect, useId, useRef, useState } from "react";
import { X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/select";
import type { AuditMember } from "./api";
import { type AuditFilters, EMPTY_FILTERS, hasFilters, KNOWN_OBJECT_TYPES, type Period, PERIODS } from "./filters";

/** How long typing pauses before a text filter applies. */
const TYPING_DELAY_MS = 400;

/**
 * A text filter that applies when typing pauses, on Enter and on blur, and
 * follows outside changes (back/forward, "Clear filters").
 */
function useDeferredText(value: string, commit: (v: string) => void) {
  const [text, setText] = useState(value);
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    // The URL changed: show what it now says, unless it is what is being
    // typed (a trailing space must survive the commit).
    setSeen(value);
    if (value !== text.trim()) setText(value);
  }
  const commitRef = useRef(commit);
  useEffect(() => {
    commitRef.current = commit;
  });
  useEffect(() => {
    if (text.trim() === value) return;
    const t = setTimeout(() => {
      commitRef.current(text.trim());
    }, TYPING_DELAY_MS);
    return () => {
      clearTimeout(t);
    };
  }, [text, value]);
  const flush = () => {
    if (text.trim() !== value) commit(text.trim());
  };
  return { text, setText, flush };
}

/**
 * The Audit Log's filters: actor, action (free text with suggestions),
 * object type and period. Changes are reported through `onChange`; the page
 * keeps them in the URL.
 */
export function AuditFilterBar({
  filters,
  members,
  actionSuggestions,
  onChange,
}: {
  filters: AuditFilters;
  members: AuditMember[];
  actionSuggestions: string[];
  onChange: (next: AuditFilters, opts?: { typing?: boolean }) => void;
}) {
  const id = useId();
  const action = useDeferredText(filters.action, (v) => {
    onChange({ ...filters, action: v }, { typing: true });
  });
  const type = useDeferredText(filters.type, (v) => {
    onChange({ ...filters, type: v }, { typing: true });
  });
  const actorKnown = filters.actor === "" || members.some((m) => m.id === filters.actor);

  return (
    <form
      role="search"
      aria-label="Filter audit entries"
      className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)_auto] lg:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        action.flush();
        type.flush();
      }}
    >
      <Field label="Actor">
        <NativeSelect
          value={filters.actor}
          onChange={(e) => {
            onChange({ ...filters, actor: e.target.value });
          }}
        >
          <option value="">Everyone</option>
          {members.map((m) => (
            <option key={m.id} value={m.id}>
              {m.full_name ? `${m.full_name} (${m.email})` : m.email}
              {m.deactivated_at ? " — deactivated" : ""}
            </option>
          ))}
          {!actorKnown ? <option value={filters.actor}>{filters.actor === "service_role" ? "System (service role)" : filters.actor}</option> : null}
        </NativeSelect>
      </Field>

      <Field label="Action">
        <Input
          type="search"
          list={`${id}-actions`}
          value={action.text}
          placeholder="e.g. invite_created"
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => {
            action.setText(e.target.value);
          }}
          onBlur={action.flush}
        />
      </Field>
      <datalist id={`${id}-actions`}>
        {actionSuggestions.map((a) => (
          <option key={a} value={a} />
        ))}
      </datalist>

      <Field label="Object type">
        <Input
          type="search"
          list={`${id}-types`}
          value={type.text}
          placeholder="e.g. invite"
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => {
            type.setText(e.target.value);
          }}
          onBlur={type.flush}
        />
      </Field>
      <datalist id={`${id}-types`}>
        {KNOWN_OBJECT_TYPES.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>

      <Field label="Period">
        <NativeSelect
          value={filters.period}
          onChange={(e) => {
            onChange({ ...filters, period: e.target.value as Period });
          }}
        >
          {PERIODS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </NativeSelect>
      </Field>

      <div className="flex items-end sm:col-span-2 lg:col-span-1">
        <Button
          variant="ghost"
          className="h-10 w-full lg:w-auto"
          disabled={!hasFilters(filters)}
          onClick={() => {
            onChange(EMPTY_FILTERS);
          }}
        >
          <X aria-hidden="true" />
          Clear filters
        </Button>
      </div>

      {filters.period === "custom" ? (
        <div className="grid gap-4 sm:col-span-2 sm:grid-cols-2 lg:col-span-5 lg:max-w-xl">
          <Field label="From" hint="First day included">
            <Input
              type="date"
              value={filters.from}
              max={filters.to || undefined}
              onChange={(e) => {
                onChange({ ...filters, from: e.target.value });
              }}
            />
          </Field>
          <Field label="To" hint="Last day included">
            <Input
              type="date"
              value={filters.to}
              min={filters.from || undefined}
              onChange={(e) => {
                onChange({ ...filters, to: e.target.value });
              }}
            />
          </Field>
        </div>
      ) : null}
      <button type="submit" hidden>
        Apply filters
      </button>
    </form>
  );
}
