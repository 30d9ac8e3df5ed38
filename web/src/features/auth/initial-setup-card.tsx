import type { User } from "@supabase/supabase-js";
import { CircleAlert, ShieldCheck } from "lucide-react";
import { useState, type SubmitEvent } from "react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { AuthCard } from "@/components/ui/auth-frame";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/errors";
import { invokeFunction } from "@/lib/functions";
import { MIN_PASSWORD_LENGTH } from "@/lib/password";
import { notify } from "./notify";
import { signInErrorMessage, signInWithPassword } from "./sign-in";
import { validateSetup } from "./validation";

/**
 * The first-run card of the sign-in screen: creates the first administrator
 * (db-recovery SAFE_CREATE_ADMIN, which the server allows without a key
 * only while the instance has no account) and signs in with it.
 */
export function InitialSetupCard({ onSignedIn, disabled }: { onSignedIn: (user: User) => void; disabled: boolean }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = validateSetup(email, password);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      await invokeFunction("db-recovery", { action: "SAFE_CREATE_ADMIN", admin_email: email.trim(), admin_password: password });
    } catch (e) {
      const message = errorMessage(e, "The administrator could not be created.");
      notify("error", "Bootstrap failed", { description: message });
      setError(message);
      setBusy(false);
      return;
    }
    notify("success", "Success!", { description: "Administrator account created. Signing you in…" });
    try {
      onSignedIn(await signInWithPassword(email, password));
    } catch (e) {
      setError(signInErrorMessage(e));
      setBusy(false);
    }
  }

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
        <Field label="Administrator e-mail">
          <Input
            type="email"
            autoComplete="off"
            placeholder="admin@company.com"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
            }}
            disabled={off}
          />
        </Field>
        <Field
          label="Administrator password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters with upper- and lowercase letters and a number.`}
        >
          <PasswordInput
            autoComplete="new-password"
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
            }}
            disabled={off}
          />
        </Field>
        <Button type="submit" size="lg" className="mt-1 w-full" disabled={off}>
          {busy ? <Spinner size="sm" label={null} className="text-current" /> : <ShieldCheck aria-hidden="true" />}
          Create Administrator
        </Button>
      </form>
    </AuthCard>
  );
}
