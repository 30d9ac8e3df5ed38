import { describe, expect, it } from "vitest";
import type { Annotation, AnnotationTarget } from "@/entities/annotations";
import {
  canAnnotate,
  canResolve,
  filterThreads,
  pageOfOffset,
  pageStarts,
  placeOf,
  readingOrder,
  shorten,
  targetLabel,
  threadLabel,
  threadNumbers,
} from "./annotation-threads";
import type { Viewer } from "./review-rules";

// The threads of a version as the page lists and numbers them: reading
// order down the pages, each thread's place, how it is named, and who may
// write to it.

const pages = ["Zentria detail aid\nZentria relieves pain", "Dosing\nTake one tablet.", "ISI"];
const starts = pageStarts(pages);
const lengths = pages.map((p) => Array.from(p).length);

const text = (start: number, exact = "x"): AnnotationTarget => ({ type: "text", exact, prefix: "", suffix: "", start, end: start + exact.length });
const region = (page: number, y: number): AnnotationTarget => ({ type: "region", page, x: 0.1, y, width: 0.2, height: 0.1 });
const row = (id: string, target: AnnotationTarget, extra: Partial<Annotation> = {}) => ({ id, thread_id: `t-${id}`, target, state: "open" as const, ...extra });

describe("pages of a version's text", () => {
  it("start one past the previous page's form feed, in code points", () => {
    expect(starts).toEqual([0, 41, 65]);
    expect(pageStarts(["𝛼β", "x"])).toEqual([0, 3]);
    expect(pageOfOffset(starts, 0)).toBe(1);
    expect(pageOfOffset(starts, 40)).toBe(1);
    expect(pageOfOffset(starts, 41)).toBe(2);
    expect(pageOfOffset(starts, 66)).toBe(3);
    expect(pageOfOffset([0], 500)).toBe(1);
  });

  it("place a quote on its page by how far into the page's text it starts, a region by its top", () => {
    expect(placeOf(text(20), starts, lengths)).toEqual({ page: 1, y: 0.5 });
    expect(placeOf(text(41), starts, lengths)).toEqual({ page: 2, y: 0 });
    expect(placeOf(region(3, 0.4), starts, lengths)).toEqual({ page: 3, y: 0.4 });
    expect(placeOf({ type: "text", exact: "lost" }, starts, lengths)).toBeNull();
    // An authored version is one page.
    expect(placeOf(text(5), [], [])).toEqual({ page: 1, y: 0 });
  });
});

describe("reading order", () => {
  it("goes down the pages, interleaving quotes and regions by where they are, unplaced threads last", () => {
    const rows = [row("a", region(2, 0.9)), row("b", text(50)), row("c", { type: "text", exact: "gone" }), row("d", region(1, 0.1)), row("e", text(30))];
    const ordered = readingOrder(rows, (r) => placeOf(r.target, starts, lengths));
    expect(ordered.map((r) => r.id)).toEqual(["d", "e", "b", "a", "c"]);
    expect([...threadNumbers(ordered)]).toEqual([
      ["t-d", 1],
      ["t-e", 2],
      ["t-b", 3],
      ["t-a", 4],
      ["t-c", 5],
    ]);
  });

  it("keeps the given order between threads at the same place", () => {
    const rows = [row("x", text(10)), row("y", text(10))];
    expect(readingOrder(rows, (r) => placeOf(r.target, starts, lengths)).map((r) => r.id)).toEqual(["x", "y"]);
  });

  it("lists open, resolved or all threads", () => {
    const rows = [row("a", text(1)), row("b", text(2), { state: "resolved" })];
    expect(filterThreads(rows, "open").map((r) => r.id)).toEqual(["a"]);
    expect(filterThreads(rows, "resolved").map((r) => r.id)).toEqual(["b"]);
    expect(filterThreads(rows, "all").map((r) => r.id)).toEqual(["a", "b"]);
  });
});

describe("labels", () => {
  it("shortens a quote at a word, with an ellipsis", () => {
    expect(shorten("Zentria relieves moderate pain within two weeks", 24)).toBe("Zentria relieves…");
    expect(shorten("  short \n text ", 24)).toBe("short text");
    expect(shorten("Supercalifragilistic", 10)).toBe("Supercali…");
  });

  it("names what a thread points at, with its number", () => {
    expect(threadLabel(1, text(0, "relieves moderate pain"))).toBe("#1 “relieves moderate pain”");
    expect(threadLabel(3, region(2, 0.5))).toBe("#3 Area on page 2");
    expect(targetLabel(region(1, 0.5), { image: true })).toBe("Area of the image");
    expect(threadLabel(undefined, text(0, "a b c d e f"), { max: 6 })).toBe("“a b c…”");
  });
});

describe("who writes", () => {
  const viewer = (role: string, userId = "u1", readOnly = false): Viewer => ({ role, userId, readOnly });

  it("every member but viewers annotates and replies; nobody in the read-only demo", () => {
    expect(canAnnotate(viewer("marketer"))).toBe(true);
    expect(canAnnotate(viewer("reviewer_legal"))).toBe(true);
    expect(canAnnotate(viewer("admin"))).toBe(true);
    expect(canAnnotate(viewer("viewer"))).toBe(false);
    expect(canAnnotate(viewer("reviewer_medical", "u1", true))).toBe(false);
    expect(canAnnotate({ role: "marketer", userId: null, readOnly: false })).toBe(false);
  });

  it("the thread's author or a reviewer resolves and reopens it", () => {
    expect(canResolve(viewer("marketer", "u1"), { created_by: "u1" })).toBe(true);
    expect(canResolve(viewer("marketer", "u2"), { created_by: "u1" })).toBe(false);
    expect(canResolve(viewer("admin", "u2"), { created_by: "u1" })).toBe(false);
    expect(canResolve(viewer("reviewer_regulatory", "u2"), { created_by: "u1" })).toBe(true);
    expect(canResolve(viewer("viewer", "u1"), { created_by: "u1" })).toBe(false);
    expect(canResolve(viewer("reviewer_medical", "u2", true), { created_by: "u1" })).toBe(false);
  });
});
