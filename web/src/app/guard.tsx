import { useQuery } from "@tanstack/react-query";
import { Suspense, useEffect } from "react";
import { Navigate, Outlet, useLocation, useNavigate } from "react-router";
import { PageSpinner } from "@/components/ui/spinner";
import { secondFactorDue } from "@/lib/assurance";
import { useAuth } from "@/lib/auth";
import { embeddedConfig, getConfig } from "@/lib/config";
import { decideGuard, OPEN_PATHS, UNCHECKED_PATHS } from "@/lib/guard";
import { safeModeActive } from "@/lib/safe-mode";
import { GATE_REQUIRED_EVENT } from "@/lib/supabase";

export const CONFIG_QUERY_KEY = ["config"] as const;

/**
 * The route guard (spec §2): on every navigation outside /health and /safe
 * it checks the session, sends signed-out visitors to /login remembering the
 * page, sends a password-only session of an account with two-step
 * verification to /login for its code (remembering the page too), sends
 * them to /gate while the passcode gate is closed, and to /safe when
 * checking fails unexpectedly. A session that ended elsewhere sends the
 * member to /login from every screen, /safe included, remembering the page.
 * A spinner shows while it checks.
 */
export function RouteGuard() {
  const auth = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const unchecked = UNCHECKED_PATHS.some((p) => location.pathname === p || location.pathname.startsWith(`${p}/`));
  const config = useQuery({
    queryKey: CONFIG_QUERY_KEY,
    queryFn: getConfig,
    enabled: !unchecked,
    staleTime: 60_000,
    // The page carries the configuration: the first render need not wait for it.
    initialData: () => embeddedConfig() ?? undefined,
  });

  useEffect(() => {
    const onGate = () => {
      void navigate("/gate", { replace: true });
    };
    window.addEventListener(GATE_REQUIRED_EVENT, onGate);
    return () => {
      window.removeEventListener(GATE_REQUIRED_EVENT, onGate);
    };
  }, [navigate]);

  // Once the member whose session ended is on an open screen (sent to sign in), the end is handled.
  const { sessionEnded, acknowledgeSessionEnd } = auth;
  const onOpenScreen = OPEN_PATHS.some((p) => location.pathname === p || location.pathname.startsWith(`${p}/`));
  useEffect(() => {
    if (sessionEnded && onOpenScreen) acknowledgeSessionEnd();
  }, [sessionEnded, onOpenScreen, acknowledgeSessionEnd]);

  const safe = safeModeActive();
  if (!unchecked && config.isPending) return <PageSpinner label="Checking your session" />;
  const decision = decideGuard({
    path: location.pathname,
    status: auth.status,
    gateBlocked: !safe && config.data !== undefined && config.data.gate && !config.data.gatePassed,
    failed: !safe && (auth.error !== null || config.isError),
    secondFactorDue: auth.status === "signed-in" && secondFactorDue(auth.session),
    sessionEnded,
  });

  if (auth.error && !safe) console.error("Route guard error:", auth.error);
  switch (decision.kind) {
    case "checking":
      return <PageSpinner label="Checking your session" />;
    case "redirect":
      return (
        <Navigate
          to={decision.to}
          replace
          state={decision.rememberFrom ? { from: `${location.pathname}${location.search}${location.hash}` } : undefined}
        />
      );
    case "render":
      return (
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      );
  }
}
