import { ClipboardCheck } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { buttonVariants } from "@/components/ui/button-variants";
import { PageHeader } from "@/components/ui/page-header";
import { useDocumentTitle } from "@/lib/use-document-title";
import { cn } from "@/lib/utils";

// The operator's runbook. Every command, flag and default here is the
// binary's own (cmd/fairbalance, README.md); when they change, change this.

const SECTIONS = [
  { id: "install", title: "Install and start" },
  { id: "first-admin", title: "Create the first administrator" },
  { id: "access", title: "Passcode gate and private mode" },
  { id: "recovery", title: "Recovery key and safe mode" },
  { id: "backup", title: "Back up and restore" },
  { id: "audit", title: "Verify the audit trail" },
  { id: "upgrade", title: "Upgrade" },
  { id: "phases", title: "Pilot phases, week by week" },
] as const;

type SectionId = (typeof SECTIONS)[number]["id"];

const SERVE_FLAGS: [flag: string, env: string, def: string, meaning: string][] = [
  ["--addr", "FAIRBALANCE_ADDR", "127.0.0.1:8080", "HTTP listen address"],
  ["--data-dir", "FAIRBALANCE_DATA_DIR", "./data", "SQLite database, uploaded files, keys.json"],
  ["--database-url", "FAIRBALANCE_DATABASE_URL", "—", "PostgreSQL URL; SQLite in the data directory when empty"],
  ["--site-url", "FAIRBALANCE_SITE_URL", "http://ADDR", "public URL of the app, used in e-mail links"],
  ["--smtp-url", "FAIRBALANCE_SMTP_URL", "—", "smtp://user:pass@host:587?from=… (or smtps://); without it e-mails are logged and kept in the outbox"],
  ["--disable-signup", "FAIRBALANCE_DISABLE_SIGNUP", "false", "refuse sign-ups without an invitation"],
  ["--autoconfirm", "FAIRBALANCE_AUTOCONFIRM", "false", "sign users in at sign-up without e-mail confirmation"],
  ["--preview", "FAIRBALANCE_PREVIEW", "false (true with --dev)", "issue read-only sessions of the demo organization"],
  ["--dev", "FAIRBALANCE_DEV", "false", "development mode"],
  ["--rate-limits", "FAIRBALANCE_RATE_LIMITS", "true", "per-address limits on the identity service"],
  ["--forwarded-for-header", "FAIRBALANCE_FORWARDED_FOR_HEADER", "—", "header naming the client address, trusted only when set (e.g. X-Forwarded-For behind your proxy)"],
  ["--redirect-allow-list", "FAIRBALANCE_REDIRECT_ALLOW_LIST", "—", "comma-separated URL prefixes that e-mail links may redirect to besides the site"],
  ["--jwt-expiry", "FAIRBALANCE_JWT_EXPIRY", "1h", "access-token lifetime"],
  ["--session-inactivity", "FAIRBALANCE_SESSION_INACTIVITY", "12h", "sessions not refreshed for this long end"],
  ["--session-lifetime", "FAIRBALANCE_SESSION_LIFETIME", "168h", "sessions end this long after sign-in"],
  ["--mail-min-interval", "FAIRBALANCE_MAIL_MIN_INTERVAL", "60s", "shortest time between two e-mails of one kind to one address"],
  ["--secure-password-change", "FAIRBALANCE_SECURE_PASSWORD_CHANGE", "true", "a session older than 24 h needs a reauthentication code to change the password"],
  ["--sqlite-synchronous", "FAIRBALANCE_SQLITE_SYNCHRONOUS", "NORMAL", "SQLite synchronous mode; FULL survives power loss at about a tenth of the commit rate"],
  ["--access-log", "FAIRBALANCE_ACCESS_LOG", "true", "log every request"],
  ["--log-format", "FAIRBALANCE_LOG_FORMAT", "text", "text or json"],
];

const REPAIRS: [repair: string, what: string, who: string][] = [
  ["Database status", "Reports the backend (SQLite or PostgreSQL), whether the database answers, whether it has accounts, and its migration level.", "Anyone"],
  ["Connect and migrate", "Checks the connection and applies pending migrations; reports the level before and after.", "Recovery key or operator"],
  ["Create admin", "Creates a confirmed account with the admin role from an e-mail and a password that meets the password policy.", "Recovery key or operator; anyone while the instance has no account"],
  ["Force-create admin", "Creates (or resets) an admin with a fixed temporary password that must be changed at the first sign-in.", "Development mode (--dev) only"],
  ["Disable passcode gate", "Turns the passcode gate off, for when nobody can get past it.", "Recovery key or operator"],
  ["Force private mode", "Sets site access to PRIVATE, turns sign-up off and blocks search-engine indexing in one step.", "Recovery key or operator"],
];

const PHASES: [when: string, goal: string, steps: string[]][] = [
  [
    "Week 0",
    "Prepare the instance",
    [
      "Install Fairbalance on the pilot host and start it with the site URL people will use and, if you have one, an SMTP server.",
      "Store the recovery key offline, away from the host.",
      "Take a backup and restore it on a spare machine once, so you know the procedure works before there is data to lose.",
      "If the instance is reachable from the internet, turn on the passcode gate or private mode.",
    ],
  ],
  [
    "Week 1",
    "Set up the workspace",
    [
      "Create the first administrator and complete the onboarding wizard: the organization and the first invitations.",
      "Send each invited person their sign-up link; make sure a medical, a legal and a regulatory reviewer join.",
      "Every administrator turns on two-factor authentication; review the workspace security settings once.",
      "Follow the pilot checklist: it ticks these steps from the workspace's data.",
    ],
  ],
  [
    "Weeks 2–3",
    "Review real content",
    [
      "Add products, create assets and run them through medical, legal and regulatory review with electronic signatures, as your release provides these capabilities — the checklist shows which are available.",
      "Meet the pilot team weekly; note what slows reviews down.",
      "Keep taking backups on the schedule you will use in production.",
    ],
  ],
  [
    "Week 4",
    "Evaluate",
    [
      "Verify the audit trail with the command line and on the Audit Log screen.",
      "Repeat the restore drill with the pilot's data and verify the restored trail.",
      "Collect the team's feedback and decide on the rollout with the pilot checklist in hand.",
    ],
  ],
];

/**
 * The operator's runbook (/pilot-runbook): installing and starting the
 * server, the first administrator, access control, the recovery key and
 * safe mode, backups, audit verification, upgrades and the pilot's phases,
 * as one document with a table of contents.
 */
export function PilotRunbookPage() {
  useDocumentTitle("Pilot runbook");
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-8">
      <PageHeader
        title="Pilot runbook"
        description="For the person who runs the Fairbalance server: how to install, secure, back up, recover and upgrade it, and how a pilot unfolds."
        actions={
          <Link to="/pilot-checklist" className={buttonVariants({ variant: "outline", size: "sm" })}>
            <ClipboardCheck aria-hidden="true" />
            Pilot checklist
          </Link>
        }
      />
      <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-8 lg:grid-cols-[14rem_minmax(0,1fr)]">
        <nav aria-label="Contents" className="rounded-xl border bg-card p-4 lg:sticky lg:top-20">
          <p className="mb-2 text-xs font-medium tracking-wide text-muted-foreground uppercase">Contents</p>
          <ol className="grid gap-1 text-sm">
            {SECTIONS.map((s, i) => (
              <li key={s.id}>
                <a
                  href={`#${s.id}`}
                  className="flex gap-2 rounded-md px-2 py-1.5 text-foreground hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                >
                  <span className="w-4 shrink-0 text-right text-muted-foreground tabular-nums">{i + 1}</span>
                  {s.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>

        <article className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-10 rounded-xl border bg-card px-5 py-6 text-[15px] leading-7 sm:px-8 sm:py-8">
          <Section id="install">
            <P>
              Fairbalance is one binary that serves the web app and its APIs. On a machine with Go 1.26 and Node 20 with npm,
              one command builds the app and the binary and starts a complete instance on{" "}
              <Mono>http://127.0.0.1:8080</Mono>, with SQLite and files under <Mono>./data</Mono>:
            </P>
            <Code>make run</Code>
            <P>
              <Mono>make build</Mono> only builds <Mono>bin/fairbalance</Mono> (with the web app inside);{" "}
              <Mono>make help</Mono> lists the other targets. On the server, run the binary:
            </P>
            <Code>{`bin/fairbalance serve --addr 0.0.0.0:8080 --site-url https://fairbalance.example.com`}</Code>
            <P>
              Every setting is a flag of <Mono>serve</Mono> and a <Mono>FAIRBALANCE_*</Mono> environment variable; the flag wins.
            </P>
            <FlagTable />
            <H3>The data directory</H3>
            <ul className="grid list-disc gap-1.5 pl-5">
              <li>
                <Mono>fairbalance.db</Mono> — the SQLite database (unless <Mono>--database-url</Mono> points at PostgreSQL).
                While the server runs, SQLite keeps recent changes beside it in <Mono>fairbalance.db-wal</Mono>.
              </li>
              <li>
                <Mono>keys.json</Mono> — created at the first start with mode 0600: the instance secrets, the token-signing keys and
                the recovery key. Keep it private and identical on every instance that shares a database.
              </li>
              <li>Uploaded files.</li>
            </ul>
            <P>
              At the first start the server prints the two API keys and the recovery key. Print the API keys again at any time
              with:
            </P>
            <Code>bin/fairbalance keys --json</Code>
            <P>
              Check the instance with <Mono>GET /api/health</Mono>: it answers{" "}
              <Mono>{`{"status":"ok","version":…,"database":"sqlite"|"postgres","migration":N}`}</Mono>, or 503 when the database
              does not answer. The <Link to="/health" className="font-medium text-primary underline-offset-4 hover:underline">/health</Link>{" "}
              screen shows the same for people.
            </P>
            <P>To run on PostgreSQL, create a database and give its URL; migrations are applied at start:</P>
            <Code>{`createdb fairbalance
FAIRBALANCE_DATABASE_URL='postgres://fairbalance:secret@db.internal/fairbalance' bin/fairbalance serve`}</Code>
          </Section>

          <Section id="first-admin">
            <P>Create the first administrator on the server:</P>
            <Code>{`bin/fairbalance admin create --email ops@example.com --name "Olivia Ops"`}</Code>
            <P>
              It asks for a password on a terminal, or generates one and prints it once when you leave it empty. For scripts, pass
              the password on standard input with <Mono>--password-stdin</Mono>. It takes the same <Mono>--data-dir</Mono> and{" "}
              <Mono>--database-url</Mono> as <Mono>serve</Mono>.
            </P>
            <P>Two other ways exist for when you cannot use the command line:</P>
            <ul className="grid list-disc gap-1.5 pl-5">
              <li>
                The <strong>Initial Setup</strong> card on the sign-in screen, shown while the instance has no account at all (or
                with <Mono>/login?init=1</Mono>); it works only while there are no users.
              </li>
              <li>
                <strong>Create admin</strong> in safe mode, with the recovery key (see <a href="#recovery" className="font-medium text-primary underline-offset-4 hover:underline">Recovery key and safe mode</a>).
              </li>
            </ul>
            <P>
              The administrator then signs in, and the onboarding wizard creates the organization and records the first
              invitations. Invitations made in the wizard are not e-mailed: the wizard shows each person's sign-up link to pass
              on. Members without an organization see a page asking them to get an invitation.
            </P>
            <P>
              This first administrator is also the instance&apos;s <strong>operator</strong>: the instance-wide settings and the
              safe-mode repairs are theirs (and the recovery key&apos;s), while other organisations&apos; admins see those settings
              read-only. Mark more operators, or remove the mark (never from the last one), on the server:
            </P>
            <Code>{`bin/fairbalance operator grant --email it-ops@example.com
bin/fairbalance operator revoke --email ops@example.com
bin/fairbalance operator list`}</Code>
          </Section>

          <Section id="access">
            <P>
              The instance operator changes the workspace security settings under Settings; other administrators see them
              read-only. Each change is recorded in the audit trail with its before and after values.
            </P>
            <H3>Passcode gate</H3>
            <P>
              While the gate is on, the server refuses API requests (identity, data, storage, functions and realtime) that do not
              carry the <Mono>gate_verified</Mono> cookie. People get it by entering the passcode on the{" "}
              <Mono>/gate</Mono> screen; it is signed, HttpOnly and lasts 12 hours. The passcode (6 to 128 characters) is stored
              hashed; setting a new one invalidates every cookie issued for the old one. Each address may try 10 passcodes in 5
              minutes. Set a passcode before you turn the gate on.
            </P>
            <H3>Private mode</H3>
            <P>
              Site access <Mono>PRIVATE</Mono> closes the public preview: no demo sessions are issued, whatever{" "}
              <Mono>--preview</Mono> says. Two more settings usually go with it: <em>disable sign-up</em> (only people with a
              pending invitation can create an account; <Mono>--disable-signup</Mono> does the same from the command line) and{" "}
              <em>block indexing</em> (every answer carries <Mono>X-Robots-Tag: noindex, nofollow</Mono>). Safe mode's{" "}
              <strong>Force private mode</strong> sets all three at once.
            </P>
          </Section>

          <Section id="recovery">
            <H3>The recovery key</H3>
            <P>
              The recovery key is printed once, when the keys are generated at the first start, and kept in{" "}
              <Mono>keys.json</Mono>. It authorises the safe-mode repairs instead of an operator's session, and a repair call
              that carries it passes the passcode gate. Store it offline, like a root password; anyone holding it can create an
              administrator.
            </P>
            <H3>Safe mode</H3>
            <P>
              Safe mode is the emergency screen for when the app cannot be used normally. Open{" "}
              <Mono>/safe?__safe=1</Mono> to turn it on for 2 hours in this browser; <Mono>/safe?__clear_safe=1</Mono> turns it off.
              The screen is open without signing in and bypasses the app's own guards, but every repair is checked by the server:
              it needs the recovery key or an operator's session, and each one is recorded in the audit trail with how it
              was authorised.
            </P>
            <div className="overflow-x-auto rounded-lg border" tabIndex={0} role="region" aria-label="Safe-mode repairs">
              <table className="w-full text-left text-sm">
                <thead className="bg-muted/60 text-xs tracking-wide text-muted-foreground uppercase">
                  <tr>
                    <th scope="col" className="px-3 py-2 font-medium">Repair</th>
                    <th scope="col" className="px-3 py-2 font-medium">What it does</th>
                    <th scope="col" className="px-3 py-2 font-medium">Allowed to</th>
                  </tr>
                </thead>
                <tbody className="divide-y">
                  {REPAIRS.map(([repair, what, who]) => (
                    <tr key={repair} className="align-top">
                      <th scope="row" className="px-3 py-2.5 font-medium whitespace-nowrap">{repair}</th>
                      <td className="min-w-64 px-3 py-2.5 leading-6">{what}</td>
                      <td className="min-w-40 px-3 py-2.5 leading-6 text-muted-foreground">{who}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Section>

          <Section id="backup">
            <P>
              A backup is the database <em>and</em> <Mono>keys.json</Mono> <em>and</em> the uploaded files. Without{" "}
              <Mono>keys.json</Mono>, a restored database cannot be used with the same API keys, sessions or recovery key.
            </P>
            <H3>SQLite</H3>
            <P>
              Stop the server (it writes every pending change into <Mono>fairbalance.db</Mono> as it shuts down), copy the whole
              data directory, and start it again:
            </P>
            <Code>{`# with the server stopped
tar -czf fairbalance-$(date +%F).tar.gz -C /path/to data`}</Code>
            <H3>PostgreSQL</H3>
            <P>Dump the database while it runs, and copy the data directory (keys.json and files) beside the dump:</P>
            <Code>{`pg_dump --format=custom --file=fairbalance-$(date +%F).dump "$FAIRBALANCE_DATABASE_URL"
tar -czf fairbalance-files-$(date +%F).tar.gz -C /path/to data`}</Code>
            <H3>Restore</H3>
            <ol className="grid list-decimal gap-1.5 pl-5">
              <li>Stop the server.</li>
              <li>
                Put the data directory back from the archive. On PostgreSQL, restore the dump into an empty database with{" "}
                <Mono>pg_restore --dbname=… fairbalance.dump</Mono>.
              </li>
              <li>
                Verify the trail before anyone signs in: <Mono>bin/fairbalance audit verify</Mono>.
              </li>
              <li>Start the server and check <Mono>/api/health</Mono>.</li>
            </ol>
          </Section>

          <Section id="audit">
            <P>
              Every change is written to an append-only audit trail in the same transaction. Each entry holds the hash of the one
              before it, one chain per organization, so an edited or deleted entry breaks the chain. Recompute every chain with:
            </P>
            <Code>{`bin/fairbalance audit verify
bin/fairbalance audit verify --org ORGANIZATION_ID`}</Code>
            <P>
              It prints one line per chain — <Mono>org ID: N entries, ok</Mono>, or <Mono>org ID: BROKEN at entry N: reason</Mono>{" "}
              naming the first broken entry — and exits with an error when any chain is broken. Give it the same{" "}
              <Mono>--data-dir</Mono> or <Mono>--database-url</Mono> as the server.
            </P>
            <P>
              Any member can also run the verification on the{" "}
              <Link to="/audit-log" className="font-medium text-primary underline-offset-4 hover:underline">Audit Log</Link> screen;
              the result is itself recorded in the trail, which ticks the pilot checklist's audit step.
            </P>
          </Section>

          <Section id="upgrade">
            <ol className="grid list-decimal gap-1.5 pl-5">
              <li>Take a backup (see above).</li>
              <li>
                Replace the binary with the new build and restart it. Migrations are applied at start; to apply them beforehand,
                run <Mono>bin/fairbalance migrate</Mono> with the same database settings — it prints the migration level.
              </li>
              <li>
                Check <Mono>bin/fairbalance version</Mono> and <Mono>/api/health</Mono>, which reports the version and the
                migration level.
              </li>
            </ol>
            <P>
              On PostgreSQL several instances may start at once against one database; keep <Mono>keys.json</Mono> identical on
              every instance. If an upgrade has to be undone, go back to the previous binary together with the backup taken
              before the upgrade.
            </P>
          </Section>

          <Section id="phases">
            <P>
              A pilot runs for about four weeks with one team. The{" "}
              <Link to="/pilot-checklist" className="font-medium text-primary underline-offset-4 hover:underline">pilot checklist</Link>{" "}
              tracks its steps from the workspace's data.
            </P>
            <ol className="grid gap-4">
              {PHASES.map(([when, goal, steps]) => (
                <li key={when} className="grid gap-2 rounded-lg border p-4 sm:grid-cols-[7rem_minmax(0,1fr)] sm:gap-4">
                  <p className="text-sm font-semibold text-primary">{when}</p>
                  <div className="grid gap-1.5">
                    <h3 className="font-semibold">{goal}</h3>
                    <ul className="grid list-disc gap-1 pl-5 text-sm leading-6">
                      {steps.map((s) => (
                        <li key={s}>{s}</li>
                      ))}
                    </ul>
                  </div>
                </li>
              ))}
            </ol>
          </Section>
        </article>
      </div>
    </div>
  );
}

function Section({ id, children }: { id: SectionId; children: ReactNode }) {
  const index = SECTIONS.findIndex((s) => s.id === id);
  const title = SECTIONS[index]?.title ?? id;
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="grid min-w-0 scroll-mt-20 grid-cols-[minmax(0,1fr)] gap-4">
      <h2 id={`${id}-title`} className="text-xl leading-8 font-semibold tracking-tight">
        <span className="mr-2 text-muted-foreground tabular-nums">{index + 1}.</span>
        {title}
      </h2>
      {children}
    </section>
  );
}

function H3({ children }: { children: ReactNode }) {
  return <h3 className="mt-2 text-base font-semibold">{children}</h3>;
}

function P({ children }: { children: ReactNode }) {
  return <p className="max-w-[75ch] text-foreground/90">{children}</p>;
}

function Mono({ children }: { children: ReactNode }) {
  return <code className="rounded bg-muted px-1 py-0.5 font-mono text-[0.85em] [overflow-wrap:anywhere]">{children}</code>;
}

/** A command block; focusable so it can be scrolled with the keyboard when it overflows. */
function Code({ children }: { children: string }) {
  return (
    <pre tabIndex={0} className={cn("overflow-x-auto rounded-lg border bg-muted/60 px-4 py-3 font-mono text-[13px] leading-6", "focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none")}>
      <code>{children}</code>
    </pre>
  );
}

function FlagTable() {
  return (
    <div className="overflow-x-auto rounded-lg border" tabIndex={0} role="region" aria-label="Flags of fairbalance serve">
      <table className="w-full text-left text-sm">
        <thead className="bg-muted/60 text-xs tracking-wide text-muted-foreground uppercase">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">Flag</th>
            <th scope="col" className="px-3 py-2 font-medium">Default</th>
            <th scope="col" className="px-3 py-2 font-medium">Meaning</th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {SERVE_FLAGS.map(([flag, env, def, meaning]) => (
            <tr key={flag} className="align-top">
              <th scope="row" className="px-3 py-2 font-normal">
                <code className="font-mono text-[13px] font-medium whitespace-nowrap">{flag}</code>
                <div className="font-mono text-[11px] whitespace-nowrap text-muted-foreground">{env}</div>
              </th>
              <td className="px-3 py-2 font-mono text-[13px] whitespace-nowrap">{def}</td>
              <td className="min-w-56 px-3 py-2 leading-6">{meaning}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
