import { zodResolver } from "@hookform/resolvers/zod";
import { Copy, KeyRound, ShieldAlert, ShieldCheck, Smartphone } from "lucide-react";
import { useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { digitsOnly, FormField, FormInput } from "@/components/ui/form";
import { Skeleton } from "@/components/ui/skeleton";
import { formatDate } from "@/lib/format-time";
import { describeServerError, toastServerError } from "@/lib/server-error";
import { getSupabase } from "@/lib/supabase";
import { CODE_PATTERN, DEFAULT_FACTOR_NAME, ENTER_CODE, freeName, groupSecret, qrSource } from "./mfa-helpers";
import { type SecurityStatus, useInvalidateSession, useSecurityStatus } from "@/entities/session";

/** A code from the authenticator app. */
const codeSchema = z.object({ code: z.string().regex(CODE_PATTERN, ENTER_CODE) });
type CodeValues = z.input<typeof codeSchema>;

function useCodeForm() {
  return useForm<CodeValues>({ resolver: zodResolver(codeSchema), defaultValues: { code: "" } });
}

/** The code field of a {@link useCodeForm} form (inside its FormProvider). */
function CodeField({ label = "6-digit code" }: { label?: string }) {
  return (
    <FormField name="code" label={label} className="w-full max-w-48">
      <FormInput name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} className="font-mono tracking-[0.3em]" transform={digitsOnly} />
    </FormField>
  );
}

/** Sessions, security status and the member rows (MFA on/off) change together. */
const useRefreshSecurity = useInvalidateSession;

/**
 * Shown when the account has a second factor but this session was signed
 * in with the password only (AAL1): a code from the app raises it to AAL2,
 * which the server needs to change the password or the factors.
 */
export function StepUpPrompt({ status }: { status: SecurityStatus }) {
  const form = useCodeForm();
  const busy = form.formState.isSubmitting;
  const refresh = useRefreshSecurity();
  const factor = status.factors[0];
  if (!factor || status.currentLevel === "aal2" || status.nextLevel !== "aal2") return null;

  const verify = form.handleSubmit(async ({ code }) => {
    const sb = await getSupabase();
    const { error: e } = await sb.auth.mfa.challengeAndVerify({ factorId: factor.id, code });
    if (e) {
      form.setError("code", { type: "server", message: describeServerError(e, "The code could not be verified.").message }, { shouldFocus: true });
      return;
    }
    form.reset();
    await refresh();
    toast.success("Verified", { description: "This session now uses two-step verification." });
  });

  return (
    <Alert variant="warning">
      <ShieldAlert aria-hidden="true" />
      <AlertTitle>Confirm it is you</AlertTitle>
      <AlertDescription>
        You signed in to this session with your password only. Enter a code from your authenticator app to change your
        password or your two-step verification.
      </AlertDescription>
      <FormProvider {...form}>
        <form className="col-start-2 mt-2 flex flex-wrap items-end gap-2" onSubmit={(event) => void verify(event)} noValidate>
          <CodeField label="Authenticator code" />
          <Button type="submit" disabled={busy}>
            {busy ? "Verifying…" : "Verify"}
          </Button>
        </form>
      </FormProvider>
    </Alert>
  );
}

interface Enrolment {
  factorId: string;
  qr: string;
  secret: string;
}

function EnrolPanel({ enrolment, onDone, onCancel }: { enrolment: Enrolment; onDone: () => void; onCancel: () => void }) {
  const form = useCodeForm();
  const busy = form.formState.isSubmitting;

  const verify = form.handleSubmit(async ({ code }) => {
    const sb = await getSupabase();
    const { error: e } = await sb.auth.mfa.challengeAndVerify({ factorId: enrolment.factorId, code });
    if (e) {
      const p = describeServerError(e, "The code could not be verified.");
      form.setError("code", { type: "server", message: p.message }, { shouldFocus: true });
      if (p.demo) toastServerError("Two-step verification not turned on", p);
      return;
    }
    onDone();
  });

  return (
    <div className="grid gap-5 rounded-lg border bg-muted/40 p-4 sm:p-5" data-testid="mfa-enrolment">
      <ol className="grid gap-5 md:grid-cols-[auto_1fr]">
        <li className="flex justify-center md:row-span-2">
          <img
            src={qrSource(enrolment.qr)}
            alt="QR code to scan with your authenticator app"
            width={176}
            height={176}
            className="size-44 rounded-lg bg-white p-2 shadow-sm ring-1 ring-border"
          />
        </li>
        <li className="grid content-start gap-2">
          <p className="text-sm font-medium">1. Scan the QR code with your authenticator app</p>
          <p className="text-sm leading-6 text-muted-foreground">
            For example 1Password, Google Authenticator, Microsoft Authenticator or Authy. Can’t scan it? Add an account
            by hand with this key (time-based, 6 digits):
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <code
              className="rounded-md border bg-card px-2.5 py-1.5 font-mono text-sm tracking-wider"
              data-testid="totp-secret"
              data-secret={enrolment.secret}
            >
              {groupSecret(enrolment.secret)}
            </code>
            <Button
              size="sm"
              variant="outline"
              onClick={() => {
                void navigator.clipboard.writeText(enrolment.secret).then(
                  () => toast.success("Key copied"),
                  () => toast.error("Copy failed", { description: "Select the key and copy it by hand." }),
                );
              }}
            >
              <Copy aria-hidden="true" /> Copy key
            </Button>
          </div>
        </li>
        <li className="grid content-start gap-2">
          <p className="text-sm font-medium">2. Enter the code the app shows</p>
          <FormProvider {...form}>
            <form className="flex flex-wrap items-end gap-2" onSubmit={(event) => void verify(event)} noValidate>
              <CodeField />
              <Button type="submit" disabled={busy}>
                {busy ? "Verifying…" : "Verify and turn on"}
              </Button>
              <Button variant="ghost" onClick={onCancel} disabled={busy}>
                Cancel
              </Button>
            </form>
          </FormProvider>
        </li>
      </ol>
    </div>
  );
}

/**
 * Two-step verification: this session's assurance level, the verified
 * authenticator apps (TOTP) with removal, and enrolment (QR code or key,
 * then a code to verify).
 */
export function MfaCard() {
  const status = useSecurityStatus();
  const refresh = useRefreshSecurity();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [starting, setStarting] = useState(false);
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);
  const [removeBusy, setRemoveBusy] = useState(false);
  const factors = status.data?.factors ?? [];
  const aal = status.data?.currentLevel ?? null;
  const on = factors.length > 0;

  async function start() {
    setStarting(true);
    try {
      const sb = await getSupabase();
      const existing = await sb.auth.mfa.listFactors();
      const taken = (existing.data?.all ?? []).map((f) => f.friendly_name ?? "");
      const { data, error } = await sb.auth.mfa.enroll({ factorType: "totp", friendlyName: freeName(taken) });
      if (error) {
        toastServerError("Could not start the set-up", describeServerError(error, "The authenticator could not be set up."));
        return;
      }
      setEnrolment({ factorId: data.id, qr: data.totp.qr_code, secret: data.totp.secret });
    } finally {
      setStarting(false);
    }
  }

  async function cancel() {
    const current = enrolment;
    setEnrolment(null);
    if (!current) return;
    // Drop the unverified factor so it does not linger.
    const sb = await getSupabase();
    await sb.auth.mfa.unenroll({ factorId: current.factorId });
  }

  async function done() {
    setEnrolment(null);
    await refresh();
    toast.success("Two-step verification is on", {
      description: "From now on you sign in with your password and a code from your app.",
    });
  }

  async function remove() {
    if (!removing) return;
    setRemoveBusy(true);
    try {
      const sb = await getSupabase();
      const { error } = await sb.auth.mfa.unenroll({ factorId: removing.id });
      if (error) {
        toastServerError("Authenticator not removed", describeServerError(error, "The authenticator could not be removed."));
        return;
      }
      // The server lowers this session to AAL1; a refreshed token says so.
      await sb.auth.refreshSession();
      setRemoving(null);
      await refresh();
      toast.success("Authenticator removed", { description: `${removing.name} no longer signs you in.` });
    } finally {
      setRemoveBusy(false);
    }
  }

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle className="flex items-center gap-2">
            Two-step verification
            {status.data ? (
              <Badge variant={on ? "green" : "gray"} data-testid="mfa-status">
                {on ? "On" : "Off"}
              </Badge>
            ) : null}
          </CardTitle>
          <CardDescription>
            A code from an authenticator app on your phone, asked for after your password, so a leaked password alone
            does not open your account.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-5">
        {status.isPending ? (
          <Skeleton className="h-20 w-full" />
        ) : status.isError ? (
          <p role="alert" className="text-sm font-medium text-destructive">
            {describeServerError(status.error, "Your two-step verification status could not be loaded.").message}
          </p>
        ) : (
          <>
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border px-4 py-3 text-sm">
              {aal === "aal2" ? (
                <ShieldCheck aria-hidden="true" className="size-4 text-success" />
              ) : (
                <KeyRound aria-hidden="true" className="size-4 text-muted-foreground" />
              )}
              <span className="font-medium">This session</span>
              <Badge variant={aal === "aal2" ? "green" : "gray"} data-testid="session-aal" title="Authenticator assurance level">
                {(aal ?? "aal1").toUpperCase()}
              </Badge>
              <span className="text-muted-foreground">
                {aal === "aal2" ? "Signed in with password and authenticator code" : "Signed in with password only"}
              </span>
            </div>
            {on ? (
              <ul className="divide-y rounded-lg border" aria-label="Authenticator apps">
                {factors.map((factor) => {
                  const name = [factor.friendly_name?.trim()].find(Boolean) ?? DEFAULT_FACTOR_NAME;
                  return (
                    <li key={factor.id} className="flex flex-wrap items-center gap-3 px-4 py-3" data-testid="mfa-factor">
                      <Smartphone aria-hidden="true" className="size-5 text-muted-foreground" />
                      <div className="grid min-w-0 flex-1">
                        <span className="truncate text-sm font-medium" title={name}>{name}</span>
                        <span className="text-xs text-muted-foreground">
                          Time-based codes · added {formatDate(factor.created_at)}
                        </span>
                      </div>
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={() => {
                          setRemoving({ id: factor.id, name });
                        }}
                      >
                        Remove
                      </Button>
                    </li>
                  );
                })}
              </ul>
            ) : null}
            {enrolment ? (
              <EnrolPanel
                enrolment={enrolment}
                onDone={() => void done()}
                onCancel={() => void cancel()}
              />
            ) : on && aal !== "aal2" ? null : (
              <div className="flex flex-wrap items-center justify-between gap-3">
                <p className="text-sm leading-6 text-muted-foreground">
                  {on
                    ? "You can add a second app, for example on a backup phone."
                    : "Protect your account and your signatures even if your password leaks."}
                </p>
                <Button variant={on ? "outline" : "default"} onClick={() => void start()} disabled={starting}>
                  {starting ? "Starting…" : on ? "Add another app" : "Set up authenticator app"}
                </Button>
              </div>
            )}
          </>
        )}
      </CardContent>
      <Dialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open && !removeBusy) setRemoving(null);
        }}
      >
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Remove {removing?.name}?</DialogTitle>
            <DialogDescription>
              {factors.length > 1
                ? "Its codes will no longer be accepted. Your other authenticator app keeps two-step verification on."
                : "Two-step verification will be off: you will sign in with your password only. You can set it up again at any time."}
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline" disabled={removeBusy}>
                Keep it
              </Button>
            </DialogClose>
            <Button variant="destructive" onClick={() => void remove()} disabled={removeBusy}>
              {removeBusy ? "Removing…" : "Remove authenticator"}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
