import { MutationCache, QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api";
import { errorMessage } from "./errors";
import { logEvent } from "./logger";

/** The spec's caching constants: stale after 5 minutes, kept 10, 2 retries. */
export const STALE_TIME_MS = 5 * 60_000;
export const GC_TIME_MS = 10 * 60_000;
export const MAX_RETRIES = 2;

/** Whether a failed query is worth retrying: never for a 4xx answer. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  const status =
    error instanceof ApiError
      ? error.status
      : typeof error === "object" && error !== null && typeof (error as { status?: unknown }).status === "number"
        ? (error as { status: number }).status
        : undefined;
  if (status !== undefined && status >= 400 && status < 500) {
    return false;
  }
  return failureCount < MAX_RETRIES;
}

/** The app's TanStack Query defaults (spec §9). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    // The spec: a failed mutation is logged as an API error event.
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        logEvent("error", `API error: ${errorMessage(error, "request failed")}`, {
          error,
          context: { mutationKey: mutation.options.mutationKey, status: (error as { status?: unknown }).status },
        });
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: STALE_TIME_MS,
        gcTime: GC_TIME_MS,
        refetchOnWindowFocus: false,
        retry: shouldRetry,
      },
      mutations: { retry: false },
    },
  });
}
