import type { RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { ROUTE_PATHS } from "./route-paths";
import { routes } from "./router";

/** The paths of a route tree, depth first; an index route counts as "/". */
function pathsOf(table: RouteObject[]): string[] {
  return table.flatMap((r) => [...(r.index ? ["/"] : r.path === undefined ? [] : [r.path]), ...pathsOf(r.children ?? [])]);
}

describe("ROUTE_PATHS", () => {
  it("lists exactly the router's paths, in its order", () => {
    expect([...ROUTE_PATHS]).toEqual(pathsOf(routes));
  });

  it("names each path once", () => {
    expect(new Set(ROUTE_PATHS).size).toBe(ROUTE_PATHS.length);
  });
});
