import { MailQuestion, RefreshCw, Scale } from "lucide-react";
import { toast } from "sonner";
import { useState, type SubmitEvent } from "react";
import { Link } from "react-router";
import { buttonVariants } from "@/components/ui/button-variants";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useAuth, useInvalidateProfile, useProfile } from "@/lib/auth";
import { unwrap } from "@/lib/data";
import { errorMessage } from "@/lib/errors";
import { getSupabase } from "@/lib/supabase";
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
function AcceptInviteForm({ onAccepted }: { onAccepted: () => Promise<void> }) {
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const token = inviteToken(value);
    if (!token) {
      setError("Paste the invitation link or its code");
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const sb = await getSupabase();
      const result = unwrap(await sb.rpc("accept_invite", { token })) as { success?: boolean; error?: string | null } | null;
      if (!result?.success) {
        setError(`${result?.error ?? "Failed to accept invite"}. Please contact an administrator.`);
        return;
      }
      toast.success("Welcome to the team!");
      await onAccepted();
    } catch (err) {
      setError(errorMessage(err, "Failed to accept invite"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-2">
      <Field label="Invitation link" error={error}>
        <Input
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
          }}
          placeholder="https://…/signup?invite=…"
          autoComplete="off"
          spellCheck={false}
        />
      </Field>
      <div>
        <Button type="submit" variant="outline" disabled={busy || value.trim() === ""}>
          {busy ? <Spinner size="sm" label={null} /> : null}
          Join organization
        </Button>
      </div>
    </form>
  );
}
