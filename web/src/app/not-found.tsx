import { useEffect } from "react";
import { Link, useLocation } from "react-router";
import { buttonVariants } from "@/components/ui/button-variants";
import { useDocumentTitle } from "@/lib/use-document-title";

/** Any unknown path: '404', 'Oops! Page not found', 'Return to Home', and a console error. */
export function NotFound() {
  const { pathname } = useLocation();
  useDocumentTitle("Page not found");
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", pathname);
  }, [pathname]);
  return (
    <div className="flex min-h-[60vh] flex-1 flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-6xl font-bold tracking-tight text-primary">404</h1>
      <p className="text-xl text-muted-foreground">Oops! Page not found</p>
      <p className="max-w-sm text-sm text-muted-foreground">
        <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{pathname}</code> does not exist in Fairbalance.
      </p>
      <Link to="/" className={buttonVariants()}>
        Return to Home
      </Link>
    </div>
  );
}
