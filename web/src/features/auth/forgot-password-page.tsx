import { zodResolver } from "@hookform/resolvers/zod";
import { ArrowLeft, CircleAlert, KeyRound, MailCheck } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod/mini";
import { Link } from "react-router";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { AuthCard, AuthFrame } from "@/components/ui/auth-frame";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/errors";
import { getSupabase } from "@/lib/supabase";
import { useDocumentTitle } from "@/lib/use-document-title";
import { forgotSchema } from "./validation";

/** Link validity stated on the screen (spec §9; the server's recovery links last as long). */
const LINK_VALID_HOURS = 24;

/**
 * Forgot password (/forgot-password): asks the server to e-mail a reset
 * link that opens /reset-password, then says to check the inbox, with a
 * way back to sign-in and a 'try again' that clears the address.
 */
export function ForgotPasswordPage() {
  useDocumentTitle("Reset your password");
  const form = useForm<z.input<typeof forgotSchema>>({ resolver: zodResolver(forgotSchema), defaultValues: { email: "" } });
  const error = form.formState.errors.root?.message;
  const busy = form.formState.isSubmitting;
  const [sentTo, setSentTo] = useState<string>();

  const onSubmit = form.handleSubmit(async ({ email }) => {
    try {
      const sb = await getSupabase();
      const { error: refused } = await sb.auth.resetPasswordForEmail(email.trim(), {
        redirectTo: `${window.location.origin}/reset-password`,
      });
      if (refused) form.setError("root", { type: "server", message: errorMessage(refused, "An error occurred") });
      else setSentTo(email.trim());
    } catch (e) {
      form.setError("root", { type: "server", message: errorMessage(e, "An error occurred") });
    }
  });

  const backToLogin = (
    <Link to="/login" className="inline-flex items-center gap-1.5 font-medium text-primary underline-offset-4 hover:underline">
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to Login
    </Link>
  );

  if (sentTo !== undefined) {
    return (
      <AuthFrame>
        <AuthCard
          icon={MailCheck}
          iconTone="success"
          title="Check Your Email"
          description={
            <>
              If an account exists for <strong className="font-medium text-foreground">{sentTo}</strong>, we sent it a link to
              reset the password. The link expires in {LINK_VALID_HOURS} hours.
            </>
          }
        >
          <div className="grid gap-4 text-center text-sm text-muted-foreground">
            <Link to="/login" className={buttonVariants({ size: "lg", className: "w-full" })}>
              Back to Login
            </Link>
            <p>
              Didn&apos;t get the e-mail? Check your spam folder or{" "}
              <button
                type="button"
                className="font-medium text-primary underline-offset-4 hover:underline focus-visible:underline focus-visible:outline-none"
                onClick={() => {
                  setSentTo(undefined);
                  form.reset();
                }}
              >
                try again
              </button>
              .
            </p>
          </div>
        </AuthCard>
      </AuthFrame>
    );
  }

  return (
    <AuthFrame footer={backToLogin}>
      <AuthCard
        icon={KeyRound}
        title="Forgot your password?"
        description="Enter the e-mail address of your account and we will send you a link to set a new password."
      >
        <form noValidate onSubmit={(e) => void onSubmit(e)} className="grid gap-4">
          {error ? (
            <Alert variant="destructive">
              <CircleAlert aria-hidden="true" />
              <AlertDescription>{error}</AlertDescription>
            </Alert>
          ) : null}
          <Field label="Email">
            <Input
              type="email"
              autoComplete="email"
              inputMode="email"
              placeholder="you@company.com"
              disabled={busy}
              {...form.register("email")}
            />
          </Field>
          <Button type="submit" size="lg" className="mt-1 w-full" disabled={busy}>
            {busy ? <Spinner size="sm" label={null} className="text-current" /> : null}
            Send Reset Link
          </Button>
        </form>
      </AuthCard>
    </AuthFrame>
  );
}
