import { type ComponentProps, type KeyboardEvent, type Ref, useId, useRef, useState } from "react";
import { cn } from "@/lib/utils";
import { Textarea } from "./input";

/** Someone who can be mentioned: `@` and their name in a text notifies them. */
export interface MentionPerson {
  id: string;
  name: string;
  /** Shown beside the name in the list (an e-mail address, a role). */
  detail?: string;
}

/** The `@word…` being typed just before `caret`, or null: an `@` at the start or after white space, no line break since. */
export function mentionQuery(text: string, caret: number): { at: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf("@");
  if (at < 0 || (at > 0 && !/\s/.test(before[at - 1] ?? ""))) return null;
  const query = before.slice(at + 1);
  // A name is at most a few words: a long run after the @ is not a mention being typed.
  if (query.length > 40 || /[\n@]/.test(query)) return null;
  return { at, query };
}

/** The people whose name matches `query` (any word starting with it, or the whole name containing it), at most `limit`. */
export function mentionMatches(people: readonly MentionPerson[], query: string, limit = 6): MentionPerson[] {
  const q = query.trim().toLowerCase();
  const scored = people
    .filter((p) => p.name.trim() !== "")
    .map((p) => {
      const name = p.name.toLowerCase();
      const score = q === "" ? 1 : name.startsWith(q) ? 3 : name.split(/\s+/).some((w) => w.startsWith(q)) ? 2 : name.includes(q) ? 1 : 0;
      return { p, score };
    })
    .filter((x) => x.score > 0);
  scored.sort((a, b) => b.score - a.score || a.p.name.localeCompare(b.p.name));
  return scored.slice(0, limit).map((x) => x.p);
}

/** A text cut into plain runs and `@Name` mentions of the people named (longest names first, so "@Ann Lee" wins over "@Ann"). */
export function mentionParts(text: string, names: readonly string[]): { text: string; mention: boolean }[] {
  const sorted = [...new Set(names.map((n) => n.trim()).filter(Boolean))].sort((a, b) => b.length - a.length);
  const parts: { text: string; mention: boolean }[] = [];
  let plain = "";
  let i = 0;
  while (i < text.length) {
    const atWordStart = text[i] === "@" && (i === 0 || /\s/.test(text[i - 1] ?? ""));
    const name = atWordStart ? sorted.find((n) => text.startsWith(n, i + 1)) : undefined;
    if (name !== undefined) {
      if (plain) parts.push({ text: plain, mention: false });
      plain = "";
      parts.push({ text: `@${name}`, mention: true });
      i += name.length + 1;
    } else {
      plain += text.charAt(i);
      i++;
    }
  }
  if (plain) parts.push({ text: plain, mention: false });
  return parts;
}

/**
 * A text area that offers the organisation's members while an `@name` is
 * typed (arrow keys move, Enter or Tab picks, Escape closes), and writes
 * `@Full Name` into the text. A combobox for assistive technology.
 */
export function MentionTextarea({
  people,
  value,
  onChange,
  ref,
  className,
  onKeyDown,
  onBlur,
  ...props
}: Omit<ComponentProps<typeof Textarea>, "value" | "onChange" | "ref"> & {
  people: readonly MentionPerson[];
  value: string;
  onChange: (value: string) => void;
  ref?: Ref<HTMLTextAreaElement>;
}) {
  const listId = useId();
  const area = useRef<HTMLTextAreaElement | null>(null);
  const [query, setQuery] = useState<{ at: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const matches = query ? mentionMatches(people, query.query) : [];
  const open = query !== null && matches.length > 0;

  const follow = (el: HTMLTextAreaElement) => {
    const next = mentionQuery(el.value, el.selectionStart);
    setQuery(next);
    if (next?.query !== query?.query) setActive(0);
  };

  const pick = (person: MentionPerson) => {
    const el = area.current;
    if (!el || !query) return;
    const before = value.slice(0, query.at);
    const after = value.slice(el.selectionStart);
    const inserted = `@${person.name.trim()} `;
    onChange(before + inserted + after.replace(/^ /, ""));
    setQuery(null);
    const caret = before.length + inserted.length;
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(caret, caret);
    });
  };

  const keyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const step = e.key === "ArrowDown" ? 1 : -1;
        setActive((i) => (i + step + matches.length) % matches.length);
        return;
      }
      if (e.key === "Enter" || e.key === "Tab") {
        const person = matches[active];
        if (person) {
          e.preventDefault();
          pick(person);
          return;
        }
      }
      if (e.key === "Escape") {
        // Closes the list, not the dialog around the field.
        e.preventDefault();
        e.stopPropagation();
        setQuery(null);
        return;
      }
    }
    onKeyDown?.(e);
  };

  return (
    <div className="relative min-w-0">
      <Textarea
        {...props}
        ref={(el) => {
          area.current = el;
          if (typeof ref === "function") ref(el);
          else if (ref) ref.current = el;
        }}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? `${listId}-${active}` : undefined}
        className={className}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          follow(e.target);
        }}
        onKeyDown={keyDown}
        onKeyUp={(e) => {
          if (e.key === "ArrowLeft" || e.key === "ArrowRight" || e.key === "Home" || e.key === "End") follow(e.currentTarget);
        }}
        onClick={(e) => {
          follow(e.currentTarget);
        }}
        onBlur={(e) => {
          setQuery(null);
          onBlur?.(e);
        }}
      />
      {open ? (
        <ul
          id={listId}
          role="listbox"
          aria-label="Members to mention"
          className="absolute inset-x-0 top-full z-50 mt-1 max-h-56 overflow-y-auto rounded-md border bg-card p-1 text-sm shadow-lg"
        >
          {matches.map((p, i) => (
            <li
              key={p.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={cn("flex cursor-pointer items-baseline justify-between gap-2 rounded-sm px-2 py-1.5", i === active ? "bg-accent text-accent-foreground" : "hover:bg-accent/60")}
              // Keeps the focus in the text area.
              onMouseDown={(e) => {
                e.preventDefault();
                pick(p);
              }}
            >
              <span className="min-w-0 truncate font-medium">{p.name}</span>
              {p.detail ? <span className="min-w-0 truncate text-xs text-muted-foreground">{p.detail}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
