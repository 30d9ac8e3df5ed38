import { useQuery } from "@tanstack/react-query";
import { CircleAlert, MailCheck, UserPlus } from "lucide-react";
import { useEffect, useRef, useState, type SubmitEvent } from "react";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { AuthCard, AuthFrame } from "@/components/ui/auth-frame";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { PageSpinner, Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/lib/auth";
import { errorMessage } from "@/lib/errors";
import { roleBadgeVariant, roleLabel } from "@/lib/roles";
import { getSupabase } from "@/lib/supabase";
import { useDocumentTitle } from "@/lib/use-document-title";
import { PasswordRequirements } from "./password-requirements";
import {
  acceptInviteNotice,
  hasErrors,
  inviteProblem,
  parseInvite,
  validateSignup,
  type InviteInfo,
  type Notice,
  type SignupErrors,
  type SignupValues,
} from "./validation";

const UNEXPECTED = "An unexpected error occurred. Please try again.";
const FAILED = "Sign up failed. Please try again.";

/** Looks an invitation up by its token (rpc get_invite: e-mail and role only). */
async function lookUpInvite(token: string): Promise<InviteInfo> {
  const sb = await getSupabase();
  const { data, error } = await sb.rpc("get_invite", { token });
  if (error) throw new Error(inviteProblem(error));
  const invite = parseInvite(data);
  if (!invite) throw new Error(inviteProblem(null));
  return invite;
}

/**
 * Joins the invitation's organisation (rpc accept_invite) and says how it
 * went. A sign-up (signedUpId, the new account) through a valid
 * invitation for that address has joined already (the server accepts it
 * with the sign-up), so its profile is looked at first.
 */
async function acceptInvite(token: string, signedUpId?: string): Promise<Notice> {
  try {
    const sb = await getSupabase();
    if (signedUpId) {
      const joined = await sb.from("profiles_v2").select("org_id").eq("id", signedUpId).maybeSingle();
      if (isJoined(joined.data)) return acceptInviteNotice({ success: true }, null);
    }
    const { data, error } = await sb.rpc("accept_invite", { token });
    return acceptInviteNotice(data, error);
  } catch (e) {
    return { kind: "error", title: "Failed to accept invite", description: errorMessage(e, "Please contact an administrator.") };
  }
}

function isJoined(row: unknown): boolean {
  return typeof row === "object" && row !== null && "org_id" in row && typeof row.org_id === "string" && row.org_id !== "";
}

function showNotice(notice: Notice) {
  if (notice.kind === "success") toast.success(notice.title, { description: notice.description });
  else toast.error(notice.title, { description: notice.description });
}

/**
 * After a sign-up without an invitation that signed the user in at once:
 * the first administrator bootstrap (spec: "update profiles_v2 with role
 * admin and full_name for the first admin"). The server allows a user to
 * make themselves admin only while the instance has no admin at all, so the
 * attempt is refused everywhere else and only the name is kept.
 */
async function claimFirstAdmin(userId: string, fullName: string): Promise<void> {
  const sb = await getSupabase();
  const { error } = await sb.from("profiles_v2").update({ role: "admin", full_name: fullName }).eq("id", userId);
  if (error) await sb.from("profiles_v2").update({ full_name: fullName }).eq("id", userId);
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
  const [params] = useSearchParams();
  const token = params.get("invite") ?? "";

  const invite = useQuery({
    queryKey: ["invite", token],
    queryFn: () => lookUpInvite(token),
    enabled: token !== "",
    retry: false,
    staleTime: 0,
  });

  const [values, setValues] = useState<SignupValues>({ firstName: "", lastName: "", email: "", password: "" });
  const [errors, setErrors] = useState<SignupErrors>({});
  const [phase, setPhase] = useState<Phase>({ kind: "form" });

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
  const email = invite.data?.email ?? values.email;

  const set = (key: keyof SignupValues) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [key]: e.target.value }));
  };

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const current = { ...values, email };
    const found = validateSignup(current);
    setErrors(found);
    if (hasErrors(found)) return;
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
        setErrors({ form: message });
        setPhase({ kind: "form" });
        return;
      }
      if (!data.user) {
        setErrors({ form: FAILED });
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
        await claimFirstAdmin(data.user.id, fullName).catch(() => undefined);
        toast.success("Account created!", { description: "Welcome to Fairbalance." });
      }
      void navigate("/", { replace: true });
    } catch {
      setErrors({ form: UNEXPECTED });
      setPhase({ kind: "form" });
    }
  }

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
            {errors.form ? (
              <Alert variant="destructive">
                <CircleAlert aria-hidden="true" />
                <AlertDescription>{errors.form}</AlertDescription>
              </Alert>
            ) : null}
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="First name" error={errors.firstName}>
                <Input autoComplete="given-name" value={values.firstName} onChange={set("firstName")} disabled={busy} />
              </Field>
              <Field label="Last name" error={errors.lastName}>
                <Input autoComplete="family-name" value={values.lastName} onChange={set("lastName")} disabled={busy} />
              </Field>
            </div>
            <Field label="Email" hint={invite.data ? "The address your invitation was sent to." : undefined}>
              <Input
                type="email"
                autoComplete="email"
                inputMode="email"
                placeholder="you@company.com"
                value={email}
                onChange={set("email")}
                readOnly={Boolean(invite.data)}
                disabled={busy || validating}
              />
            </Field>
            <Field label="Password" error={errors.password}>
              <PasswordInput autoComplete="new-password" value={values.password} onChange={set("password")} disabled={busy} />
            </Field>
            <PasswordRequirements password={values.password} />
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
