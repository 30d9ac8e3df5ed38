import { zodResolver } from "@hookform/resolvers/zod";
import type { User } from "@supabase/supabase-js";
import { useQuery } from "@tanstack/react-query";
import { CircleAlert, LogOut, ShieldCheck } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { AuthCard } from "@/components/ui/auth-frame";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/errors";
import { getSupabase } from "@/lib/supabase";
import { LOGIN_UNEXPECTED } from "./validation";

const ENTER_CODE = "Enter the 6-digit code from your authenticator app";
const WRONG_CODE = "That code is not valid. Enter the code your authenticator app shows now.";

const schema = z.object({ code: z.string().regex(/^\d{6}$/, ENTER_CODE) });
type Values = z.infer<typeof schema>;

/**
 * The authenticator to answer: the account's first verified TOTP factor.
 * null when the account has none any more (an administrator removed it
 * since this session's user was stored); the session is then refreshed, so
 * that its stored user says so too.
 */
async function loadFactor(): Promise<{ id: string } | null> {
  const sb = await getSupabase();
  const { data, error } = await sb.auth.mfa.listFactors();
  if (error) throw error;
  const factor = data.totp[0];
  if (factor) return { id: factor.id };
  const refreshed = await sb.auth.refreshSession();
  if (refreshed.error) throw refreshed.error;
  return null;
}

/** The message for a refused code: a wrong code in plain words, anything else as the server says it. */
function refusalMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "mfa_verification_failed") return WRONG_CODE;
  return errorMessage(error, LOGIN_UNEXPECTED);
}

/**
 * The sign-in screen's second step (spec: two-step verification is
 * enforced): after the password, an account with a verified authenticator
 * gives the app's 6-digit code. `mfa.challengeAndVerify` raises the
 * session to aal2 and `onVerified` continues the sign-in with the user it
 * returns; 'Cancel and sign out' ends this password-only session (on the
 * server too) and `onCancel` returns to the first step. The password reset
 * asks it too (`purpose` "reset"), before the new password: the e-mailed
 * link is one factor only.
 */
export function SecondFactorStep({
  email,
  purpose = "sign-in",
  onVerified,
  onCancel,
}: {
  /** The account being signed in to, shown so the person knows which code to give. */
  email?: string | undefined;
  /** What the code is for: finishing the sign-in, or going on to choose a new password. */
  purpose?: "sign-in" | "reset";
  onVerified: (user: User | null) => void;
  onCancel: () => void;
}) {
  const [leaving, setLeaving] = useState(false);
  const factor = useQuery({ queryKey: ["auth", "second-factor"], queryFn: loadFactor, retry: false, staleTime: 0, gcTime: 0 });
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { code: "" } });
  const { errors, isSubmitting } = form.formState;

  // No authenticator any more: nothing to ask.
  const none = factor.data === null;
  const skipped = useRef(false);
  useEffect(() => {
    if (!none || skipped.current) return;
    skipped.current = true;
    onVerified(null);
  }, [none, onVerified]);

  const onSubmit = form.handleSubmit(async ({ code }) => {
    const id = factor.data?.id;
    if (!id) return;
    try {
      const sb = await getSupabase();
      const { data, error } = await sb.auth.mfa.challengeAndVerify({ factorId: id, code });
      if (error) {
        form.setValue("code", "");
        form.setError("code", { message: refusalMessage(error) }, { shouldFocus: true });
        return;
      }
      setLeaving(true);
      onVerified(data.user);
    } catch (e) {
      form.setError("code", { message: refusalMessage(e) }, { shouldFocus: true });
    }
  });

  async function cancel() {
    setLeaving(true);
    try {
      const sb = await getSupabase();
      // This session only: the account's other (verified) sessions stay.
      await sb.auth.signOut({ scope: "local" });
    } finally {
      setLeaving(false);
      onCancel();
    }
  }

  const busy = isSubmitting || leaving || none;
  return (
    <AuthCard
      icon={ShieldCheck}
      title="Two-step verification"
      description={
        <>
          {purpose === "reset"
            ? "Your account has two-step verification on. Enter the code from your authenticator app to choose a new password."
            : "Enter the 6-digit code from your authenticator app to finish signing in."}
          {email ? <span className="mt-1 block font-medium [overflow-wrap:anywhere] text-foreground">{email}</span> : null}
        </>
      }
    >
      {factor.isError ? (
        <div className="grid gap-4">
          <Alert variant="destructive">
            <CircleAlert aria-hidden="true" />
            <AlertDescription>{errorMessage(factor.error, LOGIN_UNEXPECTED)}</AlertDescription>
          </Alert>
          <Button variant="outline" className="w-full" onClick={() => void factor.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <form noValidate onSubmit={(e) => void onSubmit(e)} className="grid gap-4">
          <Controller
            control={form.control}
            name="code"
            render={({ field }) => (
              <Field label="6-digit code" hint="The code changes every 30 seconds." error={errors.code?.message}>
                <Input
                  ref={field.ref}
                  name={field.name}
                  value={field.value}
                  onBlur={field.onBlur}
                  onChange={(e) => {
                    field.onChange(e.target.value.replace(/\D/g, "").slice(0, 6));
                  }}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  // The one thing to do on this screen.
                  autoFocus
                  maxLength={6}
                  className="h-12 text-center font-mono text-lg tracking-[0.4em]"
                  disabled={busy}
                />
              </Field>
            )}
          />
          {factor.isPending ? (
            <Skeleton className="h-11 w-full" />
          ) : (
            <Button type="submit" size="lg" className="w-full" disabled={busy}>
              {isSubmitting ? <Spinner size="sm" label={null} className="text-current" /> : <ShieldCheck aria-hidden="true" />}
              Verify
            </Button>
          )}
          <Button variant="ghost" className="w-full" disabled={busy} onClick={() => void cancel()}>
            <LogOut aria-hidden="true" />
            Cancel and sign out
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
