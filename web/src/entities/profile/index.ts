import { queryOptions, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { invalidateMembers } from "@/entities/members";
import { useAuth } from "@/lib/auth";
import { unwrap } from "@/lib/data";
import type { Row } from "@/lib/db-types";
import { earlyOr, PROFILE_COLUMNS, profileLoad } from "@/lib/early";
import { getSupabase } from "@/lib/supabase";

/** The signed-in member's profile (table `profiles_v2`), the columns every screen needs. */
export type Profile = Pick<Row<"profiles_v2">, "id" | "org_id" | "role" | "full_name" | "avatar_url">;

export const profileKeys = {
  all: ["profile"] as const,
  detail: (userId: string | null | undefined) => [...profileKeys.all, userId ?? null] as const,
};

/** A member's profile (the boot script's early load when there is one). */
export function profileQuery(userId: string | null | undefined) {
  return queryOptions({
    queryKey: profileKeys.detail(userId),
    enabled: Boolean(userId),
    queryFn: async (): Promise<Profile | null> => {
      const id = userId ?? "";
      const rows = await earlyOr<Profile | Profile[] | null>(profileLoad.key(id), async () => {
        const sb = await getSupabase();
        const { data, error } = await sb.from("profiles_v2").select(PROFILE_COLUMNS).eq("id", id).maybeSingle();
        if (error) throw error;
        return data;
      });
      return Array.isArray(rows) ? (rows[0] ?? null) : rows;
    },
  });
}

/** The signed-in member's profile, cached with the app's query defaults. */
export function useProfile() {
  const { user } = useAuth();
  return useQuery(profileQuery(user?.id));
}

/** Changes the member's full name (printed on their signatures). */
export async function updateFullName(userId: string, fullName: string): Promise<void> {
  const sb = await getSupabase();
  const rows = unwrap(await sb.from("profiles_v2").update({ full_name: fullName }).eq("id", userId).select("id, full_name"));
  if (rows.length === 0) throw new Error("Your profile could not be updated. Reload the page and try again.");
}

/** Sets (or, with "", removes) the member's photo. */
export async function updateAvatarUrl(userId: string, avatarUrl: string): Promise<void> {
  const sb = await getSupabase();
  const rows = unwrap(await sb.from("profiles_v2").update({ avatar_url: avatarUrl }).eq("id", userId).select("id"));
  if (rows.length === 0) throw new Error("Your profile could not be updated. Reload the page and try again.");
}

/**
 * Joins the member to the organisation they just created (spec: update
 * profiles_v2 setting org_id where id is the user). The server accepts this
 * only from no organisation to one this same user created.
 */
export async function joinOrganization(userId: string, orgId: string): Promise<void> {
  const sb = await getSupabase();
  unwrap(await sb.from("profiles_v2").update({ org_id: orgId }).eq("id", userId));
}

/**
 * After a sign-up without an invitation that signed the user in at once:
 * the first administrator bootstrap (spec: "update profiles_v2 with role
 * admin and full_name for the first admin"). The server allows a user to
 * make themselves admin only while the instance has no admin at all, so the
 * attempt is refused everywhere else and only the name is kept.
 */
export async function claimFirstAdmin(userId: string, fullName: string): Promise<void> {
  const sb = await getSupabase();
  const { error } = await sb.from("profiles_v2").update({ role: "admin", full_name: fullName }).eq("id", userId);
  if (error) await sb.from("profiles_v2").update({ full_name: fullName }).eq("id", userId);
}

/**
 * Refreshes the profile after it changed (onboarding, name, photo) and the
 * member lists, which show the same name and photo.
 */
export async function invalidateProfile(queryClient: QueryClient): Promise<void> {
  await Promise.all([queryClient.invalidateQueries({ queryKey: profileKeys.all }), invalidateMembers(queryClient)]);
}

/** {@link invalidateProfile} bound to the app's query client. */
export function useInvalidateProfile(): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => invalidateProfile(queryClient);
}
