import { toast } from "sonner";
import { isRecord } from "./api";
import { DEMO_WRITE_REFUSED, errorMessage } from "./errors";

/** What to tell a person about a refused or failed call. */
export interface ServerProblem {
  /** The server's message (or the fallback). */
  message: string;
  /** The server's explanation, when it sent one beside the message. */
  detail?: string;
  /** The refusal is the demo workspace's read-only rule. */
  demo: boolean;
}

// PostgREST-style refusals whose message is generic; the server puts the
// human reason ("Nobody changes their own role.") in `details`.
const GENERIC_REFUSAL = /^(new row violates row-level security policy|permission denied for)/;

/**
 * Describes a failed data-API, auth or function call for the screen: the
 * server's message (first of msg, message, error_description, error), with
 * its `details` as the explanation, and the details alone when the message
 * is only PostgREST's generic refusal.
 */
export function describeServerError(error: unknown, fallback: string): ServerProblem {
  const message = errorMessage(error, fallback);
  const details = isRecord(error) && typeof error.details === "string" && error.details.trim() !== "" ? error.details : undefined;
  if (message === DEMO_WRITE_REFUSED) return { message, demo: true };
  if (details && GENERIC_REFUSAL.test(message)) return { message: details, demo: false };
  if (details && details !== message) return { message, detail: details, demo: false };
  return { message, demo: false };
}

/**
 * The error body of a failed `functions.invoke` call. supabase-js reports a
 * non-2xx answer as a FunctionsHttpError whose `context` is the Response;
 * the server's JSON ({success:false, code, message}) is in its body.
 */
export async function describeFunctionError(error: unknown, fallback: string): Promise<ServerProblem> {
  if (isRecord(error) && error.context instanceof Response) {
    const body: unknown = await error.context
      .clone()
      .json()
      .catch(() => null);
    if (body !== null) return describeServerError(body, fallback);
  }
  return describeServerError(error, fallback);
}

/**
 * Shows a failed call as an error toast titled `title`, with the server's
 * message as its description; the demo workspace's refusal is shown as
 * itself (spec: 'Demo mode: writes disabled. This is a read-only preview.').
 */
export function toastServerError(title: string, problem: ServerProblem): void {
  if (problem.demo) {
    toast.error(problem.message);
    return;
  }
  const description = problem.detail ? `${problem.message} ${problem.detail}` : problem.message;
  toast.error(title, { description });
}
