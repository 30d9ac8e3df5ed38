import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api";

/**
 * The app's TanStack Query defaults: data is fresh for 30 s, and failed
 * queries retry once, except for 4xx answers, which retrying will not fix.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
            return false;
          }
          return failureCount < 1;
        },
      },
    },
  });
}
