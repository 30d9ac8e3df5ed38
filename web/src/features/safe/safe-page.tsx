import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery } from "@tanstack/react-query";
import type { LucideIcon } from "lucide-react";
import {
  Activity,
  ArrowRight,
  CircleAlert,
  CircleCheck,
  Database,
  DatabaseZap,
  KeyRound,
  LifeBuoy,
  Lock,
  RefreshCw,
  Settings2,
  ShieldOff,
  UserCog,
  Wrench,
} from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { Link, useLocation, useNavigate } from "react-router";
import { toast } from "sonner";
import { z } from "zod/mini";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { ProductMark } from "@/components/ui/auth-frame";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { Separator } from "@/components/ui/separator";
import { Spinner } from "@/components/ui/spinner";
import { getJSON, isRecord } from "@/lib/api";
import { useAuth } from "@/lib/auth";
import { errorMessage } from "@/lib/errors";
import { fieldMessages } from "@/lib/form-errors";
import { FunctionError, invokeFunction, type InvokeOptions } from "@/lib/functions";
import { applySafeModeQuery, safeModeActive } from "@/lib/safe-mode";
import { cn } from "@/lib/utils";
import { useDocumentTitle } from "@/lib/use-document-title";
import {
  backendLabel,
  DEFAULT_ADMIN_EMAIL,
  describeSettings,
  generateTemporaryPassword,
  parseDbStatus,
  repairCredential,
  standingFromError,
  standingFromSettings,
  validateCreateAdmin,
  validateForceCreate,
  type SessionStanding,
} from "./safe";

type Call = (fn: string, body: Record<string, unknown>) => Promise<Record<string, unknown>>;

/**
 * Safe mode (/safe): the public emergency screen. It starts and clears the
 * 2-hour safe session, shows the database's state and a diagnostics
 * summary, and offers the repairs (migrations, administrator creation,
 * passcode gate, private mode). The server runs a repair only for the
 * instance operator — the recovery key, or the session of an account
 * marked operator — and says why otherwise; its message is shown as is.
 * A signed-in session is asked up front whether it is the operator's, so
 * an organisation admin's is told to use the recovery key before trying.
 */
export function SafePage() {
  useDocumentTitle("Safe mode");
  const auth = useAuth();
  const [recoveryKey, setRecoveryKey] = useState("");
  const accessToken = auth.session?.access_token;
  const options: InvokeOptions = { recoveryKey, accessToken };
  const call: Call = (fn, body) => invokeFunction(fn, body, options);
  const credential = repairCredential(recoveryKey, auth.user?.email);
  const standing = useQuery({
    queryKey: ["safe", "standing", accessToken],
    enabled: Boolean(accessToken),
    queryFn: async (): Promise<SessionStanding> => {
      try {
        return standingFromSettings(await invokeFunction("security-manager", { action: "GET_SETTINGS" }, { accessToken }));
      } catch (error) {
        return standingFromError(error);
      }
    },
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });

  return (
    <div className="relative isolate flex flex-1 flex-col px-4 py-8 sm:px-6 sm:py-12">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-72 bg-linear-to-b from-amber-500/10 to-transparent"
      />
      <div className="mx-auto flex w-full max-w-5xl flex-col gap-6">
        <header className="flex flex-col gap-4">
          <ProductMark />
          <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
            <div className="grid min-w-0 gap-1">
              <h1 className="flex items-center gap-2 text-2xl leading-8 font-semibold tracking-tight">
                <LifeBuoy aria-hidden="true" className="size-6 text-warning" />
                Safe mode
              </h1>
              <p className="max-w-2xl text-sm leading-6 text-muted-foreground">
                Emergency recovery for this Fairbalance instance: check the database, run repairs and create an
                administrator when nobody can sign in. Repairs need the recovery key or the instance operator&apos;s
                session.
              </p>
            </div>
          </div>
        </header>

        <div className="grid gap-6 lg:grid-cols-3">
          <SafeSessionCard />
          <DatabaseCard call={call} signedIn={Boolean(accessToken)} />
          <DiagnosticsCard />
        </div>

        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <KeyRound aria-hidden="true" className="size-5 text-muted-foreground" />
              Authorise repairs
            </CardTitle>
            <CardDescription>
              The recovery key was printed once when this server generated its keys and is kept in{" "}
              <code className="rounded bg-muted px-1 py-0.5 text-xs">keys.json</code> in its data directory. The
              instance operator, signed in, can run the repairs without it; an organisation&apos;s admin cannot.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] md:items-start">
            <Field label="Recovery key" hint="Sent only with the repair you run, in the X-Recovery-Key header.">
              <PasswordInput
                autoComplete="off"
                spellCheck={false}
                value={recoveryKey}
                onChange={(e) => {
                  setRecoveryKey(e.target.value);
                }}
              />
            </Field>
            <CredentialNote
              credential={credential}
              email={auth.user?.email}
              standing={standing.isPending ? "checking" : (standing.data ?? "unknown")}
            />
          </CardContent>
        </Card>

        <div className="grid gap-6 lg:grid-cols-2">
          <RepairsCard call={call} />
          <AdminCard call={call} />
        </div>

        <NavigationCard />
      </div>
    </div>
  );
}

function CredentialNote({
  credential,
  email,
  standing,
}: {
  credential: ReturnType<typeof repairCredential>;
  email: string | undefined;
  standing: SessionStanding | "checking";
}) {
  if (credential === "recovery-key") {
    return (
      <Alert variant="info" role="status" data-testid="credential-note">
        <KeyRound aria-hidden="true" />
        <AlertTitle>Using the recovery key</AlertTitle>
        <AlertDescription>The server checks it with each repair; a wrong key is refused.</AlertDescription>
      </Alert>
    );
  }
  if (credential === "session" && standing === "not-operator") {
    return (
      <Alert variant="warning" role="status" data-testid="credential-note">
        <Lock aria-hidden="true" />
        <AlertTitle>Not the instance operator</AlertTitle>
        <AlertDescription>
          Signed in as <span className="font-medium">{email}</span>, which is not the instance operator&apos;s account, so
          the server refuses its repairs and changes to instance settings. Enter the recovery key to run them.
        </AlertDescription>
      </Alert>
    );
  }
  if (credential === "session") {
    return (
      <Alert variant="info" role="status" data-testid="credential-note">
        <UserCog aria-hidden="true" />
        <AlertTitle>Using your session</AlertTitle>
        <AlertDescription>
          Signed in as <span className="font-medium">{email}</span>
          {standing === "operator"
            ? ", an instance operator: the repairs run with this session."
            : standing === "checking"
              ? ". Checking whether this account is the instance operator…"
              : ". Repairs work if this account is an instance operator."}
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <Alert variant="warning" role="status" data-testid="credential-note">
      <Lock aria-hidden="true" />
      <AlertTitle>No credentials yet</AlertTitle>
      <AlertDescription>
        Enter the recovery key (or sign in as the instance operator): without it the server refuses every repair.
      </AlertDescription>
    </Alert>
  );
}

function SectionCard({
  icon: Icon,
  title,
  description,
  children,
  footer,
  className,
}: {
  icon: LucideIcon;
  title: string;
  description: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  className?: string;
}) {
  return (
    <Card className={cn("flex flex-col", className)}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Icon aria-hidden="true" className="size-5 text-muted-foreground" />
          {title}
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      {children ? <CardContent className="flex-1">{children}</CardContent> : <div className="flex-1" />}
      {footer ? <CardFooter className="flex-wrap">{footer}</CardFooter> : null}
    </Card>
  );
}

/** The safe session: the 2-hour cookie the links start and clear. */
function SafeSessionCard() {
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    const change = applySafeModeQuery(location.search);
    if (!change) return;
    if (change === "started") {
      toast.success("Safe Mode Activated", { id: "safe-mode", description: "The route guard is bypassed for 2 hours." });
    } else {
      toast.success("Safe Mode Cleared", { id: "safe-mode", description: "The app checks sessions and the gate again." });
    }
    void navigate("/safe", { replace: true });
  }, [location.search, navigate]);

  // The cookie is the state; read on every render (the links re-render the page).
  const active = safeModeActive();
  return (
    <SectionCard
      icon={Wrench}
      title="Safe session"
      description="For 2 hours the app skips its gate and error redirects in this browser, so you can reach every screen."
      footer={
        <>
          <Link to="/safe?__safe=1" className={buttonVariants({ variant: active ? "outline" : "default", size: "sm" })}>
            Start safe session
          </Link>
          <Link to="/safe?__clear_safe=1" className={buttonVariants({ variant: "outline", size: "sm" })}>
            Clear safe session
          </Link>
        </>
      }
    >
      <div className="flex items-center gap-2 text-sm" data-testid="safe-session-state">
        <span className="text-muted-foreground">Status</span>
        {active ? <Badge variant="amber">Active</Badge> : <Badge variant="gray">Inactive</Badge>}
      </div>
    </SectionCard>
  );
}

function DatabaseCard({ call, signedIn }: { call: Call; signedIn: boolean }) {
  const status = useQuery({
    queryKey: ["safe", "db-status"],
    queryFn: async () => parseDbStatus(await call("db-recovery", { action: "GET_DB_STATUS" })),
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
  const data = status.data;
  // A refused token is not a connection failure: the session provider asks
  // whether the session ended and, if so, the member is sent to sign in.
  const tokenRefused = status.error instanceof FunctionError && status.error.status === 401 && signedIn;
  return (
    <SectionCard
      icon={Database}
      title="Database"
      description="Whether the database answers, its backend and migration level."
      footer={
        <Button variant="outline" size="sm" onClick={() => void status.refetch()} disabled={status.isFetching}>
          <RefreshCw aria-hidden="true" className={cn(status.isFetching && "animate-spin motion-reduce:animate-none")} />
          Check again
        </Button>
      }
    >
      <div aria-live="polite" aria-busy={status.isFetching}>
        {status.isPending || tokenRefused ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner size="sm" label={null} />
            {tokenRefused ? "Checking your session…" : "Checking the connection…"}
          </p>
        ) : status.isError ? (
          <Alert variant="destructive">
            <CircleAlert aria-hidden="true" />
            <AlertTitle>Connection check failed</AlertTitle>
            <AlertDescription>{status.error.message}</AlertDescription>
          </Alert>
        ) : data ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm" data-testid="db-status">
            <dt className="text-muted-foreground">State</dt>
            <dd>{data.healthy ? <Badge variant="green">Connected</Badge> : <Badge variant="red">Unavailable</Badge>}</dd>
            <dt className="text-muted-foreground">Backend</dt>
            <dd className="font-medium">{backendLabel(data.backend)}</dd>
            <dt className="text-muted-foreground">Migration</dt>
            <dd className="font-medium">{data.migrationLevel ?? "unknown"}</dd>
            <dt className="text-muted-foreground">Accounts</dt>
            <dd className="font-medium">{data.hasUsers ? "Present" : "None yet"}</dd>
            {data.message ? <dd className="col-span-2 text-destructive">{data.message}</dd> : null}
          </dl>
        ) : null}
      </div>
    </SectionCard>
  );
}

function DiagnosticsCard() {
  const health = useQuery({
    queryKey: ["safe", "health"],
    queryFn: async () => {
      const body = await getJSON("/api/health");
      return isRecord(body) ? body : {};
    },
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
  const d = health.data;
  const uptime = typeof d?.uptime_seconds === "number" ? formatUptime(d.uptime_seconds) : "—";
  return (
    <SectionCard
      icon={Activity}
      title="Diagnostics"
      description="The server's own health report."
      footer={
        <Button variant="outline" size="sm" onClick={() => void health.refetch()} disabled={health.isFetching}>
          <RefreshCw aria-hidden="true" className={cn(health.isFetching && "animate-spin motion-reduce:animate-none")} />
          Run diagnostics
        </Button>
      }
    >
      <div aria-live="polite" aria-busy={health.isFetching}>
        {health.isPending ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner size="sm" label={null} />
            Running diagnostics…
          </p>
        ) : health.isError ? (
          <Alert variant="destructive">
            <CircleAlert aria-hidden="true" />
            <AlertTitle>Failed to run diagnostics</AlertTitle>
            <AlertDescription>{health.error.message}</AlertDescription>
          </Alert>
        ) : d ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm" data-testid="diagnostics">
            <dt className="text-muted-foreground">Status</dt>
            <dd>{d.status === "ok" ? <Badge variant="green">OK</Badge> : <Badge variant="red">{String(d.status)}</Badge>}</dd>
            <dt className="text-muted-foreground">Version</dt>
            <dd className="truncate font-medium">{typeof d.version === "string" && d.version ? d.version : "—"}</dd>
            <dt className="text-muted-foreground">Database</dt>
            <dd className="font-medium">{typeof d.database === "string" ? backendLabel(d.database) : "—"}</dd>
            <dt className="text-muted-foreground">Up for</dt>
            <dd className="font-medium">{uptime}</dd>
          </dl>
        ) : null}
      </div>
    </SectionCard>
  );
}

function formatUptime(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days`;
}

/** The outcome line under an action. */
function Outcome({ error, success }: { error: Error | null; success: string | undefined }) {
  if (error) {
    return (
      <p role="alert" className="flex items-start gap-1.5 text-sm font-medium text-destructive">
        <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        {error.message}
      </p>
    );
  }
  if (success) {
    return (
      <p role="status" className="flex items-start gap-1.5 text-sm font-medium text-green-700 dark:text-green-400">
        <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        {success}
      </p>
    );
  }
  return null;
}

/** A repair as a mutation whose outcome is toasted with the spec's titles. */
function useRepair<V = void>(run: (vars: V) => Promise<Record<string, unknown>>, titles: { ok: string; failed: string }) {
  return useMutation({
    mutationFn: run,
    onSuccess: (body) => {
      toast.success(titles.ok, { description: errorMessage(body, "Done") });
    },
    onError: (error) => {
      toast.error(titles.failed, { description: error.message });
    },
  });
}

function ActionRow({
  icon: Icon,
  title,
  description,
  button,
  running,
  onRun,
  variant = "outline",
  children,
}: {
  icon: LucideIcon;
  title: string;
  description: string;
  button: string;
  running: boolean;
  onRun: () => void;
  variant?: "outline" | "destructive";
  children?: ReactNode;
}) {
  return (
    <li className="grid gap-3 py-4 first:pt-0 last:pb-0">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex gap-3">
          <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
          <div className="grid gap-0.5">
            <h3 className="text-sm font-semibold">{title}</h3>
            <p className="text-sm leading-6 text-muted-foreground">{description}</p>
          </div>
        </div>
        <Button variant={variant} size="sm" onClick={onRun} disabled={running} className="self-start sm:shrink-0">
          {running ? <Spinner size="sm" label={null} className="text-current" /> : null}
          {button}
        </Button>
      </div>
      {children}
    </li>
  );
}

function RepairsCard({ call }: { call: Call }) {
  const migrate = useRepair(() => call("db-recovery", { action: "SAFE_CONNECT_AND_MIGRATE" }), {
    ok: "Migrations Applied",
    failed: "Migration Failed",
  });
  const settings = useRepair(() => call("security-manager", { action: "GET_SETTINGS" }), {
    ok: "Settings Bootstrapped",
    failed: "Bootstrap Failed",
  });
  const gate = useRepair(
    () => call("security-manager", { action: "UPDATE_SETTINGS", settings: { preview_passcode_enabled: false } }),
    { ok: "Passcode Gate Disabled", failed: "Failed" },
  );
  const privateMode = useRepair(
    () =>
      call("security-manager", {
        action: "UPDATE_SETTINGS",
        settings: { site_access_mode: "PRIVATE", disable_signup: true, block_indexing: true },
      }),
    { ok: "Private Mode Enforced", failed: "Failed" },
  );
  const latest = privateMode.data ?? gate.data ?? settings.data;
  const rows = describeSettings(latest?.settings);
  const levels = migrate.data
    ? `Migration level ${String(migrate.data.migration_level_before)} → ${String(migrate.data.migration_level)}.`
    : undefined;

  return (
    <SectionCard icon={Settings2} title="Repairs" description="Each asks the server, which checks your credentials first.">
      <ul className="divide-y">
        <ActionRow
          icon={DatabaseZap}
          title="Run migrations"
          description="Connect to the database and apply pending schema migrations."
          button="Run migrations"
          running={migrate.isPending}
          onRun={() => {
            migrate.mutate();
          }}
        >
          <Outcome error={migrate.error} success={migrate.isSuccess ? `Database connected and migrations applied. ${levels ?? ""}`.trim() : undefined} />
        </ActionRow>
        <ActionRow
          icon={Settings2}
          title="Bootstrap settings"
          description="Load the workspace security settings, to see them before changing anything."
          button="Bootstrap settings"
          running={settings.isPending}
          onRun={() => {
            settings.mutate();
          }}
        >
          <Outcome error={settings.error} success={settings.isSuccess ? "Settings loaded." : undefined} />
        </ActionRow>
        <ActionRow
          icon={ShieldOff}
          title="Disable the passcode gate"
          description="Let people reach the sign-in page without the access passcode."
          button="Disable passcode gate"
          running={gate.isPending}
          onRun={() => {
            gate.mutate();
          }}
        >
          <Outcome error={gate.error} success={gate.isSuccess ? "The passcode gate is off." : undefined} />
        </ActionRow>
        <ActionRow
          icon={Lock}
          title="Enforce private mode"
          description="Close the public preview, refuse sign-ups without an invitation and block search engines."
          button="Enforce private mode"
          running={privateMode.isPending}
          onRun={() => {
            privateMode.mutate();
          }}
        >
          <Outcome error={privateMode.error} success={privateMode.isSuccess ? "Private mode is enforced." : undefined} />
        </ActionRow>
      </ul>
      {rows.length > 0 ? (
        <>
          <Separator className="my-4" />
          <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-[auto_1fr]" data-testid="workspace-settings">
            {rows.map((r) => (
              <div key={r.label} className="contents">
                <dt className="text-muted-foreground">{r.label}</dt>
                <dd className="font-medium">{r.value}</dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
    </SectionCard>
  );
}

/** Safe-mode admin creation: e-mail and password ('Email and password required' beside the e-mail). */
const createAdminSchema = z.object({ email: z.string(), password: z.string() }).check(
  z.superRefine((v, ctx) => {
    const problem = validateCreateAdmin(v.email, v.password);
    if (problem) ctx.addIssue({ code: "custom", path: ["email"], message: problem });
  }),
);
type CreateAdminValues = z.input<typeof createAdminSchema>;

/** Force-create: an e-mail ('Email address required'). */
const forceCreateSchema = z.object({ email: z.string() }).check(
  z.superRefine((v, ctx) => {
    const problem = validateForceCreate(v.email);
    if (problem) ctx.addIssue({ code: "custom", path: ["email"], message: problem });
  }),
);
type ForceCreateValues = z.input<typeof forceCreateSchema>;

/** The function's own names of the admin fields (db-recovery). */
const ADMIN_FIELDS = { admin_email: "email", admin_password: "password" } as const;

/**
 * A refused repair's per-field messages for the form's fields `names` (its
 * message is shown below the form), by the form's names.
 */
function fieldErrorsOf<N extends string>(error: unknown, names: readonly N[]): [N, string][] {
  const out: [N, string][] = [];
  for (const [serverName, message] of Object.entries(fieldMessages(error))) {
    const name = (ADMIN_FIELDS as Record<string, string | undefined>)[serverName] ?? serverName;
    const known = names.find((n) => n === name);
    if (known) out.push([known, message]);
  }
  return out;
}

function AdminCard({ call }: { call: Call }) {
  const createForm = useForm<CreateAdminValues>({
    resolver: zodResolver(createAdminSchema),
    defaultValues: { email: DEFAULT_ADMIN_EMAIL, password: generateTemporaryPassword() },
  });
  const forceForm = useForm<ForceCreateValues>({ resolver: zodResolver(forceCreateSchema), defaultValues: { email: DEFAULT_ADMIN_EMAIL } });

  const create = useRepair(
    ({ email, password }: CreateAdminValues) => call("db-recovery", { action: "SAFE_CREATE_ADMIN", admin_email: email.trim(), admin_password: password }),
    { ok: "Success!", failed: "Failed" },
  );
  const force = useRepair(({ email }: ForceCreateValues) => call("db-recovery", { action: "FORCE_CREATE_ADMIN_DEV", admin_email: email.trim() }), {
    ok: "Success!",
    failed: "Failed",
  });

  const onCreate = createForm.handleSubmit((values) => {
    create.mutate(values, {
      onError: (error) => {
        for (const [name, message] of fieldErrorsOf(error, ["email", "password"] as const)) createForm.setError(name, { type: "server", message });
      },
    });
  });

  const onForce = forceForm.handleSubmit((values) => {
    force.mutate(values, {
      onError: (error) => {
        for (const [name, message] of fieldErrorsOf(error, ["email"] as const)) forceForm.setError(name, { type: "server", message });
      },
    });
  });

  const temporary = typeof force.data?.temporary_password === "string" ? force.data.temporary_password : undefined;

  return (
    <SectionCard
      icon={UserCog}
      title="Create an administrator"
      description="A confirmed account with the admin role; made with the recovery key, it is an instance operator too. Note the password before you leave this page."
    >
      <form noValidate onSubmit={(e) => void onCreate(e)} className="grid gap-4">
        <Field label="Administrator e-mail" error={createForm.formState.errors.email?.message}>
          <Input type="email" autoComplete="off" {...createForm.register("email")} />
        </Field>
        <Field
          label="Temporary password"
          error={createForm.formState.errors.password?.message}
          hint="Generated for you; meets the password rules. Change it after signing in."
          aside={
            <Button
              variant="ghost"
              size="sm"
              className="h-7 px-2"
              onClick={() => {
                createForm.setValue("password", generateTemporaryPassword());
              }}
            >
              <RefreshCw aria-hidden="true" />
              Generate another
            </Button>
          }
        >
          <PasswordInput autoComplete="off" spellCheck={false} {...createForm.register("password")} />
        </Field>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? <Spinner size="sm" label={null} className="text-current" /> : null}
            Create administrator
          </Button>
          <Outcome
            error={create.error}
            success={create.isSuccess ? `Administrator ${create.variables.email.trim()} created. Sign in with the temporary password.` : undefined}
          />
        </div>
      </form>

      <Separator className="my-6" />

      <form noValidate onSubmit={(e) => void onForce(e)} className="grid gap-4">
        <div className="grid gap-1">
          <h3 className="flex items-center gap-2 text-sm font-semibold">
            Force-create administrator <Badge variant="amber">Development only</Badge>
          </h3>
          <p className="text-sm leading-6 text-muted-foreground">
            Creates the account, or resets an existing one, with a fixed temporary password that must be changed at the
            first sign-in. Works only on a server started with <code className="rounded bg-muted px-1 py-0.5 text-xs">--dev</code>.
          </p>
        </div>
        <Field label="Account e-mail" error={forceForm.formState.errors.email?.message}>
          <Input type="email" autoComplete="off" {...forceForm.register("email")} />
        </Field>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant="outline" disabled={force.isPending}>
            {force.isPending ? <Spinner size="sm" label={null} className="text-current" /> : null}
            Force-create admin
          </Button>
          <Outcome error={force.error} success={force.isSuccess ? errorMessage(force.data, "Done") : undefined} />
        </div>
        {temporary ? (
          <Alert variant="warning">
            <KeyRound aria-hidden="true" />
            <AlertTitle>Temporary password</AlertTitle>
            <AlertDescription>
              <code className="rounded bg-background/70 px-1.5 py-0.5 font-mono" data-testid="temporary-password">
                {temporary}
              </code>{" "}
              — the account must choose a new password at its first sign-in.
            </AlertDescription>
          </Alert>
        ) : null}
      </form>
    </SectionCard>
  );
}

function NavigationCard() {
  const links = [
    { to: "/", label: "Home", hint: "The Command Center" },
    { to: "/login", label: "Sign in", hint: "The sign-in page" },
    { to: "/health", label: "Health", hint: "Server status" },
    { to: "/diagnostics", label: "Diagnostics", hint: "Logs and details" },
  ];
  return (
    <nav aria-labelledby="safe-nav-title" className="grid gap-3">
      <h2 id="safe-nav-title" className="text-sm font-semibold text-muted-foreground">
        Go to
      </h2>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {links.map((l) => (
          <li key={l.to}>
            <Link
              to={l.to}
              className="group flex items-center justify-between gap-3 rounded-xl border bg-card px-4 py-3 text-sm shadow-sm transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              <span className="grid">
                <span className="font-medium">{l.label}</span>
                <span className="text-xs text-muted-foreground">{l.hint}</span>
              </span>
              <ArrowRight aria-hidden="true" className="size-4 text-muted-foreground transition-transform group-hover:translate-x-0.5" />
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
