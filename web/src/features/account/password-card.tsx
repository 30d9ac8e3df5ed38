import { useQueryClient } from "@tanstack/react-query";
import { Check, Circle, MailCheck } from "lucide-react";
import { useId, useState, type SyntheticEvent } from "react";
import { toast } from "sonner";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { useAuth } from "@/lib/auth";
import { isRecord } from "@/lib/api";
import { PASSWORD_RULES, PASSWORDS_DO_NOT_MATCH, passwordProblem } from "@/lib/password";
import { describeServerError, toastServerError } from "@/lib/server-error";
import { getSupabase } from "@/lib/supabase";
import { cn } from "@/lib/utils";
import { SECURITY_KEY, SESSIONS_KEY } from "./queries";

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

/**
 * Change password. The server signs out the member's other sessions when
 * it changes. A session older than 24 hours needs a reauthentication code
 * (the server answers reauthentication_needed; we ask it to e-mail one
 * and then send it along); an account with two-step verification needs an
 * AAL2 session.
 */
export function PasswordCard() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const requirementsId = useId();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [nonce, setNonce] = useState("");
  const [needsNonce, setNeedsNonce] = useState(false);
  const [errors, setErrors] = useState<{ password?: string; confirm?: string; nonce?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const email = user?.email ?? "your e-mail address";

  async function sendCode(): Promise<boolean> {
    const sb = await getSupabase();
    const { error } = await sb.auth.reauthenticate();
    if (error) {
      const p = describeServerError(error, "The verification code could not be sent.");
      setErrors({ form: p.message });
      if (p.demo) toastServerError("Password not changed", p);
      return false;
    }
    return true;
  }

  async function submit(event: SyntheticEvent) {
    event.preventDefault();
    const next: typeof errors = {};
    const problem = passwordProblem(password);
    if (problem) next.password = problem;
    if (confirm !== password) next.confirm = PASSWORDS_DO_NOT_MATCH;
    if (needsNonce && !/^\d{6}$/.test(nonce.trim())) next.nonce = "Enter the 6-digit code from the e-mail";
    setErrors(next);
    if (Object.keys(next).length > 0) return;

    setBusy(true);
    try {
      const sb = await getSupabase();
      const { error } = await sb.auth.updateUser(needsNonce ? { password, nonce: nonce.trim() } : { password });
      if (error) {
        const code = errorCode(error);
        if (code === "reauthentication_needed") {
          if (await sendCode()) {
            setNeedsNonce(true);
            setErrors({});
          }
          return;
        }
        const p = describeServerError(error, UPDATE_FAILED);
        if (code === "reauthentication_not_valid") setErrors({ nonce: p.message });
        else if (code === "insufficient_aal")
          setErrors({ form: "Confirm it is you with a code from your authenticator app first (above), then try again." });
        else if (code === "weak_password" || code === "same_password") setErrors({ password: p.message });
        else setErrors({ form: p.message });
        if (p.demo) toastServerError("Password not changed", p);
        return;
      }
      setPassword("");
      setConfirm("");
      setNonce("");
      setNeedsNonce(false);
      setErrors({});
      void queryClient.invalidateQueries({ queryKey: [SESSIONS_KEY] });
      void queryClient.invalidateQueries({ queryKey: [SECURITY_KEY] });
      toast.success("Password Updated", { description: "Use it the next time you sign in. Your other sessions were signed out." });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card>
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
            <Field label="New password" error={errors.password}>
              <PasswordInput
                autoComplete="new-password"
                value={password}
                onChange={(event) => {
                  setPassword(event.target.value);
                }}
              />
            </Field>
            <Field label="Confirm new password" error={errors.confirm}>
              <PasswordInput
                autoComplete="new-password"
                value={confirm}
                onChange={(event) => {
                  setConfirm(event.target.value);
                }}
              />
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
                <Field label="Verification code" error={errors.nonce} className="max-w-48">
                  <Input
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={6}
                    value={nonce}
                    onChange={(event) => {
                      setNonce(event.target.value.replace(/\D/g, ""));
                    }}
                  />
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
          {errors.form ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {errors.form}
            </p>
          ) : null}
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" disabled={busy || password === ""}>
            {busy ? "Updating…" : "Update password"}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
