import { assetStatusLabel, claimStatusLabel, moduleStatusLabel, referenceStatusLabel } from "@/lib/content-types";
import { roleLabel } from "@/lib/roles";

/**
 * The audit trail in words: one sentence per action, for every screen that
 * shows entries (the Command Center's recent activity, the Audit Log). A
 * sentence starts after the actor's name — "created the asset FB-US-0001" —
 * and names the object from what the entry recorded (its before and after
 * values and meta), or from the subjects the screen looked up (see
 * {@link subjectRefs}).
 *
 * Every action the server records (server-actions.ts, generated from the
 * server's vocabulary) and every action the app records (CLIENT_AUDIT_ACTIONS)
 * has a sentence here; the tests fail for one without. Another action — a
 * client's own, say — still reads as words, never as code.
 */

/** The actions the app itself appends to the trail (client-reported entries). */
export const CLIENT_AUDIT_ACTIONS = [
  "organization_created",
  "onboarding_completed",
  "user_invited",
  "demo_role_switched",
  "demo_role_reset",
  "client_error",
] as const;
export type ClientAuditAction = (typeof CLIENT_AUDIT_ACTIONS)[number];

/** What a sentence reads of an entry (the columns of audit_logs_v2). */
export interface SentenceEntry {
  action: string;
  actor_id?: string | null;
  object_type?: string | null;
  object_id?: string | null;
  meta?: unknown;
  before_json?: unknown;
  after_json?: unknown;
}

/** The tables whose rows a sentence may name by id: an asset's job code, a reference's title, a claim's text. */
export type SubjectTable = "assets" | "references" | "claims";

/** A row a sentence would name, and where to look it up. */
export interface SubjectRef {
  table: SubjectTable;
  id: string;
}

/** What the screen looked up: the name of each subject, by table and id. */
export type Subjects = Partial<Record<SubjectTable, ReadonlyMap<string, string>>>;

type Rec = Record<string, unknown>;

function isRec(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The row of a value: the value itself, or the only element of a one-row array (a data API write). */
function row(value: unknown): Rec | undefined {
  if (Array.isArray(value)) return value.length === 1 && isRec(value[0]) ? value[0] : undefined;
  return isRec(value) ? value : undefined;
}

/** How many rows a data API write recorded (1 for a single object). */
function rowCount(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  return isRec(value) ? 1 : 0;
}

function text(value: unknown, key: string): string | undefined {
  if (!isRec(value)) return undefined;
  const v = value[key];
  if (typeof v === "string" && v.trim() !== "") return v.trim();
  if (typeof v === "number") return String(v);
  return undefined;
}

/** A name in quotes, shortened to `max` characters. */
function quoted(name: string, max = 60): string {
  const one = name.replace(/\s+/g, " ");
  return `“${one.length > max ? `${one.slice(0, max - 1).trimEnd()}…` : one}”`;
}

/** The last part of a storage path. */
function fileName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1) || path;
}

function humanize(action: string): string {
  return action.replace(/[._]+/g, " ").trim();
}

/** What a sentence builder is given. */
interface Ctx {
  entry: SentenceEntry;
  meta: unknown;
  before: Rec | undefined;
  after: Rec | undefined;
  subjects: Subjects;
}

function lookup(ctx: Ctx, table: SubjectTable, id: unknown): string | undefined {
  return typeof id === "string" ? ctx.subjects[table]?.get(id) : undefined;
}

// ---- Content objects ----

interface ObjectNoun {
  /** "an asset" */
  some: string;
  /** "assets" */
  many: string;
  /** "the asset FB-US-0001" from the object's row, or undefined when the row names nothing. */
  named: (r: Rec) => string | undefined;
  status?: (s: string) => string;
}

function assetName(code: string | undefined, title: string | undefined): string | undefined {
  if (code) return `the asset ${code}`;
  return title ? `the asset ${quoted(title)}` : undefined;
}

/** The content objects whose writes the server records as "<object>_created", "_updated", "_deleted". */
const OBJECTS: Record<string, ObjectNoun> = {
  product: { some: "a product", many: "products", named: (r) => prefixed("the product", text(r, "brand_name")) },
  asset: { some: "an asset", many: "assets", named: (r) => assetName(text(r, "job_code"), text(r, "title")), status: assetStatusLabel },
  reference: { some: "a reference", many: "references", named: (r) => quotedAs("the reference", text(r, "title")), status: referenceStatusLabel },
  claim: { some: "a claim", many: "claims", named: (r) => quotedAs("the claim", text(r, "text")), status: claimStatusLabel },
  module: { some: "a module", many: "modules", named: (r) => quotedAs("the module", text(r, "title")), status: moduleStatusLabel },
};

function prefixed(prefix: string, name: string | undefined): string | undefined {
  return name ? `${prefix} ${name}` : undefined;
}

function quotedAs(prefix: string, name: string | undefined): string | undefined {
  return name ? `${prefix} ${quoted(name)}` : undefined;
}

/** The object an entry is about: its recorded row (an asset created with its first version records both). */
function subjectRow(value: unknown): Rec | undefined {
  const r = row(value);
  return r && isRec(r.asset) ? r.asset : r;
}

function contentSentence(noun: ObjectNoun, verb: "created" | "updated" | "deleted", ctx: Ctx): string {
  const { entry } = ctx;
  const data = verb === "deleted" ? entry.before_json : entry.after_json;
  const n = rowCount(data);
  if (n > 1) return `${verb} ${n} ${noun.many}`;
  const r = subjectRow(data) ?? subjectRow(verb === "deleted" ? entry.after_json : entry.before_json);
  const name = (r && noun.named(r)) ?? noun.some;
  if (verb === "updated" && noun.status && ctx.before && ctx.after) {
    const from = text(ctx.before, "status");
    const to = text(ctx.after, "status");
    if (from && to && from !== to) return `moved ${name} from ${noun.status(from)} to ${noun.status(to)}`;
  }
  return `${verb} ${name}`;
}

function contentAction(action: string): { noun: ObjectNoun; verb: "created" | "updated" | "deleted" } | undefined {
  const cut = action.lastIndexOf("_");
  if (cut <= 0) return undefined;
  const noun = OBJECTS[action.slice(0, cut)];
  const verb = action.slice(cut + 1);
  if (!noun || (verb !== "created" && verb !== "updated" && verb !== "deleted")) return undefined;
  return { noun, verb };
}

/** The asset an entry is about: from its own values, else as looked up by id. */
function assetOf(ctx: Ctx): string {
  for (const r of [subjectRow(ctx.entry.after_json), subjectRow(ctx.entry.before_json)]) {
    const name = r && OBJECTS.asset?.named(r);
    if (name) return name;
  }
  const code = text(ctx.meta, "job_code") ?? lookup(ctx, "assets", ctx.after?.asset_id ?? ctx.before?.asset_id ?? text(ctx.meta, "asset_id") ?? ctx.entry.object_id);
  return code ? `the asset ${code}` : "an asset";
}

// ---- Tables written through the data API ("<table>.<op>") ----

const OPERATION_VERBS: Record<string, string> = {
  insert: "created",
  update: "updated",
  upsert: "saved",
  delete: "deleted",
};

/** How a table's row is named in a sentence about a write to it. */
const TABLES: Record<string, (ctx: Ctx, verb: string) => string> = {
  // The organization is the reader's own (its name heads the screens).
  orgs: (ctx, verb) => {
    const from = text(ctx.before, "name");
    const to = text(ctx.after, "name");
    return from && to && from !== to ? "renamed the organization" : `${verb} the organization`;
  },
  workspace_settings: (_, verb) => `${verb} the workspace settings`,
  notification_preferences: (_, verb) => `${verb} their notification preferences`,
  invites: (ctx, verb) => {
    const email = text(ctx.after ?? ctx.before, "email");
    return email ? `${verb} the invitation of ${email}` : `${verb} an invitation`;
  },
  members: (_, verb) => `${verb} a member`,
  profiles_v2: (ctx, verb) => {
    const own = ctx.entry.object_id != null && ctx.entry.object_id === ctx.entry.actor_id;
    const name = text(ctx.after ?? ctx.before, "full_name");
    const whose = own ? "their" : name ? `${name}’s` : "a member’s";
    const from = text(ctx.before, "role");
    const to = text(ctx.after, "role");
    if (from && to && from !== to) return `changed ${whose} role from ${roleLabel(from)} to ${roleLabel(to)}`;
    return `${verb} ${own ? "their profile" : name ? `${name}’s profile` : "a member's profile"}`;
  },
  asset_versions: (ctx, verb) => {
    const n = text(ctx.after ?? ctx.before, "number");
    return `${verb} ${n ? `version ${n}` : "a version"} of ${assetOf(ctx)}`;
  },
  version_modules: (ctx, verb) => `${verb} a module's use in ${assetOf(ctx)}`,
  reviews: (ctx, verb) => `${verb} a review round of ${assetOf(ctx)}`,
  review_steps: (ctx, verb) => `${verb} a review step of ${assetOf(ctx)}`,
  signatures: (ctx, verb) => `${verb} a signature on ${assetOf(ctx)}`,
  change_requests: (ctx, verb) => `${verb} a requested change to ${assetOf(ctx)}`,
  notifications: (_, verb) => `${verb} a notification`,
  annotations: (ctx, verb) => `${verb} a comment on ${assetOf(ctx)}`,
  annotation_replies: (ctx, verb) => `${verb} a reply to a comment on ${assetOf(ctx)}`,
  workflow_templates: (ctx, verb) => {
    const name = text(ctx.after ?? ctx.before, "name");
    return name ? `${verb} the review workflow ${quoted(name)}` : `${verb} a review workflow`;
  },
  review_settings: (_, verb) => `${verb} the review settings`,
  claim_references: (ctx, verb) => `${verb} a supporting reference of ${claimOf(ctx)}`,
  compliance_rules: (ctx, verb) => {
    const code = text(ctx.after ?? ctx.before, "code");
    return code ? `${verb} the compliance rule ${quoted(code)}` : `${verb} a compliance rule`;
  },
  compliance_rule_versions: (_, verb) => `${verb} a saved version of a compliance rule`,
  compliance_rule_settings: (ctx, verb) => {
    const code = text(ctx.after ?? ctx.before, "code");
    return code ? `${verb} the setting of the built-in rule ${quoted(code)}` : `${verb} a built-in rule's setting`;
  },
  guideline_documents: (ctx, verb) => {
    const title = text(ctx.after ?? ctx.before, "title");
    return title ? `${verb} the guideline ${quoted(title)}` : `${verb} a guideline`;
  },
  compliance_findings: (ctx, verb) => `${verb} a compliance finding on ${assetOf(ctx)}`,
  compliance_checks: (ctx, verb) => `${verb} the compliance check of a version of ${assetOf(ctx)}`,
};

function tableAction(action: string): { table: (ctx: Ctx, verb: string) => string; verb: string } | undefined {
  const dot = action.indexOf(".");
  if (dot <= 0) return undefined;
  const table = TABLES[action.slice(0, dot)];
  const verb = OPERATION_VERBS[action.slice(dot + 1)];
  return table && verb ? { table, verb } : undefined;
}

function stepOf(ctx: Ctx): string {
  const role = text(ctx.after ?? ctx.before, "role");
  return role ? `${roleLabel(role)} step` : "review step";
}

function claimOf(ctx: Ctx): string {
  const name = lookup(ctx, "claims", ctx.after?.claim_id ?? ctx.before?.claim_id);
  return name ? `the claim ${quoted(name)}` : "a claim";
}

function referenceOf(ctx: Ctx, id: unknown): string {
  const name = lookup(ctx, "references", id);
  return name ? `the reference ${quoted(name)}` : "a reference";
}

function storedFile(r: Rec | undefined): string {
  const name = text(r, "name");
  return name ? `the file ${fileName(name)}` : "a file";
}

function bucket(ctx: Ctx): string {
  const id = text(ctx.after ?? ctx.before, "id") ?? ctx.entry.object_id;
  return id ? `the storage bucket ${id}` : "a storage bucket";
}

function emailIn(meta: unknown, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = text(meta, k);
    if (v) return v;
  }
  return undefined;
}

// ---- Fixed actions ----

const SENTENCES: Record<string, (ctx: Ctx) => string> = {
  // The workflow and content functions.
  asset_version_created: (ctx) => {
    const n = text(ctx.after, "number");
    return `added ${n ? `version ${n}` : "a version"} to ${assetOf(ctx)}`;
  },
  asset_archived: (ctx) => `archived ${assetOf(ctx)}`,
  asset_submitted: (ctx) => `submitted ${assetOf(ctx)} for review`,
  asset_approved: (ctx) => `approved ${assetOf(ctx)}`,
  asset_approved_with_changes: (ctx) => `approved ${assetOf(ctx)} with changes`,
  asset_changes_requested: (ctx) => `requested changes to ${assetOf(ctx)}`,
  asset_rejected: (ctx) => `rejected ${assetOf(ctx)}`,
  asset_withdrawn: (ctx) => `withdrew ${assetOf(ctx)}`,
  asset_expired: (ctx) => `marked ${assetOf(ctx)} as expired`,
  reference_file_attached: (ctx) => {
    const file = text(ctx.after, "file_name");
    return `attached ${file ? `the file ${file}` : "a file"} to ${referenceOf(ctx, ctx.after?.id ?? ctx.entry.object_id)}`;
  },
  claim_reference_linked: (ctx) => {
    const page = text(ctx.after, "page");
    return `cited ${referenceOf(ctx, ctx.after?.reference_id)}${page ? ` (page ${page})` : ""} for ${claimOf(ctx)}`;
  },
  claim_reference_unlinked: (ctx) => `removed ${referenceOf(ctx, ctx.before?.reference_id)} from the support of ${claimOf(ctx)}`,

  asset_expiry_set: (ctx) => {
    const at = text(ctx.after, "expires_at");
    return at ? `set the expiry of ${assetOf(ctx)} to ${at.slice(0, 10)}` : `cleared the expiry of ${assetOf(ctx)}`;
  },

  // The review workflow.
  review_withdrawn: (ctx) => `withdrew the review round of ${assetOf(ctx)}`,
  review_closed: (ctx) => {
    const outcome = text(ctx.meta, "outcome");
    return outcome ? `closed the review round of ${assetOf(ctx)} as ${assetStatusLabel(outcome).toLowerCase()}` : `closed the review round of ${assetOf(ctx)}`;
  },
  review_step_activated: (ctx) => `opened the ${stepOf(ctx)} of ${assetOf(ctx)}`,
  review_step_claimed: (ctx) => `claimed the ${stepOf(ctx)} of ${assetOf(ctx)}`,
  review_step_assigned: (ctx) => `assigned the ${stepOf(ctx)} of ${assetOf(ctx)}`,
  review_step_overdue: (ctx) => `marked the ${stepOf(ctx)} of ${assetOf(ctx)} as overdue`,
  review_step_skipped: (ctx) => `skipped the ${stepOf(ctx)} of ${assetOf(ctx)}`,
  review_step_approved: (ctx) => `signed the ${stepOf(ctx)} of ${assetOf(ctx)}: approved`,
  review_step_approved_with_changes: (ctx) => `signed the ${stepOf(ctx)} of ${assetOf(ctx)}: approved with changes`,
  review_step_changes_requested: (ctx) => `signed the ${stepOf(ctx)} of ${assetOf(ctx)}: changes requested`,
  review_step_rejected: (ctx) => `signed the ${stepOf(ctx)} of ${assetOf(ctx)}: rejected`,
  signature_failed: () => "failed to sign a review decision (wrong password or code)",
  signing_locked: () => "was locked out of signing after repeated failed attempts",
  change_request_raised: (ctx) => {
    const t = text(ctx.after, "text");
    return t ? `requested a change to ${assetOf(ctx)}: ${quoted(t)}` : `requested a change to ${assetOf(ctx)}`;
  },
  change_request_done: (ctx) => `marked a requested change to ${assetOf(ctx)} as done`,
  change_request_confirmed: (ctx) => `confirmed a requested change to ${assetOf(ctx)}`,
  workflow_template_saved: (ctx) => {
    const name = text(ctx.after, "name");
    return name ? `saved the review workflow ${quoted(name)}` : "saved a review workflow";
  },
  workflow_template_deleted: (ctx) => {
    const name = text(ctx.before, "name");
    return name ? `deleted the review workflow ${quoted(name)}` : "deleted a review workflow";
  },
  review_settings_updated: (ctx) => {
    const months = text(ctx.after, "approval_validity_months");
    return months ? `set approvals to stay valid for ${months} months` : "changed the review settings";
  },
  // Annotations.
  annotation_created: (ctx) => {
    const body = text(ctx.after, "body");
    return body ? `commented on ${assetOf(ctx)}: ${quoted(body)}` : `commented on ${assetOf(ctx)}`;
  },
  annotation_replied: (ctx) => {
    const body = text(ctx.after, "body");
    return body ? `replied to a comment on ${assetOf(ctx)}: ${quoted(body)}` : `replied to a comment on ${assetOf(ctx)}`;
  },
  annotation_resolved: (ctx) => `resolved a comment on ${assetOf(ctx)}`,
  annotation_reopened: (ctx) => `reopened a comment on ${assetOf(ctx)}`,
  annotations_carried_forward: (ctx) => {
    const n = text(ctx.meta, "threads");
    const orphaned = text(ctx.meta, "orphaned");
    const lost = orphaned && orphaned !== "0" ? ` (${orphaned} no longer found in the text)` : "";
    return `carried ${n === "1" ? "1 open comment" : `${n ?? "the open"} comments`} onto the new version of ${assetOf(ctx)}${lost}`;
  },
  // Compliance checks.
  finding_dismissed: (ctx) => {
    const rule = text(ctx.meta, "rule");
    const reason = text(ctx.meta, "reason");
    const what = rule ? `the ${rule} finding` : "a compliance finding";
    return `dismissed ${what} on ${assetOf(ctx)}${reason ? `: ${quoted(reason)}` : ""}`;
  },
  finding_reopened: (ctx) => {
    const rule = text(ctx.meta, "rule");
    return `reopened ${rule ? `the ${rule} finding` : "a compliance finding"} on ${assetOf(ctx)}`;
  },
  compliance_rule_saved: (ctx) => {
    const code = text(ctx.meta, "code");
    if (isRec(ctx.meta) && ctx.meta.builtin === true) {
      const state = isRec(ctx.after) && ctx.after.enabled === false ? "switched off" : "switched on";
      return code ? `${state} the built-in rule ${quoted(code)}` : "changed a built-in rule";
    }
    const version = text(ctx.meta, "version");
    return code ? `saved the compliance rule ${quoted(code)}${version ? ` (version ${version})` : ""}` : "saved a compliance rule";
  },
  guideline_saved: (ctx) => {
    const title = text(ctx.after, "title");
    return title ? `saved the guideline ${quoted(title)}` : "saved a guideline";
  },
  guideline_deleted: (ctx) => {
    const title = text(ctx.before, "title");
    return title ? `deleted the guideline ${quoted(title)}` : "deleted a guideline";
  },
  compliance_checked: (ctx) => {
    const n = text(ctx.meta, "findings");
    const fixed = text(ctx.meta, "fixed");
    const found = n === "0" ? "no findings" : n === "1" ? "1 finding" : `${n ?? "its"} findings`;
    const closed = fixed && fixed !== "0" ? `; ${fixed} fixed since the previous version` : "";
    return `checked the new version of ${assetOf(ctx)}: ${found}${closed}`;
  },
  // Exports.
  review_record_exported: (ctx) => {
    const round = text(ctx.meta, "round");
    const format = text(ctx.meta, "format");
    return `exported the review record of ${round ? `round ${round} of ` : ""}${assetOf(ctx)}${format ? ` (${format.toUpperCase()})` : ""}`;
  },
  form_2253_exported: (ctx) => {
    const format = text(ctx.meta, "format");
    return `exported the Form 2253 data of ${assetOf(ctx)}${format ? ` (${format.toUpperCase()})` : ""}`;
  },
  notifications_read: (ctx) => {
    const n = text(ctx.meta, "count");
    return n === "1" ? "marked a notification as read" : n ? `marked ${n} notifications as read` : "marked notifications as read";
  },

  // Storage.
  "bucket.create": (ctx) => `created ${bucket(ctx)}`,
  "bucket.update": (ctx) => `changed ${bucket(ctx)}`,
  "bucket.empty": (ctx) => `emptied ${bucket(ctx)}`,
  "bucket.delete": (ctx) => `deleted ${bucket(ctx)}`,
  "object.create": (ctx) => `uploaded ${storedFile(ctx.after)}`,
  "object.update": (ctx) => `replaced ${storedFile(ctx.after ?? ctx.before)}`,
  "object.delete": (ctx) => `deleted ${storedFile(ctx.before)}`,
  "object.move": (ctx) => {
    const to = text(ctx.after, "name");
    return `moved ${storedFile(ctx.before)}${to ? ` to ${to}` : ""}`;
  },
  "object.copy": (ctx) => `copied ${storedFile(ctx.before)}`,

  // The workspace: members, invitations, sessions, the audit trail.
  invite_created: (ctx) => {
    const email = text(ctx.after, "email");
    const role = text(ctx.after, "role");
    if (email && role) return `created an invitation for ${email} as ${roleLabel(role)}`;
    return email ? `created an invitation for ${email}` : "created an invitation";
  },
  invite_accepted: (ctx) => {
    const role = text(ctx.meta, "role");
    return role ? `joined as ${roleLabel(role)}` : "joined the organization";
  },
  invite_revoked: (ctx) => {
    const email = text(ctx.after ?? ctx.before, "email");
    return email ? `revoked the invitation of ${email}` : "revoked an invitation";
  },
  invite_resent: (ctx) => {
    const email = text(ctx.meta, "email");
    return email ? `re-sent the invitation to ${email}` : "re-sent an invitation";
  },
  member_deactivated: (ctx) => `deactivated ${memberOf(ctx)}`,
  member_reactivated: (ctx) => `reactivated ${memberOf(ctx)}`,
  session_revoked: () => "signed out one of their sessions",
  audit_chain_verified: () => "verified the audit trail",
  audit_chain_verification_failed: () => "ran an audit trail check that found a break",

  // The identity service's events.
  login: (ctx) => (text(ctx.meta, "method") === "demo" ? "opened the demo workspace" : "signed in"),
  login_failed: () => "failed to sign in",
  logout: () => "signed out",
  token_revoked: () => "had a session ended because its refresh token was used twice",
  user_signedup: () => "signed up",
  user_repeated_signup: () => "tried to sign up again with an address that has an account",
  user_confirmation_requested: () => "was sent a link to confirm their e-mail address",
  user_recovery_requested: () => "asked for a password reset link",
  user_reauthenticate_requested: () => "asked for a code to confirm a password change",
  user_modified: (ctx) => (text(ctx.meta, "change") === "email" ? "changed their e-mail address" : "changed their account"),
  user_updated_password: () => "changed their password",
  user_deleted: () => "had their account deleted",
  admin_generate_link: (ctx) => {
    const type = text(ctx.meta, "type");
    return `was sent ${type ? `a ${humanize(type)} link` : "a link"} made by an administrator`;
  },
  verification_attempted: (ctx) => (text(ctx.meta, "result") === "rejected" ? "entered a code that was not accepted" : "confirmed a one-time code"),
  factor_in_progress: () => "started setting up two-step verification",
  factor_verified: () => "turned on two-step verification",
  factor_deleted: () => "removed a two-step verification method",
  challenge_created: () => "was asked for a two-step verification code",
  db_migrated: (ctx) => {
    const from = text(ctx.meta, "before");
    const to = text(ctx.meta, "after");
    return from && to ? `migrated the database from level ${from} to ${to}` : "migrated the database";
  },
  safe_admin_created: (ctx) => withEmail("created the administrator", emailIn(ctx.meta, "email"), "in safe mode", "created an administrator in safe mode"),
  dev_admin_forced: (ctx) => withEmail("force-created the development administrator", emailIn(ctx.meta, "email"), "", "force-created a development administrator"),
  admin_promoted: (ctx) => withEmail("made", emailIn(ctx.meta, "email"), "an administrator", "made an account an administrator"),
  operator_granted: (ctx) => withEmail("made", emailIn(ctx.meta, "email"), "an instance operator", "became an instance operator"),
  operator_revoked: (ctx) => withEmail("removed", emailIn(ctx.meta, "email"), "as an instance operator", "removed an instance operator"),
  workspace_settings_updated: () => "changed the workspace security settings",
  demo_data_seeded: () => "loaded the demo data",
  demo_data_removed: () => "removed the demo data",

  // The app's own entries.
  organization_created: (ctx) => {
    const name = text(ctx.meta, "organization_name");
    return name ? `set up the organization ${name}` : "set up the organization";
  },
  onboarding_completed: () => "completed the workspace setup",
  user_invited: (ctx) => {
    const email = emailIn(ctx.meta, "invited_email", "email");
    const role = text(ctx.meta, "invited_role");
    if (email && role) return `invited ${email} as ${roleLabel(role)}`;
    return email ? `invited ${email}` : "invited someone";
  },
  demo_role_switched: (ctx) => {
    const role = text(ctx.meta, "role");
    return role ? `switched the demo role to ${roleLabel(role)}` : "switched the demo role";
  },
  demo_role_reset: () => "reset the demo role",
  client_error: () => "ran into an error in the app",
};

function withEmail(verb: string, email: string | undefined, rest: string, fallback: string): string {
  return email ? `${verb} ${email}${rest ? ` ${rest}` : ""}` : fallback;
}

function memberOf(ctx: Ctx): string {
  const r = ctx.after ?? ctx.before;
  return text(r, "full_name") ?? text(r, "email") ?? "a member";
}

/** Whether the action has a sentence of its own (not the words of its name). */
export function hasSentence(action: string): boolean {
  return action in SENTENCES || contentAction(action) !== undefined || tableAction(action) !== undefined;
}

/**
 * What the actor did, as the end of a sentence that starts with their name:
 * "created the asset FB-US-0001", "invited a@x.io as Legal reviewer". An
 * action without a sentence reads as its words ("asset viewed").
 */
export function describeAction(entry: SentenceEntry, subjects: Subjects = {}): string {
  const ctx: Ctx = { entry, meta: entry.meta, before: subjectRow(entry.before_json), after: subjectRow(entry.after_json), subjects };
  const fixed = SENTENCES[entry.action];
  if (fixed) return fixed(ctx);
  const content = contentAction(entry.action);
  if (content) return contentSentence(content.noun, content.verb, ctx);
  const table = tableAction(entry.action);
  if (table) return table.table(ctx, table.verb);
  const dot = entry.action.indexOf(".");
  const verb = dot > 0 ? OPERATION_VERBS[entry.action.slice(dot + 1)] : undefined;
  if (verb) return `${verb} ${humanize(entry.action.slice(0, dot))}`;
  return humanize(entry.action);
}

/** The whole sentence: "Mary Marketer created the asset FB-US-0001". */
export function auditSentence(actor: string, entry: SentenceEntry, subjects: Subjects = {}): string {
  return `${actor} ${describeAction(entry, subjects)}`;
}

/** The same, capitalised and without the actor, for a list that shows the actor beside it: "Created the asset FB-US-0001". */
export function actionSummary(entry: SentenceEntry, subjects: Subjects = {}): string {
  const text = describeAction(entry, subjects);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The rows the sentences of these entries would name but did not record:
 * the asset of a version, a review decision or an archived asset; the
 * reference and the claim a citation links. Screens look them up
 * (entities/audit useAuditSubjects) and pass them to the sentences.
 */
export function subjectRefs(entries: readonly SentenceEntry[]): SubjectRef[] {
  const out = new Map<string, SubjectRef>();
  const add = (table: SubjectTable, id: unknown) => {
    if (typeof id === "string" && id !== "") out.set(`${table}:${id}`, { table, id });
  };
  for (const e of entries) {
    const after = subjectRow(e.after_json);
    const before = subjectRow(e.before_json);
    const r = after ?? before;
    switch (e.action) {
      case "asset_version_created":
      case "asset_versions.insert":
      case "asset_versions.update":
      case "asset_versions.upsert":
      case "asset_versions.delete":
      case "version_modules.insert":
      case "version_modules.delete":
        add("assets", r?.asset_id);
        break;
      case "reference_file_attached":
        add("references", r?.id ?? e.object_id);
        break;
      case "claim_reference_linked":
      case "claim_reference_unlinked":
      case "claim_references.update":
        add("claims", r?.claim_id);
        add("references", r?.reference_id);
        break;
      default:
        if (/^asset_(submitted|approved|approved_with_changes|changes_requested|rejected|withdrawn|expired|archived)$/.test(e.action)) {
          if (!(r && OBJECTS.asset?.named(r)) && !text(e.meta, "job_code")) add("assets", r?.asset_id ?? e.object_id);
        } else if (/^(review_|change_request_|asset_expiry_set$)/.test(e.action)) {
          add("assets", r?.asset_id ?? (e.object_type === "assets" ? e.object_id : undefined));
        }
    }
  }
  return [...out.values()];
}
