import { zodResolver } from "@hookform/resolvers/zod";
import { MailQuestion, RefreshCw, Scale } from "lucide-react";
import { useState } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { Link } from "react-router";
import { buttonVariants } from "@/components/ui/button-variants";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { acceptInvite } from "@/entities/invites";
import { useInvalidateProfile, useProfile } from "@/entities/profile";
import { useAuth } from "@/lib/auth";
import { errorMessage } from "@/lib/errors";
import { useDocumentTitle } from "@/lib/use-document-title";
import { inviteToken } from "./invites";

/**
 * Shown instead of the app to a signed-in member who belongs to no
 * organization and is not an admin (only admins create one): they join by
 * an administrator's invitation. "Check again" reloads the profile, so a
 * member who accepted an invitation in another tab gets in without signing
 * out.
 */
export function NoWorkspace() {
  useDocumentTitle("No organization yet");
  const { user } = useAuth();
  const profile = useProfile();
  const invalidateProfile = useInvalidateProfile();
  const [checking, setChecking] = useState(false);
  const [checkedOnce, setCheckedOnce] = useState(false);

  async function refresh() {
    setChecking(true);
    try {
      await invalidateProfile();
    } finally {
      setChecking(false);
      setCheckedOnce(true);
    }
  }

  return (
    <div className="flex min-h-dvh flex-col bg-background">
      <header className="flex h-14 shrink-0 items-center gap-2 border-b bg-card px-4 sm:px-6">
        <span className="inline-flex size-7 items-center justify-center rounded-md bg-primary text-primary-foreground">
          <Scale aria-hidden="true" className="size-4" />
        </span>
        <span className="font-semibold tracking-tight">Fairbalance</span>
      </header>
      <main id="main" tabIndex={-1} className="flex flex-1 items-start justify-center px-4 py-10 outline-none sm:items-center sm:py-16">
        <Card className="w-full max-w-lg">
          <CardHeader className="items-start gap-3">
            <span className="inline-flex size-11 items-center justify-center rounded-full bg-primary/10">
              <MailQuestion aria-hidden="true" className="size-5 text-primary" />
            </span>
            <CardTitle as="h1" className="text-xl">
              You are not part of an organization yet
            </CardTitle>
            <CardDescription>
              Fairbalance workspaces are joined by invitation. Ask your administrator to invite this e-mail address, then
              paste the invitation link they send you below.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <dl className="grid gap-1 rounded-lg bg-muted px-4 py-3 text-sm">
              <dt className="text-muted-foreground">Signed in as</dt>
              <dd className="font-medium break-all">{user?.email ?? "—"}</dd>
            </dl>
            <AcceptInviteForm onAccepted={refresh} />
            <p className="text-sm leading-6 text-muted-foreground">
              If your administrator has already added you to the organization, check again.
            </p>
            <p role="status" className="min-h-5 text-sm text-muted-foreground">
              {checkedOnce && !checking && !profile.data?.org_id ? "Still no organization for this account." : ""}
            </p>
          </CardContent>
          <CardFooter className="flex-col-reverse items-stretch gap-2 sm:flex-row sm:justify-between">
            <Link to="/logout" className={buttonVariants({ variant: "ghost" })}>
              Sign out
            </Link>
            <Button onClick={() => void refresh()} disabled={checking}>
              {checking ? <Spinner size="sm" label={null} /> : <RefreshCw aria-hidden="true" />}
              Check again
            </Button>
          </CardFooter>
        </Card>
      </main>
    </div>
  );
}

/**
 * Accepts an invitation for the signed-in account (rpc accept_invite): the
 * sign-up link is for new accounts, so a member who already has one pastes
 * the link (or its token) here instead.
 */
const acceptSchema = z.object({
  link: z
    .string()
    .transform((value) => inviteToken(value))
    .refine((token) => token !== "", "Paste the invitation link or its code"),
});
type AcceptValues = z.input<typeof acceptSchema>;

function AcceptInviteForm({ onAccepted }: { onAccepted: () => Promise<void> }) {
  const form = useForm<AcceptValues, unknown, z.output<typeof acceptSchema>>({ resolver: zodResolver(acceptSchema), defaultValues: { link: "" } });
  const value = useWatch({ control: form.control, name: "link" });
  const busy = form.formState.isSubmitting;

  const submit = form.handleSubmit(async ({ link: token }) => {
    try {
      const { data, error } = await acceptInvite(token);
      if (error) {
        form.setError("link", { type: "server", message: errorMessage(error, "Failed to accept invite") });
        return;
      }
      const result = data as { success?: boolean; error?: string | null } | null;
      if (!result?.success) {
        form.setError("link", { type: "server", message: `${result?.error ?? "Failed to accept invite"}. Please contact an administrator.` });
        return;
      }
      toast.success("Welcome to the team!");
      await onAccepted();
    } catch (err) {
      form.setError("link", { type: "server", message: errorMessage(err, "Failed to accept invite") });
    }
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-2">
        <FormField name="link" label="Invitation link">
          <Input placeholder="https://…/signup?invite=…" autoComplete="off" spellCheck={false} {...form.register("link")} />
        </FormField>
        <div>
          <Button type="submit" variant="outline" disabled={busy || value.trim() === ""}>
            {busy ? <Spinner size="sm" label={null} /> : null}
            Join organization
          </Button>
        </div>
      </form>
    </FormProvider>
  );
}
