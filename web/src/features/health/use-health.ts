import { useQuery } from "@tanstack/react-query";
import { fetchHealth, healthQueryKey } from "./api";

export function useHealth() {
  return useQuery({
    queryKey: healthQueryKey,
    queryFn: ({ signal }) => fetchHealth({ signal }),
  });
}
