import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { AuthProvider } from "@/lib/auth";
import { createQueryClient } from "@/lib/query-client";

// Toasts are only needed once something happens; keep them out of the entry chunk.
const Toaster = lazy(() => import("@/components/ui/toaster").then((m) => ({ default: m.Toaster })));

/** App-wide context. Tests pass their own `client` to control retries and caching. */
export function Providers({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [defaultClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={client ?? defaultClient}>
      <AuthProvider>
        {children}
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      </AuthProvider>
    </QueryClientProvider>
  );
}
