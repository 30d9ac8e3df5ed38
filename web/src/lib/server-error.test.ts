import { describe, expect, it } from "vitest";
import { describeFunctionError, describeServerError } from "./server-error";

describe("describeServerError", () => {
  it("shows the human reason instead of PostgREST's generic refusal", () => {
    const refusal = {
      code: "42501",
      message: 'new row violates row-level security policy for table "profiles_v2"',
      details: "Nobody changes their own role.",
    };
    expect(describeServerError(refusal, "x")).toEqual({ message: "Nobody changes their own role.", demo: false });
  });

  it("keeps the message and adds details that say more", () => {
    expect(describeServerError({ message: "The avatar image is too large", details: "Use a smaller image." }, "x")).toEqual({
      message: "The avatar image is too large",
      detail: "Use a smaller image.",
      demo: false,
    });
  });

  it("recognises the demo refusal", () => {
    expect(describeServerError({ message: "Demo mode: writes disabled. This is a read-only preview." }, "x").demo).toBe(true);
  });

  it("takes msg and error_description (auth errors) and falls back", () => {
    expect(describeServerError({ msg: "Invalid login credentials" }, "x").message).toBe("Invalid login credentials");
    expect(describeServerError({ error_description: "Token expired" }, "x").message).toBe("Token expired");
    expect(describeServerError(null, "Something failed").message).toBe("Something failed");
  });
});

describe("describeFunctionError", () => {
  it("reads the server's JSON from a FunctionsHttpError's response", async () => {
    const error = {
      name: "FunctionsHttpError",
      message: "Edge Function returned a non-2xx status code",
      context: new Response(JSON.stringify({ success: false, code: "not_admin", message: "Only an administrator may do this" }), {
        status: 403,
        headers: { "Content-Type": "application/json" },
      }),
    };
    expect((await describeFunctionError(error, "x")).message).toBe("Only an administrator may do this");
  });

  it("falls back to the error itself without a readable body", async () => {
    expect((await describeFunctionError(new Error("Failed to send a request to the Edge Function"), "x")).message).toBe(
      "Failed to send a request to the Edge Function",
    );
  });
});
