import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, Copy, Info, Plus, Scale, X } from "lucide-react";
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from "react";
import { FormProvider, useFieldArray, useForm, useWatch, type UseFormRegister } from "react-hook-form";
import { Link } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from "@/components/ui/card";
import { FormError, FormField } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Progress } from "@/components/ui/progress";
import { NativeSelect } from "@/components/ui/select";
import { PageSpinner, Spinner } from "@/components/ui/spinner";
import { logAudit } from "@/entities/audit";
import { createInvite, invalidateInvites, type IssuedInvite } from "@/entities/invites";
import { insertOrg, invalidateOrgs, type Org, orgQuery, updateOrg } from "@/entities/orgs";
import { joinOrganization, useInvalidateProfile, useProfile } from "@/entities/profile";
import { useAuth } from "@/lib/auth";
import { errorMessage } from "@/lib/errors";
import { applyServerError } from "@/lib/form-errors";
import { logEvent } from "@/lib/logger";
import { roleBadgeVariant, roleLabel } from "@/lib/roles";
import { useDocumentTitle } from "@/lib/use-document-title";
import { cn } from "@/lib/utils";
import {
  INDUSTRIES,
  inviteLink,
  invitesToSend,
  isIgnoredInviteRow,
  newInviteRow,
  onboardingProgress,
  ONBOARDING_STEPS,
  REVIEWER_AREAS,
  ROLE_CHOICES,
} from "./invites";
import { clearOnboarding, readOnboarding, saveOnboarding, type OnboardingProgress } from "./progress";

/** An organization as the wizard keeps it between its steps. */
type CreatedOrg = Org;

/** An invitation created in this wizard (its token is shown once). */
type CreatedInvite = IssuedInvite;

const NAME_REQUIRED_TITLE = "Organization name required";
const NAME_REQUIRED = "Please enter a name for your organization";

/** An invitation created in this wizard, and whether its audit entry was written. */
interface SentInvite {
  invite: CreatedInvite;
  logged: boolean;
}

type View = "organization" | "team" | "done";

type HeadingRef = RefObject<HTMLHeadingElement | null>;

/**
 * The first-run wizard of an admin without an organization (spec §2):
 * step 1 creates the organization and joins the admin to it, step 2 logs
 * invitations, then the admin gets each invitation's sign-up link (they
 * are not e-mailed) and the app opens.
 *
 * Skip Setup is offered only once the organization exists (after Back from
 * step 2): nothing in Fairbalance works without an organization, so the
 * first step cannot be skipped — only the invitations can.
 */
export function OnboardingWizard() {
  const { user } = useAuth();
  const userId = user?.id ?? "";
  const profile = useProfile();
  // Begun in this browser before a reload: step 1 is done (the organization
  // exists and the admin joined it), so the wizard goes on where it was.
  const [resumed] = useState<OnboardingProgress | null>(() => readOnboarding(userId, profile.data?.org_id));
  const resumedOrg = useQuery(orgQuery(resumed?.orgId));
  const invalidateProfile = useInvalidateProfile();
  const [view, setView] = useState<View>(resumed?.step ?? "organization");
  const [created, setOrg] = useState<CreatedOrg | null>(null);
  const org = created ?? resumedOrg.data ?? null;
  // Set once the profile joined the organization: a retry after a failed
  // join must not create a second organization.
  const [joined, setJoined] = useState(resumed !== null);
  const [sent, setSent] = useState<Record<string, SentInvite>>({});
  const [finishing, setFinishing] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);

  const step = view === "organization" ? 1 : 2;
  useDocumentTitle(view === "organization" ? "Create Your Organization" : view === "team" ? "Invite Your Team" : "Your workspace is ready");

  // Moving between steps moves focus to the new step's heading, so screen
  // readers announce it and keyboard users start at the top.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [view]);

  async function complete(completedSteps: string[]) {
    setFinishing(true);
    if (org) {
      try {
        const meta: Record<string, string[]> = { completed_steps: completedSteps };
        if (!completedSteps.includes("user_invites")) meta.skipped_steps = ["user_invites"];
        await logAudit(userId, org.id, { action: "onboarding_completed", object_type: "organization", object_id: org.id, meta });
      } catch (error) {
        // Spec §8: completion errors are logged and the wizard still finishes.
        logEvent("error", "Onboarding completion could not be recorded", { error, context: { orgId: org.id } });
      }
    }
    clearOnboarding(userId);
    await invalidateProfile();
    // Normally the shell has replaced the wizard by now; if the profile
    // could not be reloaded, let the admin try again.
    setFinishing(false);
  }

  return (
    <div className="flex min-h-dvh flex-col bg-background">
      <header className="flex h-14 shrink-0 items-center gap-2 border-b bg-card px-4 sm:px-6">
        <span className="inline-flex size-7 items-center justify-center rounded-md bg-primary text-primary-foreground">
          <Scale aria-hidden="true" className="size-4" />
        </span>
        <span className="font-semibold tracking-tight">Fairbalance</span>
        <div className="ml-auto flex min-w-0 items-center gap-3 text-sm">
          <span className="hidden truncate text-muted-foreground sm:inline">{user?.email}</span>
          <Link to="/logout" className="font-medium text-primary underline-offset-4 hover:underline">
            Sign out
          </Link>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex flex-1 justify-center px-4 py-8 outline-none sm:py-12">
        <div className="grid w-full max-w-2xl content-start gap-6">
          <StepProgress step={step} />
          {resumed && !org ? (
            resumedOrg.isError ? (
              <Alert variant="destructive">
                <Info />
                <AlertTitle>Your organization could not be loaded</AlertTitle>
                <AlertDescription>{errorMessage(resumedOrg.error, "Please reload the page.")}</AlertDescription>
              </Alert>
            ) : (
              <PageSpinner label="Loading your organization" />
            )
          ) : null}
          {view === "organization" && (org || !resumed) ? (
            <OrganizationStep
              headingRef={headingRef}
              org={org}
              joined={joined}
              userId={userId}
              finishing={finishing}
              onCreated={(next) => {
                setOrg(next);
              }}
              onJoined={() => {
                setJoined(true);
              }}
              onContinue={(orgId) => {
                // A reload from here on resumes at the Team step.
                saveOnboarding(userId, { orgId, step: "team" });
                setView("team");
              }}
              onSkip={() => void complete(["organization_setup"])}
            />
          ) : null}
          {view === "team" && org ? (
            <TeamStep
              headingRef={headingRef}
              org={org}
              userId={userId}
              sent={sent}
              onSent={setSent}
              finishing={finishing}
              onBack={() => {
                setView("organization");
              }}
              onSkip={() => void complete(["organization_setup"])}
              onInvited={() => {
                saveOnboarding(userId, { orgId: org.id, step: "done" });
                setView("done");
              }}
            />
          ) : null}
          {view === "done" && org ? (
            <DoneStep
              headingRef={headingRef}
              invites={Object.values(sent).map((s) => s.invite)}
              resumed={resumed?.step === "done"}
              finishing={finishing}
              onFinish={() => void complete(["organization_setup", "user_invites"])}
            />
          ) : null}
        </div>
      </main>
    </div>
  );
}

/** The step list (Organization, Team) and the progress bar: 50 % then 100 %. */
function StepProgress({ step }: { step: number }) {
  const progress = onboardingProgress(step);
  return (
    <div className="grid gap-3">
      <div className="flex items-center justify-between gap-4">
        <ol className="flex items-center gap-3 text-sm" aria-label="Setup steps">
          {ONBOARDING_STEPS.map((label, i) => {
            const n = i + 1;
            const done = n < step;
            const current = n === step;
            return (
              <li key={label} className="flex items-center gap-2" aria-current={current ? "step" : undefined}>
                {i > 0 ? <span aria-hidden="true" className="h-px w-6 bg-border sm:w-10" /> : null}
                <span
                  aria-hidden="true"
                  className={cn(
                    "inline-flex size-6 items-center justify-center rounded-full border text-xs font-semibold",
                    done && "border-primary bg-primary text-primary-foreground",
                    current && "border-primary text-primary",
                    !done && !current && "text-muted-foreground",
                  )}
                >
                  {done ? <Check className="size-3.5" /> : n}
                </span>
                <span className={cn("font-medium", !current && "text-muted-foreground")}>
                  {label}
                  <span className="sr-only">{done ? " (done)" : current ? " (current step)" : ""}</span>
                </span>
              </li>
            );
          })}
        </ol>
        <p className="text-sm whitespace-nowrap text-muted-foreground" data-testid="onboarding-progress">
          {progress}%<span className="hidden sm:inline"> complete</span>
        </p>
      </div>
      <Progress value={progress} aria-label="Setup progress" />
    </div>
  );
}

function StepHeading({ headingRef, children }: { headingRef: HeadingRef; children: ReactNode }) {
  return (
    <h1 ref={headingRef} tabIndex={-1} className="text-xl leading-7 font-semibold tracking-tight outline-none sm:text-2xl sm:leading-8">
      {children}
    </h1>
  );
}

interface OrganizationStepProps {
  headingRef: HeadingRef;
  org: CreatedOrg | null;
  joined: boolean;
  userId: string;
  finishing: boolean;
  onCreated: (org: CreatedOrg) => void;
  onJoined: () => void;
  /** Step 1 is done: `orgId` exists and the admin has joined it. */
  onContinue: (orgId: string) => void;
  onSkip: () => void;
}

/** Step 1's form: the name is required after trimming (the spec's words), the industry optional. */
const organizationSchema = z.object({
  name: z.string().trim().min(1, NAME_REQUIRED),
  industry: z.string(),
});
type OrganizationValues = z.input<typeof organizationSchema>;

/** Step 1, 'Create Your Organization': name (required) and industry (optional). */
function OrganizationStep({ headingRef, org, joined, userId, finishing, onCreated, onJoined, onContinue, onSkip }: OrganizationStepProps) {
  const queryClient = useQueryClient();
  const form = useForm<OrganizationValues>({
    resolver: zodResolver(organizationSchema),
    defaultValues: { name: org?.name ?? "", industry: org?.industry ?? "" },
  });
  const name = useWatch({ control: form.control, name: "name" });
  const busy = form.formState.isSubmitting;

  const submit = form.handleSubmit(
    async ({ name: trimmed, industry }) => {
      try {
        let current = org;
        if (!current) {
          current = await insertOrg(trimmed, industry);
          onCreated(current);
          if (!joined) {
            await joinOrganization(userId, current.id);
            onJoined();
          }
          try {
            await logAudit(userId, current.id, {
              action: "organization_created",
              object_type: "organization",
              object_id: current.id,
              meta: { organization_name: trimmed, industry: industry || null },
            });
          } catch (error) {
            // The server has already recorded the insert in the trail; the
            // descriptive entry is not worth failing the step for.
            logEvent("error", "organization_created could not be recorded", { error, context: { orgId: current.id } });
          }
          toast.success("Organization created");
        } else {
          if (!joined) {
            await joinOrganization(userId, current.id);
            onJoined();
          }
          if (current.name !== trimmed || current.industry !== industry) {
            await updateOrg(current.id, trimmed, industry);
            onCreated({ ...current, name: trimmed, industry });
            void invalidateOrgs(queryClient);
          }
        }
        onContinue(current.id);
      } catch (error) {
        const p = await applyServerError(form.setError, error, { fallback: "Please try again", fields: ["name", "industry"] });
        toast.error("Error creating organization", { description: p.message });
      }
    },
    (errors) => {
      if (errors.name) toast.error(NAME_REQUIRED_TITLE, { description: NAME_REQUIRED });
    },
  );

  // A name of spaces only is empty (the spec: required after trimming):
  // Continue stays disabled, and leaving the field says why.
  const blank = name.trim() === "";
  const nameField = form.register("name", {
    onChange: (event: { target: { value: string } }) => {
      if (event.target.value.trim() !== "" && form.getFieldState("name").error) form.clearErrors("name");
    },
    onBlur: (event: { target: { value: string } }) => {
      const value = event.target.value;
      if (value !== "" && value.trim() === "") {
        form.setError("name", { type: "required", message: NAME_REQUIRED });
        toast.error(NAME_REQUIRED_TITLE, { description: NAME_REQUIRED, id: "organization-name-required" });
      }
    },
  });
  const nameError = form.formState.errors.name?.message;

  return (
    <Card>
      <FormProvider {...form}>
        <form onSubmit={(e) => void submit(e)} noValidate>
          <CardHeader>
            <StepHeading headingRef={headingRef}>Create Your Organization</StepHeading>
            <CardDescription>
              Your organization is the workspace your team shares: its content, reviews and audit trail stay inside it.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5">
            <FormField name="name" label="Organization name" hint={nameError ? undefined : "As your reviewers know it, e.g. Acme Therapeutics."}>
              <Input {...nameField} autoComplete="organization" maxLength={200} required autoFocus />
            </FormField>
            <FormField name="industry" label="Industry (optional)">
              <NativeSelect {...form.register("industry")}>
                <option value="">Select an industry</option>
                {INDUSTRIES.map((i) => (
                  <option key={i} value={i}>
                    {i}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
            <FormError />
          </CardContent>
          <CardFooter className="flex-col-reverse items-stretch gap-2 sm:flex-row sm:items-center sm:justify-end">
            {org && joined ? (
              <Button variant="ghost" onClick={onSkip} disabled={busy || finishing}>
                {finishing ? <Spinner size="sm" label={null} /> : null}
                Skip Setup
              </Button>
            ) : null}
            <Button type="submit" disabled={blank || busy || finishing}>
              {busy ? <Spinner size="sm" label={null} /> : null}
              {busy ? "Creating…" : "Continue"}
            </Button>
          </CardFooter>
        </form>
      </FormProvider>
    </Card>
  );
}

interface TeamStepProps {
  headingRef: HeadingRef;
  org: CreatedOrg;
  userId: string;
  sent: Record<string, SentInvite>;
  onSent: (next: Record<string, SentInvite>) => void;
  finishing: boolean;
  onBack: () => void;
  onSkip: () => void;
  onInvited: () => void;
}

/** Step 2's form: rows of e-mail and role. A row without an e-mail address is skipped, not refused. */
const teamSchema = z.object({
  rows: z.array(
    z.object({
      email: z.string(),
      role: z.enum(["marketer", "reviewer", "admin"]),
      reviewerArea: z.enum(["reviewer_medical", "reviewer_legal", "reviewer_regulatory"]),
    }),
  ),
});
type TeamValues = z.input<typeof teamSchema>;

function blankRow(): TeamValues["rows"][number] {
  const { email, role, reviewerArea } = newInviteRow();
  return { email, role, reviewerArea };
}

/** Step 2, 'Invite Your Team': rows of e-mail and role. */
function TeamStep({ headingRef, org, userId, sent, onSent, finishing, onBack, onSkip, onInvited }: TeamStepProps) {
  const queryClient = useQueryClient();
  const form = useForm<TeamValues>({ resolver: zodResolver(teamSchema), defaultValues: { rows: [blankRow()] } });
  const { fields, append, remove } = useFieldArray({ control: form.control, name: "rows" });
  const rows = useWatch({ control: form.control, name: "rows" });
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const busy = form.formState.isSubmitting;
  const rowsRef = useRef<HTMLDivElement>(null);
  const focusRow = useRef<number | null>(null);

  useEffect(() => {
    if (focusRow.current === null) return;
    const inputs = rowsRef.current?.querySelectorAll<HTMLInputElement>("input[type=email]");
    inputs?.[Math.min(focusRow.current, inputs.length - 1)]?.focus();
    focusRow.current = null;
  }, [fields.length]);

  const submit = form.handleSubmit(async (values) => {
    const pending = invitesToSend(values.rows.map((r, i) => ({ ...r, id: fields[i]?.id ?? String(i) })));
    if (pending.length === 0) {
      // Spec §4: submitting with no valid e-mails counts as skipping.
      onSkip();
      return;
    }
    // Invitations already created by an earlier, partly failed attempt are
    // kept (their tokens were shown once); only what is missing is redone.
    const next = { ...sent };
    try {
      for (const p of pending) {
        const key = p.email.toLowerCase();
        let entry = next[key];
        if (entry?.invite.role !== p.role) {
          const issued = await createInvite(p.email, p.role);
          entry = { invite: { ...issued, email: issued.email || p.email, role: issued.role || p.role }, logged: false };
          next[key] = entry;
        }
        if (!entry.logged) {
          await logAudit(userId, org.id, {
            action: "user_invited",
            object_type: "user_invite",
            object_id: entry.invite.id,
            meta: { invited_email: entry.invite.email, invited_role: entry.invite.role, invitation_method: "onboarding_wizard" },
          });
          next[key] = { ...entry, logged: true };
        }
      }
      void invalidateInvites(queryClient);
      // Only the invitations of the rows as they are now are shown.
      const current = new Set(pending.map((p) => p.email.toLowerCase()));
      onSent(Object.fromEntries(Object.entries(next).filter(([k]) => current.has(k))));
      toast.success("Invitations logged");
      onInvited();
    } catch (error) {
      onSent(next);
      toast.error("Error processing invites", { description: errorMessage(error, "Please try again") });
    }
  });

  const disabled = busy || finishing;
  const anyReviewer = rows.some((r) => r.role === "reviewer");

  return (
    <Card>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <CardHeader>
          <StepHeading headingRef={headingRef}>Invite Your Team</StepHeading>
          <CardDescription>
            Add the marketers, reviewers and admins who will work in <span className="font-medium text-foreground">{org.name}</span>.
            Reviewers sign off as medical, legal or regulatory.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div ref={rowsRef} className="grid gap-3">
            {/* Column headings on wider screens; each field keeps its own label for assistive technology. */}
            <div aria-hidden="true" className="-mb-1.5 hidden gap-2 text-sm leading-5 font-medium sm:flex">
              <span className="flex-1">Email</span>
              <span className="w-36">Role</span>
              {anyReviewer ? <span className="w-36">Review area</span> : null}
              {fields.length > 1 ? <span className="w-10" /> : null}
            </div>
            {fields.map((field, i) => {
              const row = rows[i] ?? field;
              return (
                <InviteRowFields
                  key={field.id}
                  index={i}
                  register={form.register}
                  reviewer={row.role === "reviewer"}
                  removable={fields.length > 1}
                  areaColumn={anyReviewer}
                  disabled={disabled}
                  showIgnored={touched[field.id] === true && isIgnoredInviteRow(row)}
                  onBlurEmail={() => {
                    // Shown a moment after the field is left: a warning that
                    // appeared at once would push the buttons down between
                    // the press and the release of a click on Complete Setup,
                    // and the click would miss.
                    window.setTimeout(() => {
                      setTouched((t) => ({ ...t, [field.id]: true }));
                    }, 300);
                  }}
                  onRemove={() => {
                    focusRow.current = Math.max(i - 1, 0);
                    remove(i);
                  }}
                />
              );
            })}
          </div>
          <div>
            <Button
              variant="outline"
              size="sm"
              disabled={disabled}
              onClick={() => {
                focusRow.current = fields.length;
                append(blankRow(), { shouldFocus: false });
              }}
            >
              <Plus aria-hidden="true" />
              Add Another Invite
            </Button>
          </div>
          <p className="flex gap-2 rounded-lg bg-muted px-3 py-2.5 text-sm leading-6 text-muted-foreground">
            <Info aria-hidden="true" className="mt-1 size-4 shrink-0" />
            <span>
              You can invite more people later from Settings. Invitations are recorded, not e-mailed: you get a sign-up
              link for each person on the next screen.
            </span>
          </p>
        </CardContent>
        <CardFooter className="flex-col-reverse items-stretch gap-2 sm:flex-row sm:items-center sm:justify-between">
          <Button variant="outline" onClick={onBack} disabled={disabled}>
            Back
          </Button>
          <Button type="submit" disabled={disabled}>
            {busy || finishing ? <Spinner size="sm" label={null} /> : null}
            {busy ? "Sending invitations…" : "Complete Setup"}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

interface InviteRowFieldsProps {
  index: number;
  register: UseFormRegister<TeamValues>;
  /** The row's role is reviewer: its review area is asked. */
  reviewer: boolean;
  removable: boolean;
  /** Some row is a reviewer: keep the review-area column so the rows line up. */
  areaColumn: boolean;
  disabled: boolean;
  showIgnored: boolean;
  onBlurEmail: () => void;
  onRemove: () => void;
}

/**
 * One invite row. On phones, where the fields stack, each has its visible
 * label; on wider screens the column headings stand in for them and the
 * labels remain for screen readers.
 */
function InviteRowFields({ index, register, reviewer, removable, areaColumn, disabled, showIgnored, onBlurEmail, onRemove }: InviteRowFieldsProps) {
  const id = useId();
  const n = index + 1;
  const labelClass = "sm:sr-only";
  const noteId = `${id}-note`;
  const email = register(`rows.${index}.email`, { onBlur: onBlurEmail });
  return (
    <div className="grid gap-2 rounded-lg border p-3 sm:border-0 sm:p-0" data-testid="invite-row">
      <div className="flex flex-wrap items-end gap-2 sm:flex-nowrap">
        <div className="grid min-w-0 basis-full gap-1.5 sm:flex-1 sm:basis-auto">
          <Label htmlFor={`${id}-email`} className={labelClass}>
            Email<span className="sr-only"> for invite {n}</span>
          </Label>
          <Input
            id={`${id}-email`}
            type="email"
            inputMode="email"
            autoComplete="off"
            placeholder="colleague@company.com"
            disabled={disabled}
            aria-describedby={showIgnored ? noteId : undefined}
            {...email}
          />
        </div>
        <div className="grid min-w-0 flex-1 gap-1.5 sm:w-36 sm:flex-none">
          <Label htmlFor={`${id}-role`} className={labelClass}>
            Role<span className="sr-only"> for invite {n}</span>
          </Label>
          <NativeSelect id={`${id}-role`} disabled={disabled} {...register(`rows.${index}.role`)}>
            {ROLE_CHOICES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </NativeSelect>
        </div>
        {reviewer ? (
          <div className="grid min-w-0 flex-1 gap-1.5 sm:w-36 sm:flex-none">
            <Label htmlFor={`${id}-area`} className={labelClass}>
              Review area<span className="sr-only"> for invite {n}</span>
            </Label>
            <NativeSelect id={`${id}-area`} disabled={disabled} {...register(`rows.${index}.reviewerArea`)}>
              {REVIEWER_AREAS.map((a) => (
                <option key={a.value} value={a.value}>
                  {a.label}
                </option>
              ))}
            </NativeSelect>
          </div>
        ) : areaColumn ? (
          <div aria-hidden="true" className="hidden sm:block sm:w-36" />
        ) : null}
        {removable ? (
          <Button variant="ghost" size="icon" className="size-10" disabled={disabled} onClick={onRemove} aria-label={`Remove invite ${String(n)}`}>
            <X aria-hidden="true" />
          </Button>
        ) : null}
      </div>
      {showIgnored ? (
        <p id={noteId} className="text-sm text-amber-800 dark:text-amber-200">
          This is not an e-mail address, so this row will be skipped.
        </p>
      ) : null}
    </div>
  );
}

/** After the invitations: each one's sign-up link to pass on, then into the app. */
function DoneStep({
  headingRef,
  invites,
  resumed,
  finishing,
  onFinish,
}: {
  headingRef: HeadingRef;
  invites: CreatedInvite[];
  /** Shown again after a reload: the links, shown once, are gone. */
  resumed: boolean;
  finishing: boolean;
  onFinish: () => void;
}) {
  const origin = window.location.origin;
  const footer = (
    <CardFooter className="justify-end">
      <Button onClick={onFinish} disabled={finishing} className="w-full sm:w-auto">
        {finishing ? <Spinner size="sm" label={null} /> : null}
        Go to Command Center
      </Button>
    </CardFooter>
  );
  if (resumed && invites.length === 0) {
    return (
      <Card>
        <CardHeader>
          <StepHeading headingRef={headingRef}>Your workspace is ready</StepHeading>
          <CardDescription>
            Your invitations were recorded. Each sign-up link was shown once, before the page was reloaded: send a
            fresh link to each person from the Users page.
          </CardDescription>
        </CardHeader>
        {footer}
      </Card>
    );
  }
  return (
    <Card>
      <CardHeader>
        <StepHeading headingRef={headingRef}>Your workspace is ready</StepHeading>
        <CardDescription>
          {invites.length === 1 ? "1 invitation was" : `${String(invites.length)} invitations were`} recorded. Send each
          person their sign-up link — it lets them join with the role shown.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Alert variant="info">
          <Info />
          <AlertTitle>Fairbalance has not e-mailed these invitations</AlertTitle>
          <AlertDescription>
            Copy each link into a message to the person it is for. Each link is shown only now and works once, for that
            e-mail address. You can send a fresh link later from the Users page.
          </AlertDescription>
        </Alert>
        <ul className="grid gap-3" aria-label="Invitation links">
          {invites.map((inv) => (
            <InviteLinkItem key={inv.id} invite={inv} link={inviteLink(origin, inv.token)} />
          ))}
        </ul>
      </CardContent>
      {footer}
    </Card>
  );
}

function InviteLinkItem({ invite, link }: { invite: CreatedInvite; link: string }) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      toast.success("Link copied", { description: invite.email });
      window.setTimeout(() => {
        setCopied(false);
      }, 2000);
    } catch {
      // Clipboard access can be refused (permissions, insecure origin):
      // select the text so the admin can copy it themselves.
      inputRef.current?.select();
      toast.error("Could not copy the link", { description: "The link is selected: copy it with Ctrl+C or ⌘C." });
    }
  }

  return (
    <li className="grid gap-2 rounded-lg border p-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 truncate font-medium">{invite.email}</span>
        <Badge variant={roleBadgeVariant(invite.role)}>{roleLabel(invite.role)}</Badge>
      </div>
      <div className="flex gap-2">
        <label htmlFor={`${id}-link`} className="sr-only">
          Sign-up link for {invite.email}
        </label>
        <Input
          ref={inputRef}
          id={`${id}-link`}
          readOnly
          value={link}
          className="font-mono text-xs"
          onFocus={(e) => {
            e.currentTarget.select();
          }}
        />
        <Button variant="outline" className="h-10" onClick={() => void copy()} aria-label={`Copy sign-up link for ${invite.email}`}>
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          <span className="hidden sm:inline">{copied ? "Copied" : "Copy"}</span>
        </Button>
      </div>
    </li>
  );
}
