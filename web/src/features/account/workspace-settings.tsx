import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Building2, History, KeyRound, Lock, SearchX, ShieldCheck, UserPlus } from "lucide-react";
import { useId, useState, type ReactNode } from "react";
import { toast } from "sonner";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { PasswordInput } from "@/components/ui/password-input";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { getConfig, resetConfig } from "@/lib/config";
import { formatDateTime } from "@/lib/format-time";
import { describeFunctionError, toastServerError, type ServerProblem } from "@/lib/server-error";
import { getSupabase } from "@/lib/supabase";
import { cn } from "@/lib/utils";
import { parseWorkspaceSettings, WORKSPACE_SETTINGS_KEY, type WorkspaceSettings, type WorkspaceSettingsPatch } from "./queries";

/** The server's passcode length rule (service/settings.go). */
const MIN_PASSCODE = 6;
const MAX_PASSCODE = 128;
const PASSCODE_LENGTH = "The passcode must have between 6 and 128 characters";
const PASSCODE_NEEDED = "Enter a passcode to turn the gate on";
/** Why an organisation's admin sees the settings without controls to change them. */
const OPERATOR_MANAGED = "Instance settings are managed by the instance operator";

class FunctionFailure extends Error {
  readonly problem: ServerProblem;
  constructor(problem: ServerProblem) {
    super(problem.message);
    this.problem = problem;
  }
}

async function securityManager(body: Record<string, unknown>, fallback: string): Promise<WorkspaceSettings> {
  const sb = await getSupabase();
  const result = await sb.functions.invoke<unknown>("security-manager", { body });
  const error: unknown = result.error;
  if (error) throw new FunctionFailure(await describeFunctionError(error, fallback));
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

interface Draft {
  gate: boolean;
  passcode: string;
  mode: "PUBLIC" | "PRIVATE";
  disableSignup: boolean;
  blockIndexing: boolean;
}

const toDraft = (s: WorkspaceSettings): Draft => ({
  gate: s.preview_passcode_enabled,
  passcode: "",
  mode: s.site_access_mode,
  disableSignup: s.disable_signup,
  blockIndexing: s.block_indexing,
});

/** The change UPDATE_SETTINGS needs to go from `s` to `d` (only what differs). */
function patchOf(s: WorkspaceSettings, d: Draft): WorkspaceSettingsPatch {
  const p: WorkspaceSettingsPatch = {};
  if (d.passcode !== "") p.preview_passcode = d.passcode;
  if (d.gate !== s.preview_passcode_enabled) p.preview_passcode_enabled = d.gate;
  if (d.mode !== s.site_access_mode) p.site_access_mode = d.mode;
  if (d.disableSignup !== s.disable_signup) p.disable_signup = d.disableSignup;
  if (d.blockIndexing !== s.block_indexing) p.block_indexing = d.blockIndexing;
  return p;
}

function passcodeProblem(s: WorkspaceSettings, d: Draft): string | undefined {
  if (d.passcode !== "" && (d.passcode.length < MIN_PASSCODE || d.passcode.length > MAX_PASSCODE)) return PASSCODE_LENGTH;
  // Turning the gate on needs the passcode typed, so the person doing it
  // knows what everyone (them included) will be asked for.
  if (d.gate && !s.preview_passcode_enabled && d.passcode === "") return PASSCODE_NEEDED;
  return undefined;
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
      {children ? <div className="sm:pl-9">{children}</div> : null}
    </div>
  );
}

function AccessOption({
  name,
  value,
  checked,
  onChange,
  title,
  disabled,
  children,
}: {
  name: string;
  value: "PUBLIC" | "PRIVATE";
  checked: boolean;
  onChange: (value: "PUBLIC" | "PRIVATE") => void;
  title: string;
  disabled: boolean;
  children: ReactNode;
}) {
  const id = useId();
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
        type="radio"
        name={name}
        value={value}
        checked={checked}
        disabled={disabled}
        onChange={() => {
          onChange(value);
        }}
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
  const queryClient = useQueryClient();
  const gateId = useId();
  const signupId = useId();
  const indexId = useId();
  const settings = useQuery({
    queryKey: WORKSPACE_SETTINGS_KEY,
    queryFn: () => securityManager({ action: "GET_SETTINGS" }, "The workspace settings could not be loaded."),
  });
  const preview = useQuery({ queryKey: ["config", "preview"], queryFn: async () => (await getConfig()).preview });
  // The draft remembers the settings it started from: when the server's
  // settings change (loaded, saved), the form starts again from them.
  const [edit, setEdit] = useState<{ base: WorkspaceSettings; draft: Draft } | null>(null);
  const [attempted, setAttempted] = useState(false);

  const save = useMutation({
    mutationFn: async ({ patch }: { patch: WorkspaceSettingsPatch }) =>
      securityManager({ action: "UPDATE_SETTINGS", settings: patch }, "The workspace settings could not be saved."),
    onSuccess: async (next, { patch }) => {
      if (next.preview_passcode_enabled && patch.preview_passcode) await passGate(patch.preview_passcode);
      queryClient.setQueryData(WORKSPACE_SETTINGS_KEY, next);
      setAttempted(false);
      toast.success("Workspace settings saved");
    },
    onError: (error) => {
      const problem =
        error instanceof FunctionFailure ? error.problem : { message: error.message, demo: false };
      toastServerError("Workspace settings not saved", problem);
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

  const s = settings.data;
  const d = s ? (edit?.base === s ? edit.draft : toDraft(s)) : null;
  const patch = s && d ? patchOf(s, d) : {};
  const dirty = Object.keys(patch).length > 0;
  const readOnly = s ? !s.editable : false;
  const passcodeError = s && d ? passcodeProblem(s, d) : undefined;
  const update = (change: Partial<Draft>) => {
    if (s && d) setEdit({ base: s, draft: { ...d, ...change } });
  };

  return (
    <Card data-testid="workspace-settings">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setAttempted(true);
          if (!s || !d || readOnly || passcodeError || !dirty) return;
          save.mutate({ patch });
        }}
      >
        <CardHeader className="flex-row items-start gap-4">
          <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10">
            <Building2 aria-hidden="true" className="size-5 text-primary" />
          </span>
          <div className="grid gap-1">
            <CardTitle>Workspace security</CardTitle>
            <CardDescription>
              Who can reach this Fairbalance instance and how people join it. These settings apply to the whole instance,
              every organisation on it included, and only the instance operator can change them; every change is recorded
              in the audit trail.
            </CardDescription>
          </div>
        </CardHeader>
        <CardContent className="divide-y">
          {!s || !d ? (
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
                  <Switch
                    id={gateId}
                    disabled={readOnly}
                    checked={d.gate}
                    onCheckedChange={(gate) => {
                      update({ gate });
                    }}
                    data-testid="setting-gate"
                  />
                }
              >
                {d.gate && !readOnly ? (
                  <Field
                    label={s.preview_passcode_enabled ? "New passcode (optional)" : "Passcode"}
                    error={attempted || d.passcode !== "" ? passcodeError : undefined}
                    hint={
                      s.preview_passcode_enabled
                        ? "Leave empty to keep the current passcode. 6 to 128 characters."
                        : "6 to 128 characters. Share it only with the people who should reach the workspace."
                    }
                    className="max-w-sm"
                  >
                    <PasswordInput
                      autoComplete="new-password"
                      value={d.passcode}
                      onChange={(event) => {
                        update({ passcode: event.target.value });
                      }}
                    />
                  </Field>
                ) : null}
              </SettingRow>
              <SettingRow
                icon={Lock}
                title={<span className="text-sm font-medium" id={`${gateId}-access`}>Site access</span>}
                description="Whether people who are not signed in can look around."
              >
                <div role="radiogroup" aria-labelledby={`${gateId}-access`} className="grid gap-2 md:grid-cols-2">
                  <AccessOption
                    name="site_access_mode"
                    value="PRIVATE"
                    checked={d.mode === "PRIVATE"}
                    onChange={(mode) => {
                      update({ mode });
                    }}
                    disabled={readOnly}
                    title="Private"
                  >
                    Only signed-in members see anything. The public, read-only preview of the demo workspace is closed.
                  </AccessOption>
                  <AccessOption
                    name="site_access_mode"
                    value="PUBLIC"
                    checked={d.mode === "PUBLIC"}
                    onChange={(mode) => {
                      update({ mode });
                    }}
                    disabled={readOnly}
                    title="Open preview"
                  >
                    Visitors may open the read-only demo workspace without an account, while the server's operator
                    enables preview{preview.data === undefined ? "" : preview.data ? " (it is enabled now)" : " (it is off now)"}.
                    Your organisation's data stays private either way.
                  </AccessOption>
                </div>
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
                  <Switch
                    id={signupId}
                    disabled={readOnly}
                    checked={d.disableSignup}
                    onCheckedChange={(disableSignup) => {
                      update({ disableSignup });
                    }}
                    data-testid="setting-disable-signup"
                  />
                }
              />
              <SettingRow
                icon={SearchX}
                title={
                  <label htmlFor={indexId} className="text-sm font-medium">
                    Hide from search engines
                  </label>
                }
                description={
                  <>
                    Asks search engines not to index any page of this instance (robots.txt disallows everything and
                    every answer carries <code className="rounded bg-muted px-1 py-0.5 text-xs">X-Robots-Tag: noindex</code>).
                  </>
                }
                control={
                  <Switch
                    id={indexId}
                    disabled={readOnly}
                    checked={d.blockIndexing}
                    onCheckedChange={(blockIndexing) => {
                      update({ blockIndexing });
                    }}
                    data-testid="setting-block-indexing"
                  />
                }
              />
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
                disabled={!dirty || save.isPending}
                onClick={() => {
                  setEdit(null);
                  setAttempted(false);
                }}
              >
                Discard changes
              </Button>
              <Button type="submit" disabled={!dirty || save.isPending}>
                {save.isPending ? "Saving…" : "Save workspace settings"}
              </Button>
            </div>
          )}
        </CardFooter>
      </form>
    </Card>
  );
}
