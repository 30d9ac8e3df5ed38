import { zodResolver } from "@hookform/resolvers/zod";
import { Check, Circle, MailCheck } from "lucide-react";
import { useId } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { digitsOnly, FormInput } from "@/components/ui/form";
import { PasswordInput } from "@/components/ui/password-input";
import { useInvalidateSession } from "@/entities/session";
import { useAuth } from "@/lib/auth";
import { isRecord } from "@/lib/api";
import { PASSWORD_RULES, PASSWORDS_DO_NOT_MATCH, passwordProblem } from "@/lib/password";
import { describeServerError, toastServerError } from "@/lib/server-error";
import { getSupabase } from "@/lib/supabase";
import { cn } from "@/lib/utils";

/** The spec's fallback when a password update fails without a message. */
const UPDATE_FAILED = "An error occurred while updating your password";

function errorCode(error: unknown): string {
  return isRecord(error) && typeof error.code === "string" ? error.code : "";
}

function Requirements({ password, id }: { password: string; id: string }) {
  return (
    <ul id={id} className="grid gap-1 text-sm sm:grid-cols-2" aria-label="Password requirements">
      {PASSWORD_RULES.map((rule) => {
        const met = rule.test(password);
        return (
          <li key={rule.id} className={cn("flex items-center gap-2", met ? "text-foreground" : "text-muted-foreground")}>
            {met ? (
              <Check aria-hidden="true" className="size-4 text-success" />
            ) : (
              <Circle aria-hidden="true" className="size-3.5" />
            )}
            {rule.label}
            <span className="sr-only">{met ? "(met)" : "(not met yet)"}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** The form: new password twice and, once the server asks for it, the e-mailed code. */
const schema = z
  .object({
    password: z.string(),
    confirm: z.string(),
    needsNonce: z.boolean(),
    nonce: z.string(),
  })
  .superRefine((v, ctx) => {
    const problem = passwordProblem(v.password);
    if (problem) ctx.addIssue({ code: "custom", path: ["password"], message: problem });
    if (v.confirm !== v.password) ctx.addIssue({ code: "custom", path: ["confirm"], message: PASSWORDS_DO_NOT_MATCH });
    if (v.needsNonce && !/^\d{6}$/.test(v.nonce.trim())) ctx.addIssue({ code: "custom", path: ["nonce"], message: "Enter the 6-digit code from the e-mail" });
  });
type Values = z.input<typeof schema>;

const EMPTY: Values = { password: "", confirm: "", needsNonce: false, nonce: "" };

/**
 * Change password. The server signs out the member's other sessions when
 * it changes. A session older than 24 hours needs a reauthentication code
 * (the server answers reauthentication_needed; we ask it to e-mail one
 * and then send it along); an account with two-step verification needs an
 * AAL2 session.
 */
export function PasswordCard() {
  const { user } = useAuth();
  const invalidateSession = useInvalidateSession();
  const requirementsId = useId();
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: EMPTY });
  const [password, needsNonce] = useWatch({ control: form.control, name: ["password", "needsNonce"] });
  const { errors, isSubmitting: busy } = form.formState;
  const email = user?.email ?? "your e-mail address";

  async function sendCode(): Promise<boolean> {
    const sb = await getSupabase();
    const { error } = await sb.auth.reauthenticate();
    if (error) {
      const p = describeServerError(error, "The verification code could not be sent.");
      form.setError("root", { type: "server", message: p.message });
      if (p.demo) toastServerError("Password not changed", p);
      return false;
    }
    return true;
  }

  const submit = form.handleSubmit(async (values) => {
    const sb = await getSupabase();
    const nonce = values.nonce.trim();
    const { error } = await sb.auth.updateUser(values.needsNonce ? { password: values.password, nonce } : { password: values.password });
    if (error) {
      const code = errorCode(error);
      if (code === "reauthentication_needed") {
        if (await sendCode()) form.setValue("needsNonce", true);
        return;
      }
      const p = describeServerError(error, UPDATE_FAILED);
      if (code === "reauthentication_not_valid") form.setError("nonce", { type: "server", message: p.message }, { shouldFocus: true });
      else if (code === "insufficient_aal")
        form.setError("root", { type: "server", message: "Confirm it is you with a code from your authenticator app first (above), then try again." });
      else if (code === "weak_password" || code === "same_password") form.setError("password", { type: "server", message: p.message }, { shouldFocus: true });
      else form.setError("root", { type: "server", message: p.message });
      if (p.demo) toastServerError("Password not changed", p);
      return;
    }
    form.reset(EMPTY);
    void invalidateSession();
    toast.success("Password Updated", { description: "Use it the next time you sign in. Your other sessions were signed out." });
  });

  return (
    <Card>
      <FormProvider {...form}>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <CardHeader>
            <CardTitle>Password</CardTitle>
            <CardDescription>
              Choose a password you do not use anywhere else. Changing it signs you out on your other devices.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            {/* Lets password managers tie the new password to this account. */}
            <input type="email" name="username" autoComplete="username" value={user?.email ?? ""} readOnly hidden />
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="New password" error={errors.password?.message}>
                <PasswordInput autoComplete="new-password" {...form.register("password")} />
              </Field>
              <Field label="Confirm new password" error={errors.confirm?.message}>
                <PasswordInput autoComplete="new-password" {...form.register("confirm")} />
              </Field>
            </div>
            <Requirements password={password} id={requirementsId} />
            {needsNonce ? (
              <Alert variant="info">
                <MailCheck aria-hidden="true" />
                <AlertTitle>Confirm it is you</AlertTitle>
                <AlertDescription>
                  You signed in more than 24 hours ago, so we sent a 6-digit code to {email}. Enter it to change your
                  password.
                </AlertDescription>
                <div className="col-start-2 mt-2 grid gap-2">
                  <Field label="Verification code" error={errors.nonce?.message} className="max-w-48">
                    <FormInput name="nonce" inputMode="numeric" autoComplete="one-time-code" maxLength={6} transform={digitsOnly} />
                  </Field>
                  <div>
                    <Button
                      variant="link"
                      className="h-auto px-0"
                      onClick={() => {
                        void sendCode().then((ok) => {
                          if (ok) toast.success("A new code is on its way", { description: `Check ${email}.` });
                        });
                      }}
                    >
                      Send a new code
                    </Button>
                  </div>
                </div>
              </Alert>
            ) : null}
            {errors.root?.message ? (
              <p role="alert" className="text-sm font-medium text-destructive">
                {errors.root.message}
              </p>
            ) : null}
          </CardContent>
          <CardFooter className="justify-end">
            <Button type="submit" disabled={busy || password === ""}>
              {busy ? "Updating…" : "Update password"}
            </Button>
          </CardFooter>
        </form>
      </FormProvider>
    </Card>
  );
}
