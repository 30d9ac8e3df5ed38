import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { MailCheck } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { ReadOnlyArea, ReadOnlyNote } from "@/components/ui/read-only-note";
import { Skeleton } from "@/components/ui/skeleton";
import { updateFullName, useInvalidateProfile, useProfile } from "@/entities/profile";
import { authUserQuery } from "@/entities/session";
import { useAuth, useReadOnly } from "@/lib/auth";
import { applyServerError } from "@/lib/form-errors";
import { toastServerError } from "@/lib/server-error";
import { getSupabase } from "@/lib/supabase";
import { useDocumentTitle } from "@/lib/use-document-title";
import { AvatarEditor } from "./avatar-editor";

const nameSchema = z.object({
  full_name: z.string().trim().min(1, "Enter your full name").max(120, "Use 120 characters or fewer"),
});
type NameValues = z.input<typeof nameSchema>;

const emailSchema = z.object({
  email: z.string().trim().min(1, "Enter the new e-mail address").pipe(z.email("Enter a valid e-mail address")),
});
type EmailValues = z.input<typeof emailSchema>;

function NameCard() {
  const { user } = useAuth();
  const profile = useProfile();
  const invalidateProfile = useInvalidateProfile();
  const values = useMemo(() => ({ full_name: profile.data?.full_name ?? "" }), [profile.data?.full_name]);
  const form = useForm<NameValues, unknown, z.output<typeof nameSchema>>({
    resolver: zodResolver(nameSchema),
    values,
  });
  const { errors, isSubmitting, isDirty } = form.formState;

  const onSubmit = form.handleSubmit(async ({ full_name }) => {
    if (!user) return;
    try {
      await updateFullName(user.id, full_name);
      await invalidateProfile();
      toast.success("Profile updated", { description: "Your name is updated everywhere in Fairbalance." });
    } catch (error) {
      const p = await applyServerError(form.setError, error, { fallback: "Your name could not be saved.", fields: ["full_name"] });
      toastServerError("Profile not updated", p);
    }
  });

  return (
    <Card>
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <CardHeader>
          <CardTitle>Name</CardTitle>
          <CardDescription>Printed on your electronic signatures and shown to your colleagues.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {profile.isPending ? (
            <Skeleton className="h-10 w-full" />
          ) : (
            <Field label="Full name" error={errors.full_name?.message}>
              <Input autoComplete="name" {...form.register("full_name")} />
            </Field>
          )}
          {errors.root?.message ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {errors.root.message}
            </p>
          ) : null}
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" disabled={isSubmitting || !isDirty}>
            {isSubmitting ? "Saving…" : "Save name"}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

/** The message the e-mail-change link puts in the URL fragment after its first half is confirmed. */
function readLinkMessage(): string | null {
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  return params.get("message");
}

function EmailCard() {
  const { user } = useAuth();
  const [editing, setEditing] = useState(false);
  const [linkMessage, setLinkMessage] = useState<string | null>(readLinkMessage);
  const fresh = useQuery(authUserQuery(user?.id));
  const current = fresh.data ?? user;
  const email = current?.email ?? "";
  const pending = current?.new_email ?? "";
  const form = useForm<EmailValues, unknown, z.output<typeof emailSchema>>({
    resolver: zodResolver(emailSchema),
    defaultValues: { email: "" },
  });
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    if (linkMessage) {
      // Keep the notice, drop the fragment so a reload does not repeat it.
      window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
    }
  }, [linkMessage]);

  const onSubmit = form.handleSubmit(async ({ email: next }) => {
    if (next.toLowerCase() === email.toLowerCase()) {
      form.setError("email", { message: "This is already your e-mail address" });
      return;
    }
    const sb = await getSupabase();
    const { data, error } = await sb.auth.updateUser(
      { email: next },
      { emailRedirectTo: `${window.location.origin}/account/profile` },
    );
    if (error) {
      const p = await applyServerError(form.setError, error, { fallback: "The e-mail address could not be changed.", fields: ["email"] });
      if (p.demo) toastServerError("E-mail not changed", p);
      return;
    }
    fresh.refetch().catch(() => undefined);
    setEditing(false);
    setLinkMessage(null);
    form.reset();
    toast.success("Check both inboxes", {
      description: `Confirm the change from ${email} and from ${data.user.new_email ?? next}.`,
    });
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>E-mail address</CardTitle>
        <CardDescription>You sign in with it, and Fairbalance sends your notifications to it.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Field label="Current e-mail" hint={editing ? undefined : "Changing it needs a confirmation from both addresses."}>
          <Input value={email} readOnly autoComplete="email" data-testid="profile-email" />
        </Field>
        {linkMessage ? (
          <Alert variant="info">
            <MailCheck aria-hidden="true" />
            <AlertTitle>One of two confirmations done</AlertTitle>
            <AlertDescription>{linkMessage}.</AlertDescription>
          </Alert>
        ) : null}
        {pending && !editing ? (
          <Alert variant="info" data-testid="email-change-pending">
            <MailCheck aria-hidden="true" />
            <AlertTitle>Change to {pending} waiting for confirmation</AlertTitle>
            <AlertDescription>
              We sent a link to {email} and to {pending}. Open both; your address changes once both are confirmed.
            </AlertDescription>
          </Alert>
        ) : null}
        {editing ? (
          <form className="grid gap-4" onSubmit={(event) => void onSubmit(event)} noValidate>
            <Field
              label="New e-mail address"
              error={errors.email?.message}
              hint="We send a confirmation link to your current and your new address."
            >
              <Input type="email" autoComplete="email" autoFocus {...form.register("email")} />
            </Field>
            {errors.root?.message ? (
              <p role="alert" className="text-sm font-medium text-destructive">
                {errors.root.message}
              </p>
            ) : null}
            <div className="flex flex-wrap justify-end gap-2">
              <Button
                variant="ghost"
                onClick={() => {
                  setEditing(false);
                  form.reset();
                }}
              >
                Cancel
              </Button>
              <Button type="submit" disabled={isSubmitting}>
                {isSubmitting ? "Sending…" : "Send confirmation links"}
              </Button>
            </div>
          </form>
        ) : (
          <div className="flex justify-end">
            <Button
              variant="outline"
              onClick={() => {
                setEditing(true);
              }}
            >
              Change e-mail
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * The member's profile (/account/profile): photo (cropped and resized in
 * the browser), full name, and the e-mail address (read-only; a change is
 * confirmed from both addresses).
 */
export function ProfilePage() {
  useDocumentTitle("Profile");
  // The read-only demo's shared profile is shown with every control disabled.
  const readOnly = useReadOnly();
  return (
    <ReadOnlyArea readOnly={readOnly} className="mx-auto grid w-full max-w-3xl gap-6">
      <PageHeader
        title="Profile"
        description="How you appear to your colleagues in Fairbalance."
        actions={readOnly ? <ReadOnlyNote /> : null}
      />
      <AvatarEditor />
      <NameCard />
      <EmailCard />
    </ReadOnlyArea>
  );
}
