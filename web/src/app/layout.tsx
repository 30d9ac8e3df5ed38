import { Scale } from "lucide-react";
import { Suspense } from "react";
import { Link, NavLink, Outlet } from "react-router";
import { PageSpinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";

/** The frame around every screen: skip link, header, main landmark, footer. */
export function AppLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only rounded-md bg-card px-4 py-2 text-sm font-medium shadow-md focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50"
      >
        Skip to main content
      </a>

      <header className="border-b bg-card/80 backdrop-blur supports-[backdrop-filter]:bg-card/60">
        <div className="mx-auto flex h-14 w-full max-w-5xl items-center justify-between gap-4 px-4 sm:px-6">
          <Link
            to="/"
            className="flex items-center gap-2 rounded-md text-base font-semibold tracking-tight"
          >
            <span className="inline-flex size-7 items-center justify-center rounded-md bg-primary text-primary-foreground">
              <Scale aria-hidden="true" className="size-4" />
            </span>
            Fairbalance
          </Link>
          <nav aria-label="Main">
            <ul className="flex items-center gap-1 text-sm">
              <li>
                <NavLink
                  to="/health"
                  className={({ isActive }) =>
                    cn(
                      "rounded-md px-3 py-2 font-medium transition-colors hover:bg-accent hover:text-accent-foreground",
                      isActive ? "bg-accent text-accent-foreground" : "text-muted-foreground",
                    )
                  }
                >
                  Status
                </NavLink>
              </li>
            </ul>
          </nav>
        </div>
      </header>

      <main
        id="main"
        tabIndex={-1}
        className="mx-auto flex w-full max-w-5xl flex-1 flex-col px-4 py-10 outline-none sm:px-6 sm:py-16"
      >
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>

      <footer className="border-t">
        <div className="mx-auto w-full max-w-5xl px-4 py-4 text-xs text-muted-foreground sm:px-6">
          Fairbalance · self-hosted compliance review workspace
        </div>
      </footer>
    </div>
  );
}
