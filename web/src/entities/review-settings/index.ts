import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { unwrap } from "@/lib/data";
import type { Row } from "@/lib/db-types";
import { getSupabase } from "@/lib/supabase";

/** The organisation's review settings (table `review_settings`). */
export type ReviewSettingsRow = Row<"review_settings">;

/** The settings as screens use them; `updated_at`/`updated_by` are null while the defaults apply. */
export interface ReviewSettings {
  approval_validity_months: number;
  updated_at: string | null;
  updated_by: string | null;
}

/** The server's bounds of the approval validity (fairbalance: DefaultApprovalValidityMonths, MaxApprovalValidityMonths). */
export const APPROVAL_VALIDITY = { default: 12, min: 1, max: 60 } as const;

export const reviewSettingsKeys = {
  all: ["review_settings"] as const,
  detail: (orgId: string | null | undefined) => [...reviewSettingsKeys.all, orgId ?? null] as const,
};

/** The organisation's review settings; with no row saved, the defaults (12 months). */
export function reviewSettingsQuery(orgId: string | null | undefined) {
  return queryOptions({
    queryKey: reviewSettingsKeys.detail(orgId),
    enabled: Boolean(orgId),
    queryFn: async (): Promise<ReviewSettings> => {
      const sb = await getSupabase();
      const row = unwrap<ReviewSettingsRow | null>(await sb.from("review_settings").select("*").maybeSingle());
      return row
        ? { approval_validity_months: row.approval_validity_months, updated_at: row.updated_at, updated_by: row.updated_by }
        : { approval_validity_months: APPROVAL_VALIDITY.default, updated_at: null, updated_by: null };
    },
  });
}

/** Sets how many months an approval stays valid (assets approved from now on). */
export async function setReviewSettings(approvalValidityMonths: number): Promise<ReviewSettingsRow> {
  const sb = await getSupabase();
  return unwrap(await sb.rpc("set_review_settings", { approval_validity_months: approvalValidityMonths })) as ReviewSettingsRow;
}

/** Refreshes every screen that shows the review settings. */
export async function invalidateReviewSettings(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: reviewSettingsKeys.all });
}
