import { zodResolver } from "@hookform/resolvers/zod";
import type { User } from "@supabase/supabase-js";
import { CircleAlert, ShieldCheck } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod/mini";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { AuthCard } from "@/components/ui/auth-frame";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { Spinner } from "@/components/ui/spinner";
import { applyServerError } from "@/lib/form-errors";
import { invokeFunction } from "@/lib/functions";
import { prepareNextScreen } from "@/lib/next-screen";
import { MIN_PASSWORD_LENGTH } from "@/lib/password";
import { notify } from "./notify";
import { signInErrorMessage, signInWithPassword } from "./sign-in";
import { setupSchema } from "./validation";

/**
 * The first-run card of the sign-in screen: creates the first administrator
 * (db-recovery SAFE_CREATE_ADMIN, which the server allows without a key
 * only while the instance has no account) and signs in with it.
 * `onBusyChange` says when it starts and when it failed (then the screen is
 * the sign-in screen again); `onSignedIn` takes over once signed in.
 */
export function InitialSetupCard({
  onSignedIn,
  onBusyChange,
  disabled,
}: {
  onSignedIn: (user: User) => Promise<void>;
  onBusyChange: (busy: boolean) => void;
  disabled: boolean;
}) {
  const form = useForm<z.input<typeof setupSchema>>({ resolver: zodResolver(setupSchema), defaultValues: { email: "", password: "" } });
  const error = form.formState.errors.root?.message;
  const [busy, setBusyState] = useState(false);
  const setBusy = (next: boolean) => {
    setBusyState(next);
    onBusyChange(next);
  };

  const onSubmit = form.handleSubmit(async ({ email, password }) => {
    setBusy(true);
    // The new administrator has no organisation yet: onboarding comes
    // next, and its code loads while the account is created.
    void prepareNextScreen({ path: "/", profile: { org_id: null, role: "admin" } });
    try {
      await invokeFunction("db-recovery", { action: "SAFE_CREATE_ADMIN", admin_email: email.trim(), admin_password: password });
    } catch (e) {
      // The function's per-field refusals go beside the fields (its names: admin_email, admin_password).
      const p = await applyServerError(form.setError, e, {
        fallback: "The administrator could not be created.",
        fields: ["email", "password"],
        aliases: { admin_email: "email", admin_password: "password" },
      });
      notify("error", "Bootstrap failed", { description: p.message });
      setBusy(false);
      return;
    }
    notify("success", "Success!", { description: "Administrator account created. Signing you in…" });
    try {
      await onSignedIn(await signInWithPassword(email, password));
    } catch (e) {
      form.setError("root", { type: "server", message: signInErrorMessage(e) });
      setBusy(false);
    }
  });

  const off = busy || disabled;
  return (
    <AuthCard
      headingLevel="h2"
      icon={ShieldCheck}
      title="Initial Setup"
      description="No one has an account here yet. Create the first administrator; you will set up your organization next."
      className="border-primary/40"
    >
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="grid gap-4">
        {error ? (
          <Alert variant="destructive">
            <CircleAlert aria-hidden="true" />
            <AlertTitle>Bootstrap failed</AlertTitle>
            <AlertDescription>{error}</AlertDescription>
          </Alert>
        ) : null}
        <Field label="Administrator e-mail" error={form.formState.errors.email?.message}>
          <Input type="email" autoComplete="off" placeholder="admin@company.com" disabled={off} {...form.register("email")} />
        </Field>
        <Field
          label="Administrator password"
          error={form.formState.errors.password?.message}
          hint={`At least ${MIN_PASSWORD_LENGTH} characters with upper- and lowercase letters and a number.`}
        >
          <PasswordInput autoComplete="new-password" disabled={off} {...form.register("password")} />
        </Field>
        <Button type="submit" size="lg" className="mt-1 w-full" disabled={off}>
          {busy ? <Spinner size="sm" label={null} className="text-current" /> : <ShieldCheck aria-hidden="true" />}
          Create Administrator
        </Button>
      </form>
    </AuthCard>
  );
}
