import { zodResolver } from "@hookform/resolvers/zod";
import type { User } from "@supabase/supabase-js";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { CircleAlert, Eye, LogIn } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod/mini";
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from "react-router";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { AuthCard, AuthFrame } from "@/components/ui/auth-frame";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { PageSpinner, Spinner } from "@/components/ui/spinner";
import { secondFactorDue } from "@/lib/assurance";
import { startDemoSession, useAuth } from "@/lib/auth";
import { getConfig } from "@/lib/config";
import { errorMessage } from "@/lib/errors";
import { invokeFunction } from "@/lib/functions";
import { safeReturnPath } from "@/lib/guard";
import { previewRequested, setPreviewFlag } from "@/lib/modes";
import { prepareNextScreen } from "@/lib/next-screen";
import { useDocumentTitle } from "@/lib/use-document-title";
import { notify } from "./notify";
import { SecondFactorStep } from "./second-factor-step";
import { secondFactorRequired, signInErrorMessage, signInWithPassword } from "./sign-in";
import { LOGIN_UNEXPECTED, loginSchema, mustResetPassword } from "./validation";

// Rarely shown (a fresh instance, or ?init=1): its own chunk.
const InitialSetupCard = lazy(() => import("./initial-setup-card").then((m) => ({ default: m.InitialSetupCard })));

/** Shares the route guard's cached copy of GET /api/config. */
const CONFIG_KEY = ["config"] as const;

/**
 * The number of accounts, for the initial-setup card. Asked with a plain
 * fetch (db-recovery GET_USER_COUNT, open to anyone) so the sign-in screen
 * does not load supabase-js before the user submits.
 */
async function fetchUserCount(): Promise<number | null> {
  const body = await invokeFunction("db-recovery", { action: "GET_USER_COUNT" });
  return typeof body.count === "number" ? body.count : null;
}

/**
 * The member's profile (cached for the shell, which waits for it) and, from
 * it, the code of the screen signing in leads to — onboarding for an admin
 * without an organisation — so that screen renders at once rather than
 * after a spinner per part. Never rejects; 5 s at most.
 */
function prepareHandOver(queryClient: QueryClient, userId: string, path: string): Promise<void> {
  const next = import("@/entities/profile")
    .then(({ profileQuery }) => queryClient.query(profileQuery(userId)))
    .then((profile) => ({ path, profile }));
  return prepareNextScreen(next);
}

// "code": signed in with the password, the authenticator code is due.
type Phase = "idle" | "busy" | "code" | "leaving";

/**
 * The sign-in screen (/login): e-mail and password, 'Sign In' and 'Create
 * Account', a forgot-password link; the demo workspace when the server
 * offers preview; the initial-setup card on a fresh instance (or ?init=1).
 * An account with two-step verification then gives its authenticator code
 * (SecondFactorStep), also when the guard sends a password-only session
 * back here. After signing in it returns to the page the guard remembered,
 * or sends a user whose password must be changed to /reset-password.
 */
export function LoginPage() {
  useDocumentTitle("Sign in");
  const auth = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const returnTo = safeReturnPath((location.state as { from?: unknown } | null)?.from);

  const form = useForm<z.input<typeof loginSchema>>({ resolver: zodResolver(loginSchema), defaultValues: { email: "", password: "" } });
  const error = form.formState.errors.root?.message;
  // "busy"/"leaving": this screen navigates itself once signed in, so the
  // redirect for already signed-in visitors must not race it.
  const [phase, setPhase] = useState<Phase>("idle");

  const config = useQuery({ queryKey: CONFIG_KEY, queryFn: getConfig, staleTime: 60_000 });
  const userCount = useQuery({ queryKey: ["auth", "user-count"], queryFn: fetchUserCount, retry: false, staleTime: 0, gcTime: 0 });
  const showSetup = params.get("init") === "1" || userCount.data === 0;
  const previewOffered = config.data?.preview === true;
  const previewActive = previewOffered && previewRequested();

  const codeDue = auth.status === "signed-in" && secondFactorDue(auth.session);
  if (phase === "idle" && auth.status === "signed-in" && !codeDue) return <Navigate to={returnTo} replace />;
  if (phase === "idle" && auth.status === "loading") return <PageSpinner label="Checking your session" />;

  async function afterSignIn(user: User) {
    setPhase("leaving");
    if (mustResetPassword(user)) {
      notify("warning", "Choose a new password", {
        description: "Your account has a temporary password. Set a password of your own to continue.",
      });
      void navigate("/reset-password", { replace: true, state: { mustReset: true } });
      return;
    }
    await prepareHandOver(queryClient, user.id, returnTo);
    notify("success", "Login successful");
    void navigate(returnTo, { replace: true });
  }

  const onSubmit = form.handleSubmit(async ({ email, password }) => {
    setPhase("busy");
    // The shell's code loads while the password is checked.
    void prepareNextScreen({ path: returnTo });
    try {
      const user = await signInWithPassword(email, password);
      if (await secondFactorRequired()) {
        form.resetField("password");
        setPhase("code");
        return;
      }
      await afterSignIn(user);
    } catch (e) {
      form.setError("root", { type: "server", message: signInErrorMessage(e) });
      setPhase("idle");
    }
  });

  async function enterPreview() {
    form.clearErrors("root");
    setPhase("leaving");
    setPreviewFlag(true);
    try {
      await startDemoSession("admin");
      // A fresh start lets the session provider pick up preview mode.
      window.location.assign("/");
    } catch (e) {
      setPreviewFlag(false);
      form.setError("root", { type: "server", message: errorMessage(e, LOGIN_UNEXPECTED) });
      setPhase("idle");
    }
  }

  const busy = phase !== "idle";

  const signInCard = (
    <AuthCard title="Sign in to Fairbalance" description="Review and approve life-science marketing content with your team.">
      <div className="grid gap-5">
        {previewActive ? (
          <Alert variant="info" role="status">
            <Eye aria-hidden="true" />
            <AlertTitle>Preview Mode Active</AlertTitle>
            <AlertDescription className="grid gap-3">
              <p>Explore Fairbalance with demo data. The demo workspace is read-only.</p>
              <Button className="w-full sm:w-auto" onClick={() => void enterPreview()} disabled={busy}>
                Continue to Application
              </Button>
            </AlertDescription>
          </Alert>
        ) : null}

        <form noValidate onSubmit={(e) => void onSubmit(e)} className="grid gap-4" aria-describedby={error ? "login-error" : undefined}>
          {error ? (
            <Alert variant="destructive" id="login-error">
              <CircleAlert aria-hidden="true" />
              <AlertDescription>{error}</AlertDescription>
            </Alert>
          ) : null}
          <Field label="Email">
            <Input
              type="email"
              autoComplete="username"
              inputMode="email"
              placeholder="you@company.com"
              disabled={busy}
              {...form.register("email")}
            />
          </Field>
          <Field
            label="Password"
            aside={
              <Link to="/forgot-password" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
                Forgot password?
              </Link>
            }
          >
            <PasswordInput autoComplete="current-password" disabled={busy} {...form.register("password")} />
          </Field>
          <Button type="submit" size="lg" className="mt-1 w-full" disabled={busy}>
            {phase === "busy" ? <Spinner size="sm" label={null} className="text-current" /> : <LogIn aria-hidden="true" />}
            Sign In
          </Button>
          <Button
            variant="outline"
            size="lg"
            className="w-full"
            disabled={busy}
            onClick={() => {
              void navigate("/signup");
            }}
          >
            Create Account
          </Button>
        </form>

        {previewOffered && !previewActive ? (
          <div className="grid gap-3">
            <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden="true">
              <span className="h-px flex-1 bg-border" />
              or
              <span className="h-px flex-1 bg-border" />
            </div>
            <Button variant="ghost" className="w-full" disabled={busy} onClick={() => void enterPreview()}>
              <Eye aria-hidden="true" />
              Explore the demo workspace
            </Button>
          </div>
        ) : null}
      </div>
    </AuthCard>
  );

  const footer = "Access is by invitation from your workspace administrator.";

  if (phase === "code" || (phase === "idle" && codeDue)) {
    return (
      <AuthFrame footer={footer}>
        <SecondFactorStep
          email={auth.user?.email}
          onVerified={(user) => {
            const signedIn = user ?? auth.user;
            if (signedIn) void afterSignIn(signedIn);
            else void navigate(returnTo, { replace: true });
          }}
          onCancel={() => {
            setPhase("idle");
          }}
        />
      </AuthFrame>
    );
  }

  if (!showSetup) return <AuthFrame footer={footer}>{signInCard}</AuthFrame>;
  return (
    <AuthFrame width="lg" footer={footer}>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Suspense fallback={<PageSpinner />}>
          <InitialSetupCard
            onSignedIn={afterSignIn}
            onBusyChange={(setupBusy) => {
              // While the card works this screen does not leave on its own
              // (a signed-in visitor is otherwise sent on at once).
              setPhase(setupBusy ? "busy" : "idle");
            }}
            disabled={busy}
          />
        </Suspense>
        {signInCard}
      </div>
    </AuthFrame>
  );
}
