import { Suspense } from "react";
import { Outlet, useLocation } from "react-router";
import { PageSpinner } from "@/components/ui/spinner";
import { ErrorBoundary } from "./error-boundary";

/** Screens outside the shell (sign-in, sign-up, gate, safe mode): centred, no navigation. */
export function BareLayout() {
  const { pathname } = useLocation();
  return (
    <main id="main" tabIndex={-1} className="flex min-h-dvh flex-col outline-none">
      <ErrorBoundary resetKey={pathname}>
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </ErrorBoundary>
    </main>
  );
}
