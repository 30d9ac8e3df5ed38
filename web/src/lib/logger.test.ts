import { afterEach, describe, expect, it } from "vitest";
import { clearLogs, ERROR_LOG_LIMIT, errorLog, logEvent, logMetric, mayAuditClientError, PERFORMANCE_LOG_LIMIT, performanceLog } from "./logger";

afterEach(() => {
  clearLogs();
});

describe("client logs", () => {
  it("keeps the newest 100 errors, newest first, with the entry's fields", () => {
    for (let i = 0; i < ERROR_LOG_LIMIT + 20; i++) logEvent(i % 2 ? "warning" : "error", `e${i}`, { context: { i } });
    const log = errorLog();
    expect(ERROR_LOG_LIMIT).toBe(100);
    expect(log).toHaveLength(100);
    expect(log[0]?.message).toBe("e119");
    expect(log[99]?.message).toBe("e20");
    expect(log[0]).toMatchObject({ level: "warning", context: { i: 119 } });
    expect(log[0]?.id).toMatch(/[0-9a-f-]{36}/);
    expect(log[0]?.sessionId).toBe(log[1]?.sessionId);
    expect(Date.parse(log[0]?.timestamp ?? "")).not.toBeNaN();
  });

  it("keeps the stack of an Error", () => {
    logEvent("error", "boom", { error: new Error("boom") });
    expect(errorLog()[0]?.stack).toContain("boom");
  });

  it("keeps the newest 50 performance metrics", () => {
    for (let i = 0; i < 70; i++) logMetric("route_change", i, { path: "/" });
    expect(PERFORMANCE_LOG_LIMIT).toBe(50);
    expect(performanceLog()).toHaveLength(50);
    expect(performanceLog()[0]).toMatchObject({ name: "route_change", value: 69, context: { path: "/" } });
  });

  it("lets at most one client error a minute into the audit trail", () => {
    expect(mayAuditClientError(1_000_000)).toBe(true);
    expect(mayAuditClientError(1_030_000)).toBe(false);
    expect(mayAuditClientError(1_061_000)).toBe(true);
  });
});
