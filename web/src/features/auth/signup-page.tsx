import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CircleAlert, MailCheck, UserPlus } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import type { z } from "zod/mini";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { AuthCard, AuthFrame } from "@/components/ui/auth-frame";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { PageSpinner, Spinner } from "@/components/ui/spinner";
import { acceptInvite as callAcceptInvite, inviteKeys, lookUpInvite as callGetInvite } from "@/entities/invites";
import { claimFirstAdmin, profileQuery } from "@/entities/profile";
import { useAuth } from "@/lib/auth";
import { errorMessage } from "@/lib/errors";
import { invokeFunction } from "@/lib/functions";
import { prepareNextScreen } from "@/lib/next-screen";
import { roleBadgeVariant, roleLabel } from "@/lib/roles";
import { getSupabase } from "@/lib/supabase";
import { useDocumentTitle } from "@/lib/use-document-title";
import { PasswordRequirements } from "./password-requirements";
import { acceptInviteNotice, inviteProblem, parseInvite, signupSchema, type InviteInfo, type Notice } from "./validation";

const UNEXPECTED = "An unexpected error occurred. Please try again.";
const FAILED = "Sign up failed. Please try again.";

/** Looks an invitation up by its token (rpc get_invite: e-mail and role only). */
async function lookUpInvite(token: string): Promise<InviteInfo> {
  const { data, error } = await callGetInvite(token);
  if (error) throw new Error(inviteProblem(error));
  const invite = parseInvite(data);
  if (!invite) throw new Error(inviteProblem(null));
  return invite;
}

/**
 * Joins the invitation's organisation (rpc accept_invite) and says how it
 * went. A sign-up (signedUpId, the new account) through a valid
 * invitation for that address has joined already (the server accepts it
 * with the sign-up, and the invitation is then used), so its profile is
 * looked at first.
 */
async function acceptInvite(token: string, signedUpId?: string): Promise<Notice> {
  try {
    if (signedUpId) {
      const sb = await getSupabase();
      const joined = await sb.from("profiles_v2").select("org_id").eq("id", signedUpId).maybeSingle();
      if (isJoined(joined.data)) return acceptInviteNotice({ success: true }, null);
    }
    const { data, error } = await callAcceptInvite(token);
    return acceptInviteNotice(data, error);
  } catch (e) {
    return { kind: "error", title: "Failed to accept invite", description: errorMessage(e, "Please contact an administrator.") };
  }
}

/**
 * Whether the account just created is the instance's only one (db-recovery
 * GET_USER_COUNT, open to anyone); when the count cannot be had, it may be.
 */
async function firstAccount(): Promise<boolean> {
  try {
    const body = await invokeFunction("db-recovery", { action: "GET_USER_COUNT" });
    return typeof body.count !== "number" || body.count <= 1;
  } catch {
    return true;
  }
}

function isJoined(row: unknown): boolean {
  return typeof row === "object" && row !== null && "org_id" in row && typeof row.org_id === "string" && row.org_id !== "";
}

function showNotice(notice: Notice) {
  if (notice.kind === "success") toast.success(notice.title, { description: notice.description });
  else toast.error(notice.title, { description: notice.description });
}

type Phase = { kind: "form" } | { kind: "busy" } | { kind: "sent"; email: string } | { kind: "leaving" };

/**
 * Sign-up (/signup, optional ?invite=TOKEN). Without an invitation it creates
 * an account; with one it first validates it (the form waits), then shows the
 * invited e-mail (read-only) and role and joins the organisation after
 * sign-up. When the server asks for e-mail confirmation, the confirmation
 * link returns here with the invitation, signed in, and the invitation is
 * accepted then.
 */
export function SignupPage() {
  useDocumentTitle("Create your account");
  const auth = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const token = params.get("invite") ?? "";

  // Only the form shows the invitation. A signed-in visitor with a link
  // (back from a confirmation link, or revisiting it after joining) is not
  // shown it: the invitation may be used already, and the server would
  // refuse to describe it.
  const invite = useQuery({
    queryKey: inviteKeys.byToken(token),
    queryFn: () => lookUpInvite(token),
    enabled: token !== "" && auth.status === "signed-out",
    retry: false,
    staleTime: 0,
  });

  const form = useForm<z.input<typeof signupSchema>>({
    resolver: zodResolver(signupSchema),
    defaultValues: { firstName: "", lastName: "", email: "", password: "" },
  });
  const password = useWatch({ control: form.control, name: "password" });
  const { errors } = form.formState;
  const [phase, setPhase] = useState<Phase>({ kind: "form" });

  // The invited address is the account's: the field shows it, read-only.
  const invitedEmail = invite.data?.email;
  useEffect(() => {
    if (invitedEmail !== undefined) form.setValue("email", invitedEmail);
  }, [invitedEmail, form]);

  // Back from the confirmation link (or already signed in) with an
  // invitation: accept it once, then go home.
  const accepting = useRef(false);
  const signedInWithInvite = auth.status === "signed-in" && token !== "" && phase.kind === "form";
  useEffect(() => {
    if (!signedInWithInvite || accepting.current) return;
    accepting.current = true;
    void acceptInvite(token).then((notice) => {
      showNotice(notice);
      void navigate("/", { replace: true });
    });
  }, [signedInWithInvite, token, navigate]);

  if (signedInWithInvite) return <PageSpinner label="Joining the organization" />;
  if (phase.kind === "form" && auth.status === "signed-in") return <Navigate to="/" replace />;
  if (phase.kind === "form" && auth.status === "loading") return <PageSpinner label="Checking your session" />;

  const withInvite = token !== "";
  const validating = withInvite && invite.isPending;
  const inviteError = withInvite && invite.isError ? invite.error.message : undefined;
  const onSubmit = form.handleSubmit(async (current) => {
    setPhase({ kind: "busy" });
    const firstName = current.firstName.trim();
    const lastName = current.lastName.trim();
    const fullName = `${firstName} ${lastName}`;
    const origin = window.location.origin;
    try {
      const sb = await getSupabase();
      const { data, error } = await sb.auth.signUp({
        email: current.email.trim(),
        password: current.password,
        options: {
          // invite_token: the server confirms the invited address and joins
          // at once (it is not kept as metadata).
          data: { first_name: firstName, last_name: lastName, full_name: fullName, ...(withInvite ? { invite_token: token } : {}) },
          // The confirmation link brings an invitee back here to join.
          emailRedirectTo: withInvite ? `${origin}/signup?invite=${encodeURIComponent(token)}` : `${origin}/`,
        },
      });
      if (error) {
        const message = errorMessage(error, FAILED);
        toast.error("Sign Up Failed", { description: message });
        form.setError("root", { type: "server", message });
        setPhase({ kind: "form" });
        return;
      }
      if (!data.user) {
        form.setError("root", { type: "server", message: FAILED });
        setPhase({ kind: "form" });
        return;
      }
      if (!data.session) {
        toast.success("Check your email", { description: "We sent you a link to confirm your account." });
        setPhase({ kind: "sent", email: current.email.trim() });
        return;
      }
      setPhase({ kind: "leaving" });
      if (withInvite) {
        showNotice(await acceptInvite(token, data.user.id));
      } else {
        // The instance's first account becomes its administrator. The
        // server allows that only while there is no administrator, so a
        // later account does not ask (it would only be refused).
        if (await firstAccount()) await claimFirstAdmin(data.user.id, fullName).catch(() => undefined);
        toast.success("Account created!", { description: "Welcome to Fairbalance." });
      }
      // The profile (as it is now: joined, or made administrator) and the
      // code of the screen it leads to, so that screen renders at once.
      const userId = data.user.id;
      await prepareNextScreen(queryClient.query(profileQuery(userId)).then((profile) => ({ path: "/", profile })));
      void navigate("/", { replace: true });
    } catch {
      form.setError("root", { type: "server", message: UNEXPECTED });
      setPhase({ kind: "form" });
    }
  });

  if (phase.kind === "sent") {
    return (
      <AuthFrame>
        <AuthCard
          icon={MailCheck}
          iconTone="success"
          title="Check your email"
          description={
            <>
              We sent a confirmation link to <strong className="font-medium text-foreground">{phase.email}</strong>. Open it to
              activate your account{withInvite ? " and join the organization" : ""}.
            </>
          }
        >
          <div className="grid gap-3 text-center text-sm text-muted-foreground">
            <p>Nothing arrived? Check your spam folder, or sign up again in a minute to get a new link.</p>
            <Link to="/login" className={buttonVariants({ variant: "outline", size: "lg", className: "w-full" })}>
              Back to Sign In
            </Link>
          </div>
        </AuthCard>
      </AuthFrame>
    );
  }

  const busy = phase.kind !== "form";
  const description = withInvite
    ? "Complete your account setup to join the organization"
    : "Create your account to get started";

  return (
    <AuthFrame
      width="md"
      footer={
        <>
          Already have an account?{" "}
          <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
            Back to Sign In
          </Link>
        </>
      }
    >
      <AuthCard icon={UserPlus} title="Join Fairbalance" description={description}>
        {validating ? (
          <div role="status" className="mb-5 flex items-center justify-center gap-2 rounded-lg bg-muted px-4 py-3 text-sm text-muted-foreground">
            <Spinner size="sm" label={null} />
            Checking your invitation…
          </div>
        ) : null}

        {inviteError ? (
          <div className="grid gap-4">
            <Alert variant="destructive">
              <CircleAlert aria-hidden="true" />
              <AlertTitle>{inviteError}</AlertTitle>
              <AlertDescription>Ask the person who invited you to send a new invitation.</AlertDescription>
            </Alert>
            <Link to="/login" className={buttonVariants({ variant: "outline", size: "lg", className: "w-full" })}>
              Back to Sign In
            </Link>
          </div>
        ) : (
          <form noValidate onSubmit={(e) => void onSubmit(e)} className="grid gap-4">
            {invite.data ? (
              <div className="flex items-center justify-between gap-3 rounded-lg border bg-muted/50 px-4 py-3 text-sm">
                <span className="text-muted-foreground">You are invited as</span>
                <Badge variant={roleBadgeVariant(invite.data.role)} data-testid="invite-role">
                  {roleLabel(invite.data.role)}
                </Badge>
              </div>
            ) : null}
            {errors.root?.message ? (
              <Alert variant="destructive">
                <CircleAlert aria-hidden="true" />
                <AlertDescription>{errors.root.message}</AlertDescription>
              </Alert>
            ) : null}
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="First name" error={errors.firstName?.message}>
                <Input autoComplete="given-name" disabled={busy} {...form.register("firstName")} />
              </Field>
              <Field label="Last name" error={errors.lastName?.message}>
                <Input autoComplete="family-name" disabled={busy} {...form.register("lastName")} />
              </Field>
            </div>
            <Field label="Email" hint={invite.data ? "The address your invitation was sent to." : undefined}>
              <Input
                type="email"
                autoComplete="email"
                inputMode="email"
                placeholder="you@company.com"
                readOnly={Boolean(invite.data)}
                disabled={busy || validating}
                {...form.register("email")}
              />
            </Field>
            <Field label="Password" error={errors.password?.message}>
              <PasswordInput autoComplete="new-password" disabled={busy} {...form.register("password")} />
            </Field>
            <PasswordRequirements password={password} />
            <Button type="submit" size="lg" className="mt-1 w-full" disabled={busy || validating}>
              {phase.kind === "busy" ? <Spinner size="sm" label={null} className="text-current" /> : null}
              {withInvite ? "Join Organization" : "Create Account"}
            </Button>
          </form>
        )}
      </AuthCard>
    </AuthFrame>
  );
}
