import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithQuery } from "@/test/utils";
import { draftMatches, draftPattern } from "./draft-matches";
import { CHECK_DEBOUNCE_MS, TryItBox } from "./try-it";

// The try-it box: check_text is asked once typing pauses, and its matches
// are marked in the text in their severity's colour and listed under it;
// a rule being edited is matched at once, before it is saved.

const rpc = vi.fn();
vi.mock("@/lib/supabase", () => ({ getSupabase: () => Promise.resolve({ rpc }) }));

/** check_text as the server answers it for "the best" (code points). */
function answer(_name: string, args: { text: string }) {
  const points = Array.from(args.text);
  const joined = points.join("");
  const at = joined.toLowerCase().indexOf("the best");
  const findings =
    at < 0
      ? []
      : [{ rule: "superlative", rule_version: 1, severity: "critical", start: Array.from(joined.slice(0, at)).length, end: Array.from(joined.slice(0, at)).length + 8, quote: joined.slice(at, at + 8), message: "Unqualified superlative.", guidance: "" }];
  return Promise.resolve({ data: { findings }, error: null, status: 200 });
}

beforeEach(() => {
  rpc.mockReset();
  rpc.mockImplementation(answer);
});
afterEach(() => {
  vi.useRealTimers();
});

const marks = () => Array.from(screen.getByTestId("try-it-marks").querySelectorAll("mark")).map((m) => [m.textContent, m.dataset.severity]);

describe("the try-it box", () => {
  it("checks the text once typing pauses and marks the matches in it", async () => {
    const user = userEvent.setup();
    renderWithQuery(<TryItBox label="Sample text" />);
    await user.type(screen.getByLabelText("Sample text"), "Simply 😀 the best");
    await waitFor(() => {
      expect(marks()).toEqual([["the best", "critical"]]);
    });
    // Typing paused once: one check of the whole text, not one a keystroke.
    const texts = rpc.mock.calls.map((c) => (c[1] as { text: string }).text);
    expect(texts.at(-1)).toBe("Simply 😀 the best");
    expect(texts.length).toBeLessThan(5);
    expect(rpc.mock.calls[0]?.[0]).toBe("check_text");
    expect(screen.getByTestId("try-it-findings").textContent).toContain("Unqualified superlative.");
  });

  it("keeps a mark whose words did not move while the next check is awaited, and drops one whose words changed", async () => {
    const user = userEvent.setup();
    renderWithQuery(<TryItBox label="Sample text" />);
    const box = screen.getByLabelText("Sample text");
    await user.type(box, "the best");
    await waitFor(() => {
      expect(marks()).toEqual([["the best", "critical"]]);
    });
    rpc.mockImplementation(() => new Promise(() => undefined));
    await user.type(box, " ever");
    expect(marks()).toEqual([["the best", "critical"]]);
    await user.clear(box);
    await user.type(box, "a bes");
    expect(marks()).toEqual([]);
  });

  it("marks what the rule being edited finds at once, without asking the server", () => {
    vi.useFakeTimers();
    renderWithQuery(
      <TryItBox
        label="Sample text"
        initialText={"Cures  hypertension.\nNo cure-all."}
        draft={{ code: "no-cure", kind: "phrases", phrases: "cure\ncures", pattern: "", severity: "warning", message: "No cures.", guidance: "" }}
      />,
    );
    expect(marks()).toEqual([
      ["Cures", "warning"],
      ["cure", "warning"],
    ]);
    expect(screen.getByTestId("try-it-findings").textContent).toContain("This rule, not saved yet");
    act(() => {
      vi.advanceTimersByTime(CHECK_DEBOUNCE_MS + 10);
    });
  });
});

describe("a draft rule's matches", () => {
  const rule = { code: "x", severity: "info" as const, message: "", guidance: "" };
  it("match phrases as whole words, any case, any spacing, at code-point offsets", () => {
    const found = draftMatches("😀 The  Best\ntreatment; bestseller", { ...rule, kind: "phrases", phrases: "the best", pattern: "" });
    expect(found.map((f) => [f.start, f.end, f.quote])).toEqual([[2, 11, "The  Best"]]);
  });
  it("run a pattern, with RE2's leading (?i), and take none that does not compile", () => {
    expect(draftMatches("CURE cures", { ...rule, kind: "regex", phrases: "", pattern: "(?i)\\bcures?\\b" }).map((f) => f.quote)).toEqual(["CURE", "cures"]);
    expect(draftPattern({ kind: "regex", phrases: "", pattern: "(cure" })).toBeNull();
    expect(draftPattern({ kind: "phrases", phrases: " \n", pattern: "" })).toBeNull();
  });
});
