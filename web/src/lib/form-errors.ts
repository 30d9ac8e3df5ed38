import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { isRecord } from "./api";
import { stringRecord } from "./data";
import { describeServerError, type ServerProblem } from "./server-error";

/**
 * Per-field messages of a refused call, and putting them beside the fields
 * of a react-hook-form form.
 *
 * The server answers a refused write with a message for the form and, per
 * field, its own words (`fields`):
 * - /rest/v1 (PostgREST shape): `{"code", "message", "details", "hint",
 *   "fields": {"<column>": "<message>"}}`. postgrest-js returns the parsed
 *   body as the error (lib/data's DataError keeps `fields`); a server that
 *   sends only `details` as "column: message; column: message" is read too.
 * - /functions/v1: the JSON body as the function wrote it, `fields` included,
 *   inside a FunctionsHttpError's Response (supabase-js) or a FunctionError's
 *   body (lib/functions).
 */

/** Field name → message. */
export type FieldMessages = Record<string, string>;

const FIELD_KEY = /^([a-z_][a-z0-9_]*):\s+(\S[\s\S]*)$/;
const ENTRY_SEPARATOR = /;\s*(?=[a-z_][a-z0-9_]*:\s)/;

/**
 * Reads `details` written as "column: message; column: message". Anything
 * else (a constraint's technical text, a sentence) is not a field list:
 * null, so it is never mistaken for one.
 */
export function parseFieldDetails(details: string): FieldMessages | null {
  const text = details.trim();
  if (text === "") return null;
  const out: FieldMessages = {};
  for (const entry of text.split(ENTRY_SEPARATOR)) {
    const match = FIELD_KEY.exec(entry.trim());
    if (!match?.[1] || !match[2]) return null;
    out[match[1]] = match[2].replace(/;\s*$/, "").trim();
  }
  return out;
}

/**
 * The per-field messages a refused call carries, from its `fields` object
 * (a DataError's, a function body's or a raw error body's) or else from its
 * `details` text; an empty object when it has none.
 */
export function fieldMessages(error: unknown): FieldMessages {
  if (!isRecord(error) && !(error instanceof Error)) return {};
  const record = error as unknown as Record<string, unknown>;
  const fields = stringRecord(record.fields) ?? (isRecord(record.body) ? stringRecord(record.body.fields) : null);
  if (fields) return fields;
  if (typeof record.details === "string") return parseFieldDetails(record.details) ?? {};
  return {};
}

/** A refused call as a form shows it: the message for the form and the per-field messages. */
export interface ServerFormError {
  problem: ServerProblem;
  fields: FieldMessages;
}

/**
 * Reads a refused call of any surface. A FunctionsHttpError carries the
 * server's JSON in its Response (`context`), which is read here.
 */
export async function readServerError(error: unknown, fallback: string): Promise<ServerFormError> {
  if (isRecord(error) && error.context instanceof Response) {
    const body: unknown = await error.context
      .clone()
      .json()
      .catch(() => null);
    if (body !== null) return { problem: describeServerError(body, fallback), fields: fieldMessages(body) };
  }
  return { problem: describeServerError(error, fallback), fields: fieldMessages(error) };
}

/** What {@link applyServerError} did. */
export interface AppliedServerError extends ServerProblem {
  /** The fields that got their message. */
  shown: string[];
}

export interface ApplyOptions {
  /** Shown for the form when the call failed without a message. */
  fallback: string;
  /**
   * The form's field names. A field message for a name not among them (a
   * column the form does not show) goes to the form's own message.
   */
  fields: readonly string[];
  /**
   * Server names of fields the form names otherwise (an rpc's `file_path`
   * is the form's `file`).
   */
  aliases?: Readonly<Record<string, string>>;
}

/**
 * Shows a refused call in a react-hook-form form: each per-field message
 * beside its field (the first is focused), and the server's message as the
 * form's root error when no field took it (so the same words never show
 * twice). The demo workspace's refusal is always the form's message.
 */
export async function applyServerError<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  { fallback, fields, aliases = {} }: ApplyOptions,
): Promise<AppliedServerError> {
  const { problem, fields: messages } = await readServerError(error, fallback);
  const known = new Set(fields);
  const shown: string[] = [];
  const rest: string[] = [];
  if (!problem.demo) {
    for (const [serverName, message] of Object.entries(messages)) {
      const name = aliases[serverName] ?? serverName;
      if (shown.includes(name)) continue;
      if (known.has(name)) {
        setError(name as Path<T>, { type: "server", message }, { shouldFocus: shown.length === 0 });
        shown.push(name);
      } else if (!rest.includes(message)) {
        rest.push(message);
      }
    }
  }
  if (shown.length === 0) setError("root", { type: "server", message: problem.message });
  else if (rest.length > 0) setError("root", { type: "server", message: rest.join(" ") });
  return { ...problem, shown };
}
