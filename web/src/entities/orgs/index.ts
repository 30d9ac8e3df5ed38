import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { unwrap } from "@/lib/data";
import type { Row } from "@/lib/db-types";
import { getSupabase } from "@/lib/supabase";

/** An organisation as screens show it (table `orgs`). */
export type Org = Pick<Row<"orgs">, "id" | "name" | "industry">;

export const orgKeys = {
  all: ["orgs"] as const,
  detail: (orgId: string | null | undefined) => [...orgKeys.all, orgId ?? null] as const,
};

/** The caller's organisation. */
export function orgQuery(orgId: string | null | undefined) {
  return queryOptions({
    queryKey: orgKeys.detail(orgId),
    enabled: Boolean(orgId),
    queryFn: async (): Promise<Org | null> => {
      const sb = await getSupabase();
      return unwrap(await sb.from("orgs").select("id, name, industry").eq("id", orgId ?? "").maybeSingle());
    },
  });
}

/** Inserts an organisation, returning the row (the spec: insert into orgs with name, returning the row). */
export async function insertOrg(name: string, industry: string): Promise<Org> {
  const sb = await getSupabase();
  return unwrap(
    await sb
      .from("orgs")
      .insert({ name, ...(industry ? { industry } : {}) })
      .select("id, name, industry")
      .single(),
  );
}

/** Renames an organisation or changes its industry. */
export async function updateOrg(orgId: string, name: string, industry: string): Promise<void> {
  const sb = await getSupabase();
  unwrap(await sb.from("orgs").update({ name, industry }).eq("id", orgId));
}

/** Refreshes every screen that shows the organisation. */
export async function invalidateOrgs(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: orgKeys.all });
}
