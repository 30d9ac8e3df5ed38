import { describe, expect, it } from "vitest";
import { countsComparable, defaultTab, isFiltered, paramsForTab, readView, statusChoices, statusFits } from "./queue-state";

const PRODUCT = "6F1C2A9E-3D4B-4C5A-8E7F-0A1B2C3D4E5F";

describe("readView", () => {
  it("reads the tab and the filters from the URL", () => {
    const view = readView(new URLSearchParams(`tab=submitted&product=${PRODUCT}&type=email&role=reviewer_legal&status=approved`), "marketer");
    expect(view).toEqual({
      tab: "submitted",
      filters: { product: PRODUCT.toLowerCase(), type: "email", role: "reviewer_legal", status: "approved" },
    });
  });

  it("lands each role on its tab when the URL names none", () => {
    expect(readView(new URLSearchParams(), "reviewer_medical").tab).toBe("mine");
    expect(readView(new URLSearchParams(), "marketer").tab).toBe("submitted");
    expect(readView(new URLSearchParams(), "admin").tab).toBe("open");
    expect(readView(new URLSearchParams("tab=bogus"), "viewer").tab).toBe("open");
    expect(defaultTab(undefined)).toBe("open");
  });

  it("drops what the screen could not send: unknown values and another tab's status", () => {
    const view = readView(new URLSearchParams("tab=open&product=nope&type=poster&role=marketer&status=approved"), "admin");
    expect(view.filters).toEqual({ product: "", type: "", role: "", status: "" });
    expect(readView(new URLSearchParams("tab=mine&status=claimed"), "reviewer_legal").filters.status).toBe("claimed");
    expect(readView(new URLSearchParams("tab=submitted&status=claimed"), "marketer").filters.status).toBe("");
  });
});

describe("statuses per tab", () => {
  it("offer what review_queue takes on each tab", () => {
    expect(statusChoices("mine").map((c) => c.value)).toEqual(["overdue", "claimed", "unclaimed"]);
    expect(statusChoices("open").map((c) => c.value)).toEqual(["overdue"]);
    expect(statusChoices("submitted").map((c) => c.value)).toEqual(["overdue", "open", "approved", "changes_requested", "rejected", "withdrawn"]);
    expect(statusFits("open", "")).toBe(true);
    expect(statusFits("open", "claimed")).toBe(false);
  });

  it("keep the filters when the tab changes, except a status the new tab does not know", () => {
    const before = new URLSearchParams("tab=mine&type=email&status=claimed");
    const after = paramsForTab(before, "open");
    expect(after.get("tab")).toBe("open");
    expect(after.get("type")).toBe("email");
    expect(after.has("status")).toBe(false);
    expect(paramsForTab(new URLSearchParams("status=overdue"), "submitted").get("status")).toBe("overdue");
    // The original is left as it was.
    expect(before.get("status")).toBe("claimed");
  });

  it("show other tabs' counts only when the filters mean the same there", () => {
    expect(countsComparable({ product: "", type: "email", role: "", status: "overdue" })).toBe(true);
    expect(countsComparable({ product: "", type: "", role: "", status: "claimed" })).toBe(false);
    expect(isFiltered({ product: "", type: "", role: "", status: "" })).toBe(false);
    expect(isFiltered({ product: "", type: "", role: "reviewer_medical", status: "" })).toBe(true);
  });
});
