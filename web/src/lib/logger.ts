/**
 * The client error log (last 100 entries) and performance log (last 50) of
 * the spec, kept in local storage so Diagnostics can show them after a
 * reload. Nothing here throws: logging must never break the app.
 */

import { whenIdle } from "./idle";

export type LogLevel = "error" | "warning" | "info";

export interface LogEntry {
  id: string;
  timestamp: string;
  level: LogLevel;
  message: string;
  stack?: string | undefined;
  context?: Record<string, unknown> | undefined;
  sessionId: string;
}

export interface PerformanceMetric {
  name: string;
  value: number;
  timestamp: string;
  context?: Record<string, unknown> | undefined;
}

export const ERROR_LOG_LIMIT = 100;
export const PERFORMANCE_LOG_LIMIT = 50;
/** "Recent" lists show this many by default. */
export const RECENT_DEFAULT = 10;

const ERROR_KEY = "fairbalance.log.errors";
const PERF_KEY = "fairbalance.log.performance";
const SESSION_KEY = "fairbalance.log.session";

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

function read<T>(key: string): T[] {
  try {
    const raw = storage()?.getItem(key);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? (parsed as T[]) : [];
  } catch {
    return [];
  }
}

function write(key: string, value: unknown[]): void {
  try {
    storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or disabled: drop the entry rather than fail
  }
}

/** A per-tab id that ties log entries of one visit together. */
export function logSessionId(): string {
  try {
    let id = window.sessionStorage.getItem(SESSION_KEY);
    if (!id) {
      id = crypto.randomUUID();
      window.sessionStorage.setItem(SESSION_KEY, id);
    }
    return id;
  } catch {
    return "unknown";
  }
}

type Listener = () => void;
const listeners = new Set<Listener>();

/** Calls `listener` whenever either log changes; returns the unsubscribe function. */
export function subscribeLogs(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify(): void {
  for (const listener of listeners) listener();
}

/** Appends to the error log, keeping the newest {@link ERROR_LOG_LIMIT}. */
export function logEvent(level: LogLevel, message: string, details: { error?: unknown; context?: Record<string, unknown> } = {}): LogEntry {
  const stack = details.error instanceof Error ? details.error.stack : undefined;
  const entry: LogEntry = {
    id: crypto.randomUUID(),
    timestamp: new Date().toISOString(),
    level,
    message,
    stack,
    context: details.context,
    sessionId: logSessionId(),
  };
  const entries = [...read<LogEntry>(ERROR_KEY), entry].slice(-ERROR_LOG_LIMIT);
  write(ERROR_KEY, entries);
  notify();
  return entry;
}

// Metrics are mostly recorded while a screen is being shown; rewriting the
// log in local storage then would compete with the screen for the main
// thread. They are kept here and written together once the browser is idle
// (or at once when the log is read).
let pendingMetrics: PerformanceMetric[] = [];
let flushScheduled = false;

function flushMetrics(): void {
  flushScheduled = false;
  if (pendingMetrics.length === 0) return;
  const batch = pendingMetrics;
  pendingMetrics = [];
  write(PERF_KEY, [...read<PerformanceMetric>(PERF_KEY), ...batch].slice(-PERFORMANCE_LOG_LIMIT));
  notify();
}

/** Appends to the performance log, keeping the newest {@link PERFORMANCE_LOG_LIMIT}; written when the browser is idle. */
export function logMetric(name: string, value: number, context?: Record<string, unknown>): void {
  pendingMetrics.push({ name, value, timestamp: new Date().toISOString(), context });
  if (flushScheduled) return;
  flushScheduled = true;
  whenIdle(flushMetrics, 5000);
}

/** The error log, newest first. */
export function errorLog(): LogEntry[] {
  return read<LogEntry>(ERROR_KEY).reverse();
}

/** The performance log, newest first (metrics not yet written included). */
export function performanceLog(): PerformanceMetric[] {
  flushMetrics();
  return read<PerformanceMetric>(PERF_KEY).reverse();
}

export function clearLogs(): void {
  pendingMetrics = [];
  storage()?.removeItem(ERROR_KEY);
  storage()?.removeItem(PERF_KEY);
  notify();
}

let installed = false;

/**
 * Records uncaught errors and unhandled rejections, and the page's load
 * timings, once per page. `onError` is told of each uncaught error (the app
 * uses it to record an audit event).
 */
export function installGlobalLogging(onError?: (entry: LogEntry) => void): void {
  if (installed) return;
  installed = true;
  window.addEventListener("error", (event) => {
    const entry = logEvent("error", event.message || "Uncaught error", {
      error: event.error,
      context: { source: event.filename, line: event.lineno, column: event.colno },
    });
    onError?.(entry);
  });
  window.addEventListener("unhandledrejection", (event) => {
    const reason: unknown = event.reason;
    const entry = logEvent("error", reason instanceof Error ? reason.message : String(reason), {
      error: reason,
      context: { kind: "unhandledrejection" },
    });
    onError?.(entry);
  });
  // The page's load timings, once, after the load event has finished (its
  // end time is only known then).
  const logNavigation = () => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    if (!nav) return;
    logMetric("page_load", Math.round(nav.loadEventEnd - nav.startTime), { path: window.location.pathname });
    logMetric("time_to_first_byte", Math.round(nav.responseStart - nav.startTime));
  };
  if (document.readyState === "complete") {
    setTimeout(logNavigation, 0);
  } else {
    window.addEventListener("load", () => setTimeout(logNavigation, 0), { once: true });
  }
}

const AUDIT_INTERVAL_MS = 60_000;
let lastAudit = 0;

/**
 * Whether an uncaught error may be recorded in the audit trail now: at most
 * one per minute per tab, so an error in a render loop cannot flood it.
 */
export function mayAuditClientError(now: number = Date.now()): boolean {
  if (now - lastAudit < AUDIT_INTERVAL_MS) return false;
  lastAudit = now;
  return true;
}
