import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Building2, History, KeyRound, Lock, SearchX, ShieldCheck, UserPlus } from "lucide-react";
import { Children, useId, useMemo, type ReactNode } from "react";
import { FormProvider, useController, useForm, useWatch, type Control } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { FormError, FormField } from "@/components/ui/form";
import { PasswordInput } from "@/components/ui/password-input";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { getConfig, resetConfig } from "@/lib/config";
import { applyServerError } from "@/lib/form-errors";
import { formatDateTime } from "@/lib/format-time";
import { describeFunctionError, toastServerError, type ServerProblem } from "@/lib/server-error";
import { getSupabase } from "@/lib/supabase";
import { cn } from "@/lib/utils";
import { parseWorkspaceSettings, WORKSPACE_SETTINGS_KEY, type WorkspaceSettings, type WorkspaceSettingsPatch } from "./queries";

/** The server's passcode length rule and its words (service/settings.go). */
const MIN_PASSCODE = 6;
const MAX_PASSCODE = 128;
const PASSCODE_LENGTH = "The passcode must have between 6 and 128 characters";
const PASSCODE_NEEDED = "Enter a passcode to turn the gate on";
const ACCESS_MODE = "site_access_mode must be PUBLIC or PRIVATE";
/** Why an organisation's admin sees the settings without controls to change them. */
const OPERATOR_MANAGED = "Instance settings are managed by the instance operator";

class FunctionFailure extends Error {
  readonly problem: ServerProblem;
  constructor(problem: ServerProblem) {
    super(problem.message);
    this.problem = problem;
  }
}

/**
 * A refused security-manager call; `cause` is the error as supabase-js
 * reported it (a FunctionsHttpError holding the server's JSON body,
 * `fields` included), so the form can put each field's message beside its
 * field.
 */
class Refused extends Error {
  constructor(cause: unknown) {
    super("The security manager refused the call", { cause });
  }
}

/** Calls the security manager; a refusal rejects with {@link Refused}. */
async function securityManager(body: Record<string, unknown>): Promise<WorkspaceSettings> {
  const sb = await getSupabase();
  const result = await sb.functions.invoke<unknown>("security-manager", { body });
  const error: unknown = result.error;
  if (error) throw new Refused(error);
  return parseWorkspaceSettings(result.data);
}

/** Passes the gate for this browser (the passcode was just typed), so the admin is not locked out. */
async function passGate(passcode: string): Promise<void> {
  await fetch("/api/gate", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    credentials: "same-origin",
    body: JSON.stringify({ passcode }),
  }).catch(() => undefined);
  resetConfig();
}

/**
 * The form, named as UPDATE_SETTINGS names the settings (so the server's
 * per-field messages land on their fields). `gate_was_on` is the gate as
 * the server has it: turning the gate on needs the passcode typed, so the
 * person doing it knows what everyone (them included) will be asked for.
 * The passcode counts in characters (code points), as the server does; it
 * is only looked at while the gate is on (the field is shown only then).
 */
const schema = z
  .object({
    gate_was_on: z.boolean(),
    preview_passcode_enabled: z.boolean(),
    preview_passcode: z.string(),
    site_access_mode: z.enum(["PUBLIC", "PRIVATE"], { error: ACCESS_MODE }),
    disable_signup: z.boolean(),
    block_indexing: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (!v.preview_passcode_enabled) return;
    const length = Array.from(v.preview_passcode).length;
    if (length > 0 && (length < MIN_PASSCODE || length > MAX_PASSCODE))
      ctx.addIssue({ code: "custom", path: ["preview_passcode"], message: PASSCODE_LENGTH });
    else if (length === 0 && !v.gate_was_on) ctx.addIssue({ code: "custom", path: ["preview_passcode"], message: PASSCODE_NEEDED });
  });
type Values = z.input<typeof schema>;

/** The fields a server message may be shown beside. */
const FIELDS = ["preview_passcode_enabled", "preview_passcode", "site_access_mode", "disable_signup", "block_indexing"] as const;

const toValues = (s: WorkspaceSettings): Values => ({
  gate_was_on: s.preview_passcode_enabled,
  preview_passcode_enabled: s.preview_passcode_enabled,
  preview_passcode: "",
  site_access_mode: s.site_access_mode,
  disable_signup: s.disable_signup,
  block_indexing: s.block_indexing,
});

/** The change UPDATE_SETTINGS needs to go from `s` to `v` (only what differs). */
function patchOf(s: WorkspaceSettings, v: Values): WorkspaceSettingsPatch {
  const p: WorkspaceSettingsPatch = {};
  if (v.preview_passcode_enabled && v.preview_passcode !== "") p.preview_passcode = v.preview_passcode;
  if (v.preview_passcode_enabled !== s.preview_passcode_enabled) p.preview_passcode_enabled = v.preview_passcode_enabled;
  if (v.site_access_mode !== s.site_access_mode) p.site_access_mode = v.site_access_mode;
  if (v.disable_signup !== s.disable_signup) p.disable_signup = v.disable_signup;
  if (v.block_indexing !== s.block_indexing) p.block_indexing = v.block_indexing;
  return p;
}

/**
 * A switch bound to a boolean setting of the form, described by the
 * server's message for it (`${id}-error`) when there is one.
 */
function SettingSwitch({
  control,
  name,
  id,
  disabled,
  testId,
}: {
  control: Control<Values>;
  name: "preview_passcode_enabled" | "disable_signup" | "block_indexing";
  id: string;
  disabled: boolean;
  testId: string;
}) {
  const {
    field: { ref, value, onChange, onBlur },
    fieldState: { error },
  } = useController({ control, name });
  const invalid = error !== undefined;
  return (
    <Switch
      id={id}
      ref={ref}
      name={name}
      disabled={disabled}
      checked={value}
      onCheckedChange={onChange}
      onBlur={onBlur}
      aria-invalid={invalid || undefined}
      aria-describedby={invalid ? `${id}-error` : undefined}
      data-testid={testId}
    />
  );
}

function SettingRow({
  icon: Icon,
  title,
  description,
  control,
  children,
}: {
  icon: typeof Lock;
  title: ReactNode;
  description: ReactNode;
  control?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="grid gap-4 py-5 first:pt-0 last:pb-0">
      <div className="flex items-start gap-4">
        <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
        <div className="grid min-w-0 flex-1 gap-1">
          {title}
          <div className="text-sm leading-6 text-muted-foreground">{description}</div>
        </div>
        {control}
      </div>
      {/* Only what is there: a message or the passcode field, not an empty gap. */}
      {Children.toArray(children).length > 0 ? <div className="sm:pl-9">{children}</div> : null}
    </div>
  );
}

/**
 * The server's message for a setting that has no text field of its own (a
 * switch, the access choice), shown under its row. The schema has nothing
 * to say about them; only a refusal of the server does.
 */
function settingMessage(message: string | undefined, id: string): ReactNode {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="text-sm leading-5 font-medium text-destructive">
      {message}
    </p>
  );
}

function AccessOption({
  field,
  value,
  title,
  disabled,
  children,
}: {
  field: ReturnType<typeof useController<Values, "site_access_mode">>["field"];
  value: "PUBLIC" | "PRIVATE";
  title: string;
  disabled: boolean;
  children: ReactNode;
}) {
  const id = useId();
  const checked = field.value === value;
  return (
    <label
      htmlFor={id}
      className={cn(
        "flex items-start gap-3 rounded-lg border p-3 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
        disabled ? "cursor-not-allowed" : "cursor-pointer",
        checked ? "border-primary bg-primary/5" : !disabled && "hover:bg-accent/50",
        disabled && !checked && "opacity-60",
      )}
    >
      <input
        id={id}
        // The chosen option takes the focus when the server refuses the choice.
        ref={checked ? field.ref : undefined}
        type="radio"
        name={field.name}
        value={value}
        checked={checked}
        disabled={disabled}
        onChange={() => {
          field.onChange(value);
        }}
        onBlur={field.onBlur}
        className="mt-1 size-4 accent-[var(--primary)]"
        aria-labelledby={`${id}-t`}
        aria-describedby={`${id}-d`}
      />
      <span className="grid gap-0.5">
        <span id={`${id}-t`} className="text-sm font-medium">
          {title}
        </span>
        <span id={`${id}-d`} className="text-sm leading-6 text-muted-foreground">
          {children}
        </span>
      </span>
    </label>
  );
}

/**
 * The security manager's workspace settings, shown to owners and admins:
 * the passcode gate (with its passcode), site access (private or open to
 * the public demo preview), sign-up by invitation only, and search-engine
 * indexing. They apply to the whole instance, so only the instance
 * operator changes them; the server says whether this session may
 * (`editable`), and an organisation's admin who is not the operator sees
 * them read-only. The server refuses anyone else either way.
 */
export function WorkspaceSettingsCard() {
  const settings = useQuery({
    queryKey: WORKSPACE_SETTINGS_KEY,
    queryFn: async () => {
      try {
        return await securityManager({ action: "GET_SETTINGS" });
      } catch (error) {
        const cause = error instanceof Refused ? error.cause : error;
        throw new FunctionFailure(await describeFunctionError(cause, "The workspace settings could not be loaded."));
      }
    },
  });

  if (settings.isError) {
    const problem =
      settings.error instanceof FunctionFailure ? settings.error.problem : { message: settings.error.message, demo: false };
    return (
      <Card>
        <CardHeader>
          <CardTitle>Workspace security</CardTitle>
        </CardHeader>
        <CardContent>
          <Alert variant="destructive">
            <Lock aria-hidden="true" />
            <AlertTitle>The workspace settings could not be loaded</AlertTitle>
            <AlertDescription>{problem.message}</AlertDescription>
          </Alert>
        </CardContent>
      </Card>
    );
  }
  return <SettingsForm settings={settings.data} />;
}

const HEADER = (
  <CardHeader className="flex-row items-start gap-4">
    <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10">
      <Building2 aria-hidden="true" className="size-5 text-primary" />
    </span>
    <div className="grid gap-1">
      <CardTitle>Workspace security</CardTitle>
      <CardDescription>
        Who can reach this Fairbalance instance and how people join it. These settings apply to the whole instance, every
        organisation on it included, and only the instance operator can change them; every change is recorded in the audit
        trail.
      </CardDescription>
    </div>
  </CardHeader>
);

/**
 * The settings as a form (a skeleton while they load). It starts again
 * from the server's settings whenever they change (loaded, saved).
 */
function SettingsForm({ settings: s }: { settings: WorkspaceSettings | undefined }) {
  const queryClient = useQueryClient();
  const gateId = useId();
  const signupId = useId();
  const indexId = useId();
  const preview = useQuery({ queryKey: ["config", "preview"], queryFn: async () => (await getConfig()).preview });
  const values = useMemo(() => (s ? toValues(s) : undefined), [s]);
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    // The passcode's length is told as it is typed.
    mode: "onChange",
    values,
    defaultValues: values ?? {
      gate_was_on: false,
      preview_passcode_enabled: false,
      preview_passcode: "",
      site_access_mode: "PUBLIC",
      disable_signup: false,
      block_indexing: false,
    },
  });
  const { control } = form;
  const { isSubmitting: saving, errors } = form.formState;
  const current = useWatch({ control }) as Values;
  const { field: access } = useController({ control, name: "site_access_mode" });
  const patch = s ? patchOf(s, { ...form.getValues(), ...current }) : {};
  const dirty = Object.keys(patch).length > 0;
  const readOnly = s ? !s.editable : false;

  const submit = form.handleSubmit(async (v) => {
    if (!s || readOnly) return;
    const change = patchOf(s, v);
    if (Object.keys(change).length === 0) return;
    try {
      const next = await securityManager({ action: "UPDATE_SETTINGS", settings: change });
      if (next.preview_passcode_enabled && change.preview_passcode) await passGate(change.preview_passcode);
      queryClient.setQueryData(WORKSPACE_SETTINGS_KEY, next);
      // Start again from what the server now has (a new passcode leaves
      // the form's values as they were, so `values` alone would keep it).
      form.reset(toValues(next));
      toast.success("Workspace settings saved");
    } catch (error) {
      const cause = error instanceof Refused ? error.cause : error;
      const p = await applyServerError(form.setError, cause, { fallback: "The workspace settings could not be saved.", fields: FIELDS });
      toastServerError("Workspace settings not saved", p);
    }
  });

  return (
    <Card data-testid="workspace-settings">
      <FormProvider {...form}>
        <form noValidate onSubmit={(event) => void submit(event)}>
          {HEADER}
          <CardContent className="divide-y">
            {!s ? (
              <div className="grid gap-4 border-0" aria-hidden="true">
                {Array.from({ length: 4 }, (_, i) => (
                  <Skeleton key={i} className="h-16 w-full" />
                ))}
              </div>
            ) : (
              <>
                {readOnly ? (
                  <div className="pb-5">
                    <Alert variant="info" role="note" data-testid="workspace-settings-read-only">
                      <ShieldCheck aria-hidden="true" />
                      <AlertTitle>{OPERATOR_MANAGED}</AlertTitle>
                      <AlertDescription>
                        You see them as they are now. The operator — whoever runs this Fairbalance server — changes them for
                        every organisation here; ask them if something should change.
                      </AlertDescription>
                    </Alert>
                  </div>
                ) : null}
                <SettingRow
                  icon={KeyRound}
                  title={
                    <label htmlFor={gateId} className="text-sm font-medium">
                      Passcode gate
                    </label>
                  }
                  description={
                    <>
                      Everyone must enter a shared passcode on the Private Preview Access screen before they can sign in or
                      use the app in their browser. A browser that passed stays in for 12 hours; choosing a new passcode
                      sends every browser back to the gate.{" "}
                      {s.preview_passcode_set ? "A passcode is set." : "No passcode is set yet."}
                    </>
                  }
                  control={
                    <SettingSwitch control={control} name="preview_passcode_enabled" id={gateId} disabled={readOnly} testId="setting-gate" />
                  }
                >
                  {settingMessage(errors.preview_passcode_enabled?.message, `${gateId}-error`)}
                  {current.preview_passcode_enabled && !readOnly ? (
                    <FormField
                      name="preview_passcode"
                      label={s.preview_passcode_enabled ? "New passcode (optional)" : "Passcode"}
                      hint={
                        s.preview_passcode_enabled
                          ? "Leave empty to keep the current passcode. 6 to 128 characters."
                          : "6 to 128 characters. Share it only with the people who should reach the workspace."
                      }
                      className="max-w-sm"
                    >
                      <PasswordInput autoComplete="new-password" {...form.register("preview_passcode")} />
                    </FormField>
                  ) : null}
                </SettingRow>
                <SettingRow
                  icon={Lock}
                  title={
                    <span className="text-sm font-medium" id={`${gateId}-access`}>
                      Site access
                    </span>
                  }
                  description="Whether people who are not signed in can look around."
                >
                  <div
                    role="radiogroup"
                    aria-labelledby={`${gateId}-access`}
                    aria-describedby={errors.site_access_mode ? `${gateId}-access-error` : undefined}
                    className="grid gap-2 md:grid-cols-2">
                    <AccessOption field={access} value="PRIVATE" disabled={readOnly} title="Private">
                      Only signed-in members see anything. The public, read-only preview of the demo workspace is closed.
                    </AccessOption>
                    <AccessOption field={access} value="PUBLIC" disabled={readOnly} title="Open preview">
                      Visitors may open the read-only demo workspace without an account, while the server&apos;s operator
                      enables preview{preview.data === undefined ? "" : preview.data ? " (it is enabled now)" : " (it is off now)"}.
                      Your organisation&apos;s data stays private either way.
                    </AccessOption>
                  </div>
                  {settingMessage(errors.site_access_mode?.message, `${gateId}-access-error`)}
                </SettingRow>
                <SettingRow
                  icon={UserPlus}
                  title={
                    <label htmlFor={signupId} className="text-sm font-medium">
                      Invitation-only sign-up
                    </label>
                  }
                  description="Nobody can create an account without an invitation from an administrator. When off, anyone who reaches the sign-up screen can create an account."
                  control={
                    <SettingSwitch control={control} name="disable_signup" id={signupId} disabled={readOnly} testId="setting-disable-signup" />
                  }
                >
                  {settingMessage(errors.disable_signup?.message, `${signupId}-error`)}
                </SettingRow>
                <SettingRow
                  icon={SearchX}
                  title={
                    <label htmlFor={indexId} className="text-sm font-medium">
                      Hide from search engines
                    </label>
                  }
                  description={
                    <>
                      Asks search engines not to index any page of this instance (robots.txt disallows everything and every
                      answer carries <code className="rounded bg-muted px-1 py-0.5 text-xs">X-Robots-Tag: noindex</code>).
                    </>
                  }
                  control={
                    <SettingSwitch control={control} name="block_indexing" id={indexId} disabled={readOnly} testId="setting-block-indexing" />
                  }
                >
                  {settingMessage(errors.block_indexing?.message, `${indexId}-error`)}
                </SettingRow>
                {errors.root?.message ? (
                  <div className="pt-5">
                    <FormError />
                  </div>
                ) : null}
              </>
            )}
          </CardContent>
          <CardFooter className="flex-wrap justify-between gap-3">
            <p className="flex items-center gap-1.5 text-xs text-muted-foreground">
              <History aria-hidden="true" className="size-3.5" />
              {s?.updated_at ? `Last changed ${formatDateTime(s.updated_at)}` : "Not changed yet"}
            </p>
            {readOnly ? null : (
              <div className="flex w-full flex-wrap justify-end gap-2 sm:w-auto">
                <Button
                  variant="ghost"
                  disabled={!dirty || saving}
                  onClick={() => {
                    form.reset(values);
                  }}
                >
                  Discard changes
                </Button>
                <Button type="submit" disabled={!dirty || saving}>
                  {saving ? "Saving…" : "Save workspace settings"}
                </Button>
              </div>
            )}
          </CardFooter>
        </form>
      </FormProvider>
    </Card>
  );
}
