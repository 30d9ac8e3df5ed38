import { useQuery } from "@tanstack/react-query";
import { getSupabase } from "@/lib/supabase";

/** A short-lived signed URL of a stored object, for elements that cannot send headers (<img>). */
export async function signedUrl(bucket: string, path: string, expiresIn = 600): Promise<string> {
  const sb = await getSupabase();
  const { data, error } = await sb.storage.from(bucket).createSignedUrl(path, expiresIn);
  if (error) throw error;
  return data.signedUrl;
}

/** A short-lived signed URL of a stored file, refreshed before it expires. */
export function useSignedUrl(bucket: string | null | undefined, path: string | null | undefined) {
  return useQuery({
    queryKey: ["signed-url", bucket, path],
    enabled: Boolean(bucket && path),
    staleTime: 5 * 60_000, // the URL lives 10 minutes
    queryFn: () => signedUrl(bucket ?? "", path ?? ""),
  });
}
