import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { LockKeyhole } from "lucide-react";
import { useForm } from "react-hook-form";
import { z } from "zod/mini";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { AuthCard, AuthFrame } from "@/components/ui/auth-frame";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { PasswordInput } from "@/components/ui/password-input";
import { Spinner } from "@/components/ui/spinner";
import { getConfig, resetConfig } from "@/lib/config";
import { markGatePassed } from "@/lib/modes";
import { useDocumentTitle } from "@/lib/use-document-title";
import { submitPasscode, validatePasscode } from "./gate";

/** The passcode form: an empty passcode gets the spec's message beside the field. */
const schema = z.object({ passcode: z.string() }).check(
  z.superRefine((v, ctx) => {
    const problem = validatePasscode(v.passcode);
    if (problem) ctx.addIssue({ code: "custom", path: ["passcode"], message: problem });
  }),
);

/**
 * Private Preview Access (/gate): one passcode field and 'Access Workspace'.
 * The server checks the passcode and sets the HttpOnly gate cookie; the
 * page then records the local flag and starts the app afresh, so that the
 * configuration (which says whether the gate is passed) is read again.
 */
export function GatePage() {
  useDocumentTitle("Private Preview Access");
  const form = useForm<z.input<typeof schema>>({ resolver: zodResolver(schema), defaultValues: { passcode: "" } });
  const error = form.formState.errors.passcode?.message;
  // Busy from the submit until the page is left (a passed gate starts the app afresh).
  const busy = form.formState.isSubmitting || form.formState.isSubmitSuccessful;
  // Shares the route guard's cached configuration.
  const config = useQuery({ queryKey: ["config"], queryFn: getConfig, staleTime: 60_000 });
  const open = config.data !== undefined && (!config.data.gate || config.data.gatePassed);

  const onSubmit = form.handleSubmit(async ({ passcode }) => {
    const result = await submitPasscode(passcode);
    if (!result.ok) {
      form.setError("passcode", { type: "server", message: result.message }, { shouldFocus: true });
      return;
    }
    markGatePassed();
    resetConfig();
    window.location.assign("/");
  });

  return (
    <AuthFrame footer="Don't have the passcode? Contact your administrator to get access.">
      <AuthCard
        icon={LockKeyhole}
        title="Private Preview Access"
        description="This Fairbalance workspace is private. Enter the access passcode to continue. Contact the administrator of this workspace if you don't have it."
      >
        {open ? (
          <div className="grid gap-4">
            <Alert variant="success" role="status">
              <AlertDescription>No passcode is needed: this workspace is open to you.</AlertDescription>
            </Alert>
            <Button size="lg" className="w-full" onClick={() => { window.location.assign("/"); }}>
              Continue
            </Button>
          </div>
        ) : (
          <form noValidate onSubmit={(e) => void onSubmit(e)} className="grid gap-4">
            <Field label="Access passcode" error={error}>
              <PasswordInput autoComplete="off" autoFocus disabled={busy} {...form.register("passcode")} />
            </Field>
            <Button type="submit" size="lg" className="w-full" disabled={busy}>
              {busy ? <Spinner size="sm" label={null} className="text-current" /> : <LockKeyhole aria-hidden="true" />}
              Access Workspace
            </Button>
          </form>
        )}
      </AuthCard>
    </AuthFrame>
  );
}
