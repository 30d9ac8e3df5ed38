import type { QueryClient } from "@tanstack/react-query";
import { auditKeys } from "@/entities/audit";
import { ApiError, isRecord } from "@/lib/api";
import { dispositionFilename } from "@/lib/download";
import { getSupabase } from "@/lib/supabase";

/**
 * The exports an inspector is handed (issue 16), served by the server's
 * /api as files: the record of a review round (`GET
 * /api/reviews/{id}/record.pdf|json`) and the Form 2253 data of an approved
 * asset (`GET /api/assets/{id}/form-2253.pdf|json`). They are read with the
 * session's bearer token; the server records each export in the audit
 * trail, so the trail's screens are refreshed after one.
 */

/** The two forms of every export. */
export type ExportFormat = "pdf" | "json";

/** A downloaded export: its bytes and the file name the server gave it. */
export interface ExportFile {
  blob: Blob;
  filename: string;
}

/** The path of a review round's record. */
export function reviewRecordPath(reviewId: string, format: ExportFormat): string {
  return `/api/reviews/${encodeURIComponent(reviewId)}/record.${format}`;
}

/** The path of an approved asset's Form 2253 data. */
export function form2253Path(assetId: string, format: ExportFormat): string {
  return `/api/assets/${encodeURIComponent(assetId)}/form-2253.${format}`;
}

/**
 * GETs the export at `path` as the signed-in member. Rejects with an
 * {@link ApiError} carrying the server's message ({code, message}) on a
 * refusal, or saying the server could not be reached.
 */
export async function fetchExport(path: string, fallbackName: string): Promise<ExportFile> {
  const sb = await getSupabase();
  const { data } = await sb.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new ApiError("Your session has ended. Sign in again to download.", 401);
  let response: Response;
  try {
    response = await fetch(path, { headers: { Authorization: `Bearer ${token}` }, credentials: "same-origin" });
  } catch (error) {
    throw new ApiError("The server could not be reached.", 0, { cause: error });
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    const message = isRecord(body) && typeof body.message === "string" && body.message.trim() !== "" ? body.message : `The server answered with HTTP ${response.status}.`;
    throw new ApiError(message, response.status);
  }
  return { blob: await response.blob(), filename: dispositionFilename(response.headers.get("Content-Disposition")) ?? fallbackName };
}

/** After an export: the audit trail has its entry. */
export async function invalidateAfterExport(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: auditKeys.all });
}
