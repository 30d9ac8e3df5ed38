/** Opens a highlighted match in a search snippet (a private-use character). */
export const MARK_OPEN = "\uE000";
/** Closes a highlighted match. */
export const MARK_CLOSE = "\uE001";

/** A run of snippet text, highlighted when it matched the query. */
export interface SnippetPart {
  text: string;
  match: boolean;
}

/**
 * Splits a search_content snippet into plain and matched runs. The server
 * wraps each match in U+E000 … U+E001 inside plain text, so the page can
 * render <mark> elements without ever treating the snippet as HTML. Stray or
 * unbalanced markers are dropped rather than shown.
 */
export function splitSnippet(snippet: string | null | undefined): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let match = false;
  let text = "";
  const flush = () => {
    if (text !== "") {
      const last = parts.at(-1);
      if (last?.match === match) last.text += text;
      else parts.push({ text, match });
    }
    text = "";
  };
  for (const ch of snippet ?? "") {
    if (ch === MARK_OPEN) {
      flush();
      match = true;
    } else if (ch === MARK_CLOSE) {
      flush();
      match = false;
    } else {
      text += ch;
    }
  }
  flush();
  return parts;
}
