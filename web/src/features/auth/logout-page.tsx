import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { LogOut } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import { AuthCard, AuthFrame } from "@/components/ui/auth-frame";
import { buttonVariants } from "@/components/ui/button-variants";
import { PageSpinner, Spinner } from "@/components/ui/spinner";
import { resetConfig } from "@/lib/config";
import { deleteCookie } from "@/lib/cookies";
import { clearGatePassed, INACTIVE_IMPERSONATION, setPreviewFlag, writeImpersonation } from "@/lib/modes";
import { getSupabase, readStoredSession } from "@/lib/supabase";
import { useDocumentTitle } from "@/lib/use-document-title";

/** Spec §9: /login follows this long after signing out. */
const REDIRECT_AFTER_SIGN_OUT_MS = 2000;

/** The route guard's query of GET /api/config (it renders nothing while that is pending). */
const isConfigQuery = (key: readonly unknown[]) => key[0] === "config";

/**
 * Ends everything this browser holds: the cached data, the supabase session
 * (the server's 401/403/404 answers, which mean it is already gone, are
 * ignored), the cookies session_token and gate_verified (HttpOnly, so the
 * server clears it), the local gate and preview flags and the demo role.
 *
 * Every cached query goes except the instance configuration, which is only
 * marked stale: removing it would make the route guard unmount this screen
 * while it refetches.
 */
async function signOutEverywhere(queryClient: QueryClient): Promise<void> {
  queryClient.removeQueries({ predicate: (q) => !isConfigQuery(q.queryKey) });
  const tasks: Promise<unknown>[] = [];
  if (readStoredSession() !== null) {
    tasks.push(
      getSupabase()
        .then((sb) => sb.auth.signOut())
        .catch(() => undefined),
    );
  }
  deleteCookie("session_token");
  tasks.push(fetch("/api/gate", { method: "DELETE", credentials: "same-origin" }).catch(() => undefined));
  clearGatePassed();
  setPreviewFlag(false);
  writeImpersonation(INACTIVE_IMPERSONATION);
  await Promise.all(tasks);
  queryClient.removeQueries({ predicate: (q) => !isConfigQuery(q.queryKey) });
  // The gate cookie is gone: the next check must ask the server again.
  resetConfig();
  await queryClient.invalidateQueries({ predicate: (q) => isConfigQuery(q.queryKey) });
}

/**
 * One sign-out per visit of the screen, shared by its mounts: the session
 * provider clears the whole query cache when the session ends, and the
 * guard then remounts this screen; the redirect still comes 2 seconds
 * after 'Signed Out' first showed.
 */
interface Visit {
  started: number;
  done: Promise<void>;
  /** When signing out finished: 'Signed Out' shows from then, for 2 seconds. */
  finishedAt?: number;
}

let visit: Visit | undefined;

function signOutOnce(queryClient: QueryClient): Visit {
  if (!visit || Date.now() - visit.started > 10_000) {
    const current: Visit = { started: Date.now(), done: Promise.resolve() };
    current.done = signOutEverywhere(queryClient).then(() => {
      current.finishedAt ??= Date.now();
    });
    visit = current;
  }
  return visit;
}

/**
 * Sign-out (/logout): 'Signed Out', clears the data caches, the session and
 * the cookies, then goes to /login after 2 seconds.
 */
export function LogoutPage() {
  useDocumentTitle("Signed out");
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [done, setDone] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let timer: number | undefined;
    const current = signOutOnce(queryClient);
    void current.done.then(() => {
      if (cancelled) return;
      setDone(true);
      timer = window.setTimeout(
        () => {
          visit = undefined;
          void navigate("/login", { replace: true });
        },
        Math.max(0, REDIRECT_AFTER_SIGN_OUT_MS - (Date.now() - (current.finishedAt ?? Date.now()))),
      );
    });
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [queryClient, navigate]);

  // Until the session has ended (the guard may briefly show its own spinner meanwhile).
  if (!done) return <PageSpinner label="Signing out" />;

  return (
    <AuthFrame>
      <AuthCard
        icon={LogOut}
        title="Signed Out"
        description="You have been signed out of Fairbalance. Taking you to the sign-in page…"
      >
        <div className="grid gap-4">
          <div role="status" className="flex items-center justify-center gap-2 text-sm text-muted-foreground">
            <Spinner size="sm" label={null} />
            Redirecting to sign in
          </div>
          <Link
            to="/login"
            replace
            onClick={() => {
              visit = undefined;
            }}
            className={buttonVariants({ variant: "outline", size: "lg", className: "w-full" })}
          >
            Sign in again
          </Link>
        </div>
      </AuthCard>
    </AuthFrame>
  );
}
