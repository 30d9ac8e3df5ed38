import { PostgrestClient } from "@supabase/postgrest-js";
import { describe, expect, it, vi } from "vitest";
import { DataError, unwrap } from "./data";
import { applyServerError, fieldMessages, parseFieldDetails, readServerError } from "./form-errors";
import { FunctionError } from "./functions";

/** A PostgREST client whose every request is answered with `status` and `body`. */
function clientAnswering(status: number, body: unknown) {
  const fetch = vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } })));
  return new PostgrestClient("http://test/rest/v1", { fetch });
}

const refusal = {
  code: "23514",
  message: "The brand name is required.",
  details: 'new row for relation "products" violates check constraint "products_brand_name_check"',
  hint: null,
  fields: { brand_name: "The brand name is required.", markets: "Markets may hold at most 50 entries." },
};

describe("per-field messages of a /rest/v1 refusal", () => {
  it("survive postgrest-js (it returns the parsed body) and unwrap keeps them on the DataError", async () => {
    const result = await clientAnswering(400, refusal).from("products").insert({ brand_name: "" }).select("*");
    expect(result.error).toMatchObject({ fields: refusal.fields });
    let thrown: unknown;
    try {
      unwrap(result);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(DataError);
    expect((thrown as DataError).fields).toEqual(refusal.fields);
    expect((thrown as DataError).status).toBe(400);
    expect(fieldMessages(thrown)).toEqual(refusal.fields);
  });

  it("are read from `details` written as 'column: message; column: message' when `fields` is absent", () => {
    const details = "brand_name: The brand name is required.; launch_date: The launch date must be a date written YYYY-MM-DD.";
    expect(fieldMessages({ message: "Two fields are invalid.", details })).toEqual({
      brand_name: "The brand name is required.",
      launch_date: "The launch date must be a date written YYYY-MM-DD.",
    });
    expect(fieldMessages(new DataError("x", 400, "23514", "title: The title is required."))).toEqual({ title: "The title is required." });
  });

  it("prefer `fields` over `details`", () => {
    expect(fieldMessages({ details: "title: From details.", fields: { title: "From fields." } })).toEqual({ title: "From fields." });
  });

  it("never take other details for a field list", () => {
    expect(parseFieldDetails(refusal.details)).toBeNull();
    expect(parseFieldDetails("Nobody changes their own role.")).toBeNull();
    expect(parseFieldDetails("Key (brand_name)=(Zephyra) already exists.")).toBeNull();
    expect(parseFieldDetails("")).toBeNull();
    expect(fieldMessages({ message: "x", details: "Note: a sentence." })).toEqual({});
    expect(fieldMessages(null)).toEqual({});
    expect(fieldMessages("text")).toEqual({});
  });

  it("keep a semicolon that is part of a message", () => {
    expect(parseFieldDetails("citation: Use the journal's style; not a URL; passage: Quote it.")).toEqual({
      citation: "Use the journal's style; not a URL",
      passage: "Quote it.",
    });
  });
});

describe("per-field messages of a /functions/v1 refusal", () => {
  const body = { success: false, code: "invalid", message: "Check the highlighted fields.", fields: { admin_email: "Enter a valid e-mail address." } };

  it("are read from a FunctionsHttpError's Response, as the server wrote the body", async () => {
    const error = { name: "FunctionsHttpError", message: "Edge Function returned a non-2xx status code", context: new Response(JSON.stringify(body), { status: 400 }) };
    const read = await readServerError(error, "fallback");
    expect(read.problem.message).toBe("Check the highlighted fields.");
    expect(read.fields).toEqual(body.fields);
  });

  it("are read from a FunctionError's body (plain-fetch calls)", async () => {
    const error = new FunctionError(body.message, 400, body.code, body);
    expect(fieldMessages(error)).toEqual(body.fields);
    expect((await readServerError(error, "fallback")).fields).toEqual(body.fields);
  });
});

describe("applyServerError", () => {
  const fields = ["brand_name", "markets", "isi_text"] as const;

  it("puts each message beside its field, focuses the first, and leaves the form message out", async () => {
    const setError = vi.fn();
    const applied = await applyServerError(setError, new DataError(refusal.message, 400, refusal.code, refusal.details, refusal.fields), {
      fallback: "The product could not be saved.",
      fields,
    });
    expect(setError).toHaveBeenCalledWith("brand_name", { type: "server", message: "The brand name is required." }, { shouldFocus: true });
    expect(setError).toHaveBeenCalledWith("markets", { type: "server", message: "Markets may hold at most 50 entries." }, { shouldFocus: false });
    expect(setError).not.toHaveBeenCalledWith("root", expect.anything());
    expect(applied.shown).toEqual(["brand_name", "markets"]);
  });

  it("gives the form the messages of fields it does not show", async () => {
    const setError = vi.fn();
    await applyServerError(setError, { message: "Refused.", fields: { brand_name: "Too long.", org_id: "Not yours." } }, { fallback: "x", fields });
    expect(setError).toHaveBeenCalledWith("brand_name", { type: "server", message: "Too long." }, { shouldFocus: true });
    expect(setError).toHaveBeenCalledWith("root", { type: "server", message: "Not yours." });
  });

  it("shows the server's message for the form when no field took one", async () => {
    const setError = vi.fn();
    const applied = await applyServerError(setError, new DataError("A product named “Zephyra” already exists.", 409, "23505"), {
      fallback: "x",
      fields,
    });
    expect(setError).toHaveBeenCalledTimes(1);
    expect(setError).toHaveBeenCalledWith("root", { type: "server", message: "A product named “Zephyra” already exists." });
    expect(applied.shown).toEqual([]);
  });

  it("falls back without a message, and keeps the demo refusal for the form", async () => {
    const setError = vi.fn();
    await applyServerError(setError, new Error(""), { fallback: "The product could not be saved.", fields });
    expect(setError).toHaveBeenCalledWith("root", { type: "server", message: "The product could not be saved." });

    setError.mockClear();
    const demo = await applyServerError(
      setError,
      { message: "Demo mode: writes disabled. This is a read-only preview.", fields: { brand_name: "x" } },
      { fallback: "x", fields },
    );
    expect(demo.demo).toBe(true);
    expect(setError).toHaveBeenCalledTimes(1);
    expect(setError).toHaveBeenCalledWith("root", { type: "server", message: "Demo mode: writes disabled. This is a read-only preview." });
  });
});

describe("applyServerError with aliases", () => {
  it("shows an rpc argument's message on the form field that stands for it, once", async () => {
    const setError = vi.fn();
    await applyServerError(
      setError,
      { message: "Only PDF, PNG, JPEG and WebP files can be used.", fields: { file_path: "Only PDF, PNG, JPEG and WebP files can be used.", file_name: "Too long." } },
      { fallback: "x", fields: ["title", "file"], aliases: { file_path: "file", file_name: "file" } },
    );
    expect(setError).toHaveBeenCalledTimes(1);
    expect(setError).toHaveBeenCalledWith("file", { type: "server", message: "Only PDF, PNG, JPEG and WebP files can be used." }, { shouldFocus: true });
  });
});
