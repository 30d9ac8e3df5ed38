import { describe, expect, it } from "vitest";
import { FunctionError } from "@/lib/functions";
import { passwordProblem } from "@/lib/password";
import {
  backendLabel,
  DEFAULT_ADMIN_EMAIL,
  describeSettings,
  generateTemporaryPassword,
  parseDbStatus,
  repairCredential,
  standingFromError,
  standingFromSettings,
  validateCreateAdmin,
  validateForceCreate,
} from "./safe";

describe("generateTemporaryPassword", () => {
  it("always meets the password rules", () => {
    for (let i = 0; i < 200; i++) {
      const p = generateTemporaryPassword();
      expect(p).toHaveLength(16);
      expect(passwordProblem(p)).toBeUndefined();
    }
  });

  it("is at least 8 characters and differs between calls", () => {
    expect(generateTemporaryPassword(4)).toHaveLength(8);
    expect(generateTemporaryPassword()).not.toBe(generateTemporaryPassword());
  });

  it("avoids look-alike characters", () => {
    for (let i = 0; i < 50; i++) expect(generateTemporaryPassword(32)).not.toMatch(/[0O1lI]/);
  });
});

describe("safe-mode validation", () => {
  it("uses the spec's messages", () => {
    expect(validateCreateAdmin(DEFAULT_ADMIN_EMAIL, "")).toBe("Email and password required");
    expect(validateCreateAdmin(" ", "x")).toBe("Email and password required");
    expect(validateCreateAdmin(DEFAULT_ADMIN_EMAIL, "x")).toBeUndefined();
    expect(validateForceCreate("")).toBe("Email address required");
    expect(validateForceCreate("a@b.c")).toBeUndefined();
  });
});

describe("answers", () => {
  it("parses GET_DB_STATUS", () => {
    expect(parseDbStatus({ success: true, backend: "sqlite", healthy: true, has_users: false, migration_level: 4 })).toEqual({
      backend: "sqlite",
      healthy: true,
      hasUsers: false,
      migrationLevel: 4,
      message: "",
    });
    expect(parseDbStatus({ healthy: false, migration_level: null, message: "down" })).toMatchObject({
      healthy: false,
      migrationLevel: null,
      message: "down",
    });
    expect(backendLabel("postgres")).toBe("PostgreSQL");
  });

  it("describes the workspace settings", () => {
    const rows = describeSettings({ preview_passcode_enabled: false, preview_passcode_set: true, site_access_mode: "PRIVATE", disable_signup: true, block_indexing: false });
    expect(rows).toEqual([
      { label: "Passcode gate", value: "Off" },
      { label: "Passcode set", value: "Yes" },
      { label: "Site access", value: "PRIVATE" },
      { label: "Sign-up disabled", value: "Yes" },
      { label: "Indexing blocked", value: "No" },
    ]);
    expect(describeSettings(undefined)).toEqual([]);
  });

  it("says which credential a repair will use", () => {
    expect(repairCredential(" key ", "a@b.c")).toBe("recovery-key");
    expect(repairCredential("", "a@b.c")).toBe("session");
    expect(repairCredential("", undefined)).toBe("none");
  });

  it("tells the instance operator's session from an organisation admin's", () => {
    expect(standingFromSettings({ success: true, editable: true, settings: {} })).toBe("operator");
    expect(standingFromSettings({ success: true, editable: false, settings: {}, message: "Instance settings are managed by the instance operator" })).toBe(
      "not-operator",
    );
    // An older answer without the flag gives no rights.
    expect(standingFromSettings({ success: true, settings: {} })).toBe("not-operator");
    expect(standingFromError(new FunctionError("Only an administrator may do this", 403, "not_admin"))).toBe("not-operator");
    expect(standingFromError(new FunctionError("Gate", 401, "gate_required"))).toBe("unknown");
    expect(standingFromError(new FunctionError("The server could not be reached.", 0, "network_error"))).toBe("unknown");
    expect(standingFromError(new Error("boom"))).toBe("unknown");
  });
});
