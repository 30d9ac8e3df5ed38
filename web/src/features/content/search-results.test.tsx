import type { UseQueryResult } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { SearchAnswer, SearchResult } from "@/entities/content";
import { SearchResults } from "./assets-tab";

function answered(results: SearchResult[]): UseQueryResult<SearchAnswer> {
  return { isPending: false, isError: false, data: { results } } as unknown as UseQueryResult<SearchAnswer>;
}

const hit = (over: Partial<SearchResult>): SearchResult => ({
  kind: "asset",
  id: "a1",
  title: "Cardiomax PI",
  subtitle: "FB-US-0001",
  status: "draft",
  snippet: "take one \uE000Quelzarin\uE001 tablet",
  rank: 0.4,
  asset_id: "a1",
  ...over,
});

describe("SearchResults", () => {
  it("says an asset was found in an earlier version and opens that version", () => {
    render(
      <MemoryRouter>
        <SearchResults query="quelzarin" what="assets" search={answered([hit({ id: "a2", asset_id: "a2", title: "Current" }), hit({ version: 1 })])} />
      </MemoryRouter>,
    );
    const [current, older] = within(screen.getByRole("list", { name: "Search results" })).getAllByRole("link");
    expect(current).toHaveAttribute("href", "/assets/a2");
    expect(current).not.toHaveTextContent(/earlier version/);
    expect(older).toHaveAttribute("href", "/assets/a1?v=1");
    expect(older).toHaveTextContent("Found in v1, an earlier version");
  });

  it("shows no server timing", () => {
    render(
      <MemoryRouter>
        <SearchResults query="quelzarin" what="assets" search={answered([hit({})])} />
      </MemoryRouter>,
    );
    expect(screen.getByText("1 match, best first")).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/\d\s*ms\b/);
  });
});
