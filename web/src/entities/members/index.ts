import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { unwrap } from "@/lib/data";
import type { Row } from "@/lib/db-types";
import { assetPageLoads, earlyOr } from "@/lib/early";
import { getSupabase } from "@/lib/supabase";

/** A member of the caller's organisation (view `members`). */
export type Member = Row<"members">;

/** A member as owner pickers and author names show them. */
export type Person = Pick<Member, "id" | "full_name" | "email">;

/**
 * Every member query sits under `members`. The organisation is in the key
 * where it is known, so a member who changes organisation never sees the
 * previous one's cached rows.
 */
export const memberKeys = {
  all: ["members"] as const,
  list: (orgId: string | null | undefined) => [...memberKeys.all, "list", orgId ?? null] as const,
  people: () => [...memberKeys.all, "people"] as const,
  self: (userId: string | null | undefined) => [...memberKeys.all, "self", userId ?? null] as const,
};

/** The members of the caller's organisation (the server shows no one else's), by name. */
export function membersQuery(orgId: string | null | undefined) {
  return queryOptions({
    queryKey: memberKeys.list(orgId),
    enabled: Boolean(orgId),
    queryFn: async (): Promise<Member[]> => {
      const sb = await getSupabase();
      return unwrap(await sb.from("members").select("*").order("full_name", { ascending: true }));
    },
  });
}

/** The members' names, for an asset's page (the boot script's early load when there is one). */
export function peopleQuery() {
  return queryOptions({
    queryKey: memberKeys.people(),
    queryFn: () =>
      earlyOr(assetPageLoads.people.key, async (): Promise<Person[]> => {
        const sb = await getSupabase();
        return unwrap(await sb.from("members").select("id, full_name, email").order("full_name"));
      }),
  });
}

/** The caller's own row of members (sign-in times, whether MFA is on). */
export function ownMemberQuery(userId: string | null | undefined) {
  return queryOptions({
    queryKey: memberKeys.self(userId),
    enabled: Boolean(userId),
    queryFn: async (): Promise<Member | null> => {
      const sb = await getSupabase();
      return unwrap(await sb.from("members").select("*").eq("id", userId ?? "").maybeSingle());
    },
  });
}

/** Gives a member another role (their profile's `role`); the server decides who may. */
export async function changeMemberRole(memberId: string, role: string): Promise<void> {
  const sb = await getSupabase();
  const rows = unwrap(await sb.from("profiles_v2").update({ role }).eq("id", memberId).select("id, role"));
  if (rows.length === 0) throw new Error("This member could not be updated. Reload the page and try again.");
}

/** Deactivates (signs out everywhere, blocks sign-in) or reactivates a member. */
export async function setMemberActive(memberId: string, active: boolean): Promise<void> {
  const sb = await getSupabase();
  unwrap(await sb.rpc(active ? "reactivate_member" : "deactivate_member", { user_id: memberId }));
}

/** Refreshes every screen that shows members (names, roles, owners, actors). */
export async function invalidateMembers(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: memberKeys.all });
}
