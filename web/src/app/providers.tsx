import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState, type ReactNode } from "react";
import { AuthProvider } from "@/lib/auth";
import { createQueryClient } from "@/lib/query-client";

// Toasts are only needed once something happens; keep them out of the entry chunk.
const Toaster = lazy(() => import("@/components/ui/toaster").then((m) => ({ default: m.Toaster })));

/**
 * True once the page has loaded and the browser is idle (or the user acted
 * first). The toaster mounts then, so it is not part of the first screen's
 * load; sonner replays toasts raised before it subscribed, so none is lost.
 */
function useAfterLoad(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let done = false;
    const go = () => {
      if (done) return;
      done = true;
      setReady(true);
    };
    const idle = () => {
      if ("requestIdleCallback" in window) window.requestIdleCallback(go, { timeout: 2000 });
      else setTimeout(go, 200);
    };
    const onLoad = () => setTimeout(idle, 1000);
    if (document.readyState === "complete") onLoad();
    else window.addEventListener("load", onLoad, { once: true });
    const events = ["pointerdown", "keydown"] as const;
    for (const e of events) window.addEventListener(e, go, { once: true, capture: true });
    return () => {
      done = true;
      window.removeEventListener("load", onLoad);
      for (const e of events) window.removeEventListener(e, go, { capture: true });
    };
  }, []);
  return ready;
}

/** App-wide context. Tests pass their own `client` to control retries and caching. */
export function Providers({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [defaultClient] = useState(createQueryClient);
  const toasterReady = useAfterLoad();
  return (
    <QueryClientProvider client={client ?? defaultClient}>
      <AuthProvider>
        {children}
        {toasterReady ? (
          <Suspense fallback={null}>
            <Toaster />
          </Suspense>
        ) : null}
      </AuthProvider>
    </QueryClientProvider>
  );
}
