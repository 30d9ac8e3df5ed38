import { zodResolver } from "@hookform/resolvers/zod";
import type { Session } from "@supabase/supabase-js";
import { CircleAlert, CircleCheck, KeyRound, LinkIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod/mini";
import { Link, useNavigate } from "react-router";
import { toast } from "sonner";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { AuthCard, AuthFrame } from "@/components/ui/auth-frame";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { Field } from "@/components/ui/field";
import { PasswordInput } from "@/components/ui/password-input";
import { PageSpinner, Spinner } from "@/components/ui/spinner";
import { secondFactorDue } from "@/lib/assurance";
import { errorMessage } from "@/lib/errors";
import { getSupabase } from "@/lib/supabase";
import { useDocumentTitle } from "@/lib/use-document-title";
import { PasswordRequirements } from "./password-requirements";
import { SecondFactorStep } from "./second-factor-step";
import { INVALID_RESET_LINK, isRecoveryToken, mustResetPassword, readLinkTokens, resetSchema } from "./validation";

/** Spec §9: the screen goes to /login this long after the password changed. */
const REDIRECT_AFTER_RESET_MS = 2000;

/**
 * When the password was changed, kept outside the component: ending the
 * session makes the session provider clear the query cache, and the route
 * guard then remounts this screen, which must still show 'Password Updated'
 * and redirect 2 seconds after the change, not check the link again.
 */
let updatedAt: number | undefined;

function updatedRecently(): boolean {
  return updatedAt !== undefined && Date.now() - updatedAt < 10_000;
}

type State =
  | { kind: "checking" }
  | { kind: "invalid"; detail: string }
  // The account has two-step verification: the authenticator code comes first.
  | { kind: "code"; email: string | undefined; mustReset: boolean }
  | { kind: "form"; mustReset: boolean }
  | { kind: "updated" };

/**
 * The form, once `session` may set a password: a session of an account
 * with a verified authenticator answers its challenge first (the server
 * refuses a password change from a session that has not).
 */
function formFor(session: Session, mustReset: boolean): State {
  if (secondFactorDue(session)) return { kind: "code", email: session.user.email, mustReset };
  return { kind: "form", mustReset };
}

/**
 * Establishes the session the reset link carries. The tokens come in the
 * query string or (this server's implicit-flow redirect) the fragment; when
 * supabase-js has already taken them from the address bar, the session it
 * stored is used if it comes from an e-mailed link. A signed-in user whose
 * account must change a temporary password is let through as well.
 */
async function establish(tokens: ReturnType<typeof readLinkTokens>): Promise<State> {
  if (tokens.error) return { kind: "invalid", detail: tokens.error };
  const sb = await getSupabase();
  if (tokens.accessToken || tokens.refreshToken) {
    if (!tokens.accessToken || !tokens.refreshToken) return { kind: "invalid", detail: "" };
    const { data, error } = await sb.auth.setSession({ access_token: tokens.accessToken, refresh_token: tokens.refreshToken });
    if (error || !data.session) return { kind: "invalid", detail: "" };
    return formFor(data.session, false);
  }
  const { data } = await sb.auth.getSession();
  const session = data.session;
  if (session && isRecoveryToken(session.access_token)) return formFor(session, false);
  if (session && mustResetPassword(session.user)) return formFor(session, true);
  return { kind: "invalid", detail: "" };
}

/**
 * Reset password (/reset-password): 'Set New Password' with new and confirm
 * fields (show/hide each) and the live requirements list; on success
 * 'Password Updated', the session ends and /login follows after 2 seconds.
 */
export function ResetPasswordPage() {
  useDocumentTitle("Set a new password");
  const navigate = useNavigate();
  // Read at once: supabase-js clears the fragment when it takes the tokens.
  const [tokens] = useState(() => readLinkTokens(window.location.search, window.location.hash));
  const [state, setState] = useState<State>(() => (updatedRecently() ? { kind: "updated" } : { kind: "checking" }));
  const form = useForm<z.input<typeof resetSchema>>({ resolver: zodResolver(resetSchema), defaultValues: { password: "", confirm: "" } });
  const password = useWatch({ control: form.control, name: "password" });
  const { errors } = form.formState;
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (updatedRecently()) return;
    let cancelled = false;
    void establish(tokens)
      .catch(() => ({ kind: "invalid", detail: "" }) as const)
      .then((next) => {
        if (cancelled) return;
        setState(next);
        // Keep the tokens out of the address bar and the history.
        if (tokens.accessToken || tokens.error) void navigate("/reset-password", { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [tokens, navigate]);

  useEffect(() => {
    if (state.kind !== "updated") return;
    const elapsed = updatedAt === undefined ? 0 : Date.now() - updatedAt;
    const timer = window.setTimeout(
      () => {
        updatedAt = undefined;
        void navigate("/login", { replace: true });
      },
      Math.max(0, REDIRECT_AFTER_RESET_MS - elapsed),
    );
    return () => {
      window.clearTimeout(timer);
    };
  }, [state.kind, navigate]);

  async function save(values: z.output<typeof resetSchema>) {
    setBusy(true);
    try {
      const sb = await getSupabase();
      const { error } = await sb.auth.updateUser({ password: values.password });
      if (error) {
        form.setError("root", { type: "server", message: errorMessage(error, "An error occurred while updating your password") });
        setBusy(false);
        return;
      }
      updatedAt = Date.now();
      setState({ kind: "updated" });
      toast.success("Password Updated", { description: "Sign in with your new password." });
      // The user signs in afresh with the new password.
      await sb.auth.signOut().catch(() => undefined);
    } catch (e) {
      form.setError("root", { type: "server", message: errorMessage(e, "An error occurred while updating your password") });
      setBusy(false);
    }
  }

  if (state.kind === "checking") return <PageSpinner label="Checking your reset link" />;

  if (state.kind === "code") {
    const { mustReset } = state;
    return (
      <AuthFrame>
        <SecondFactorStep
          email={state.email}
          purpose="reset"
          onVerified={() => {
            setState({ kind: "form", mustReset });
          }}
          onCancel={() => {
            // The link's session has ended: choosing a password needs a new link.
            void navigate("/login", { replace: true });
          }}
        />
      </AuthFrame>
    );
  }

  if (state.kind === "invalid") {
    return (
      <AuthFrame>
        <AuthCard icon={LinkIcon} iconTone="destructive" title="Set New Password">
          <div className="grid gap-4">
            <Alert variant="destructive">
              <CircleAlert aria-hidden="true" />
              <AlertDescription>
                <p>{INVALID_RESET_LINK}</p>
                {state.detail ? <p className="mt-1 text-xs opacity-80">{state.detail}</p> : null}
              </AlertDescription>
            </Alert>
            <Link to="/forgot-password" className={buttonVariants({ size: "lg", className: "w-full" })}>
              Request a new link
            </Link>
            <Link to="/login" className={buttonVariants({ variant: "outline", size: "lg", className: "w-full" })}>
              Back to Login
            </Link>
          </div>
        </AuthCard>
      </AuthFrame>
    );
  }

  if (state.kind === "updated") {
    return (
      <AuthFrame>
        <AuthCard
          icon={CircleCheck}
          iconTone="success"
          title="Password Updated"
          description="Your password has been changed. Taking you to sign in…"
        >
          <div role="status" className="flex items-center justify-center gap-2 text-sm text-muted-foreground">
            <Spinner size="sm" label={null} />
            Redirecting to sign in
          </div>
        </AuthCard>
      </AuthFrame>
    );
  }

  return (
    <AuthFrame>
      <AuthCard
        icon={KeyRound}
        title="Set New Password"
        description={
          state.mustReset
            ? "Your account has a temporary password. Choose a password of your own to continue."
            : "Choose a new password for your Fairbalance account."
        }
      >
        <form noValidate onSubmit={(e) => void form.handleSubmit(save)(e)} className="grid gap-4">
          {errors.root?.message ? (
            <Alert variant="destructive">
              <CircleAlert aria-hidden="true" />
              <AlertDescription>{errors.root.message}</AlertDescription>
            </Alert>
          ) : null}
          <Field label="New password" error={errors.password?.message}>
            <PasswordInput autoComplete="new-password" disabled={busy} {...form.register("password")} />
          </Field>
          <Field label="Confirm new password" error={errors.confirm?.message}>
            <PasswordInput autoComplete="new-password" disabled={busy} {...form.register("confirm")} />
          </Field>
          <PasswordRequirements password={password} />
          <Button type="submit" size="lg" className="mt-1 w-full" disabled={busy}>
            {busy ? <Spinner size="sm" label={null} className="text-current" /> : null}
            Update Password
          </Button>
        </form>
      </AuthCard>
    </AuthFrame>
  );
}
