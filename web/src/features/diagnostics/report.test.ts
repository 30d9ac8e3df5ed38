import { describe, expect, it } from "vitest";
import { parseDiagnostics, parseHealth } from "./api";
import { buildReport, databaseLabel, formatUptime, mailSenderLabel, sealingLabel } from "./report";

const server = parseDiagnostics({
  version: "1.2.3",
  database: "postgres",
  migration: 4,
  storage: "not configured",
  mail_sender: "log",
  realtime: "not configured",
  outbox: [
    { id: 2, to: "a@example.com", subject: "Invite", kind: "org_invite", status: "failed", attempts: 3, created_at: "2026-01-01T00:00:00Z", sent_at: null, last_error: "550 no such user" },
    { id: 1, to: "b@example.com", subject: "Invite", kind: "org_invite", status: "logged", attempts: 0, created_at: "2026-01-01T00:00:00Z", sent_at: "2026-01-01T00:00:01Z", last_error: "" },
  ],
});

describe("parseDiagnostics", () => {
  it("reads the rpc's answer, outbox included for admins", () => {
    expect(server).toMatchObject({ version: "1.2.3", database: "postgres", migration: 4, mailSender: "log" });
    expect(server.outbox?.[0]).toMatchObject({ to: "a@example.com", status: "failed", attempts: 3, sentAt: null, lastError: "550 no such user" });
  });

  it("has no outbox for other members", () => {
    expect(parseDiagnostics({ version: "1", database: "sqlite", migration: 4, mail_sender: "smtp" }).outbox).toBeNull();
  });

  it("reads how the audit trail is sealed, for admins", () => {
    const d = parseDiagnostics({
      version: "1",
      audit_sealing: { status: "failing", key_id: "k1", interval_seconds: 60, places: ["data directory", "s3"], last_sealed_at: "2026-02-01T09:59:00Z", last_error: "write the checkpoints to s3: timeout", refused: null },
    });
    expect(d.auditSealing).toEqual({
      status: "failing",
      keyId: "k1",
      intervalSeconds: 60,
      places: ["data directory", "s3"],
      lastSealedAt: "2026-02-01T09:59:00Z",
      lastError: "write the checkpoints to s3: timeout",
      refused: null,
    });
    expect(parseDiagnostics({ version: "1" }).auditSealing).toBeNull();
  });

  it("refuses a body that is not an object", () => {
    expect(() => parseDiagnostics([])).toThrow();
    expect(() => parseHealth({})).toThrow();
  });
});

describe("buildReport", () => {
  const report = buildReport({
    generatedAt: new Date("2026-02-01T10:00:00Z"),
    page: { url: "http://x/diagnostics", userAgent: "UA", viewport: "1440×900", online: true },
    health: parseHealth({ status: "ok", version: "1.2.3", database: "postgres", migration: 4, uptime_seconds: 60 }),
    healthError: null,
    server,
    serverError: null,
    errors: [{ id: "e1", timestamp: "2026-02-01T09:00:00Z", level: "error", message: "boom", sessionId: "s1" }],
    performance: [{ name: "route_change", value: 12, timestamp: "2026-02-01T09:00:00Z" }],
  });

  it("holds the versions, the backends and the client logs", () => {
    expect(report).toMatchObject({
      generated_at: "2026-02-01T10:00:00.000Z",
      health: { status: "ok", migration: 4, uptime_seconds: 60 },
      server: { version: "1.2.3", database: "postgres", mail_sender: "log", realtime: "not configured" },
    });
    expect(report.client_errors).toHaveLength(1);
    expect(report.performance).toHaveLength(1);
  });

  it("summarises the outbox without recipients or subjects", () => {
    const text = JSON.stringify(report);
    expect(text).not.toContain("a@example.com");
    expect(text).not.toContain("Invite");
    expect((report.server as { outbox: unknown }).outbox).toEqual({
      messages: 2,
      by_status: { failed: 1, logged: 1 },
      last_errors: [{ id: 2, kind: "org_invite", status: "failed", attempts: 3, last_error: "550 no such user" }],
    });
  });

  it("records what failed to load", () => {
    const r = buildReport({
      generatedAt: new Date(0),
      page: { url: "", userAgent: "", viewport: "", online: false },
      health: null,
      healthError: "HTTP 503",
      server: null,
      serverError: "JWT expired",
      errors: [],
      performance: [],
    });
    expect(r.health).toEqual({ error: "HTTP 503" });
    expect(r.server).toEqual({ error: "JWT expired" });
  });
});

describe("labels", () => {
  it("names the audit trail's sealing", () => {
    const base = { status: "on" as const, places: ["data directory", "s3"], keyId: "k1", lastError: null, refused: null };
    expect(sealingLabel(base)).toEqual({ title: "Sealed", detail: "Signed checkpoints (key k1) go to the data directory and S3.", tone: "ok" });
    expect(sealingLabel({ ...base, status: "failing", lastError: "disk full" })).toMatchObject({ title: "Failing", tone: "warn" });
    expect(sealingLabel({ ...base, refused: "entry 5 is missing" }).detail).toBe("Your chain no longer matches its checkpoint: entry 5 is missing.");
    expect(sealingLabel({ ...base, status: "off" }).tone).toBe("muted");
  });

  it("names the mail sender honestly", () => {
    expect(mailSenderLabel("log").title).toBe("Log only");
    expect(mailSenderLabel("smtp").title).toBe("SMTP");
  });

  it("names databases and uptimes", () => {
    expect(databaseLabel("sqlite")).toBe("SQLite");
    expect(databaseLabel("postgres")).toBe("PostgreSQL");
    expect(formatUptime(42)).toBe("42 s");
    expect(formatUptime(3 * 3600 + 5 * 60)).toBe("3 h 5 min");
    expect(formatUptime(2 * 86_400 + 3600)).toBe("2 d 1 h");
  });
});
