import { keepPreviousData, queryOptions, type QueryClient, type QueryKey } from "@tanstack/react-query";
import { unwrap } from "@/lib/data";
import { Constants, type Database } from "@/lib/database.types";
import { isUuid } from "@/lib/early";
import { getSupabase } from "@/lib/supabase";
import type { TextTarget } from "@/entities/annotations";
import { reviewKeys } from "@/entities/reviews";

/**
 * Compliance checks' server state (issue 17): a version's findings
 * (`version_findings`) and the functions that dismiss and reopen them, the
 * organisation's rule set (`compliance_rule_list`, `save_compliance_rule`,
 * `set_builtin_rule`), its guideline documents (the `guideline_documents`
 * table, `save_guideline`, `delete_guideline`) and the stateless
 * `check_text` behind the Guidelines try-it box — typed fetchers, and what
 * each change refreshes ({@link invalidateAfterCompliance}). The server
 * runs the rule engine, checks who may write, and audits.
 */

export * from "./text";

type Enums = Database["public"]["Enums"];

/** How serious a finding is (the server's vocabulary, least serious first). */
export type Severity = Enums["finding_severity"];
/** Most serious first: the order findings are grouped and listed in. */
export const SEVERITIES: readonly Severity[] = [...Constants.public.Enums.finding_severity].reverse();

/** The built-in rules' codes (product design, section 5). */
export const BUILTIN_CODES = [
  "superlative",
  "comparative",
  "unsubstantiated",
  "fair-balance",
  "established-name",
  "off-label",
  "new-claim",
  "expired-module",
  "pi-reference",
  "channel-length",
  "readability",
] as const;

/** A finding as check_text gives it: offsets count Unicode code points. */
export interface CheckFinding {
  rule: string;
  rule_version: number;
  severity: Severity;
  start: number;
  end: number;
  quote: string;
  message: string;
  guidance: string;
}

/** What a version's finding is now. */
export type FindingState = Enums["finding_state"];

/** A finding saved on a version (version_findings). */
export interface VersionFinding extends CheckFinding {
  id: string;
  state: FindingState;
  /** Where it is in the version's text, as an annotation's text target. */
  target: TextTarget | null;
  sort_page: number | null;
  sort_pos: number | null;
  dismissed_by: string | null;
  dismissed_by_name: string | null;
  dismissed_at: string | null;
  dismiss_reason: string | null;
  /** The version the finding was first made on (it was carried from there). */
  first_version_id: string | null;
}

/** version_findings' answer: `pending` while a large file is still being checked. */
export interface VersionFindings {
  pending: boolean;
  checked_at: string | null;
  findings: VersionFinding[];
}

/** A built-in rule with the organisation's switch and severity. */
export interface BuiltinRule {
  code: string;
  version: number;
  title: string;
  severity: Severity;
  summary: string;
  enabled: boolean;
  default_severity: Severity;
}

/** Where an organisation rule applies; an empty or missing list means everywhere. */
export interface RuleScope {
  asset_types?: string[];
  audiences?: string[];
  channels?: string[];
  markets?: string[];
}

/** The scope's dimensions, in the order the editor shows them. */
export const SCOPE_KEYS = ["asset_types", "audiences", "channels", "markets"] as const;
export type ScopeKey = (typeof SCOPE_KEYS)[number];

/** An organisation's own rule (compliance_rules). */
export interface OrgRule {
  id: string;
  org_id: string;
  code: string;
  title: string;
  kind: Enums["compliance_rule_kind"];
  phrases: string[];
  pattern: string;
  severity: Severity;
  message: string;
  guidance: string;
  scope: RuleScope;
  enabled: boolean;
  version: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** compliance_rule_list's answer. */
export interface RuleList {
  builtins: BuiltinRule[];
  rules: OrgRule[];
}

/** Where a guideline comes from. */
export type GuidelineSource = Enums["guideline_source"];
export const GUIDELINE_SOURCES: readonly GuidelineSource[] = Constants.public.Enums.guideline_source;
const SOURCE_LABELS: Partial<Record<string, string>> = { fda: "FDA", opdp: "OPDP", phrma: "PhRMA", abpi: "ABPI", internal: "Internal" };
/** "FDA", "PhRMA", "Internal"… */
export function guidelineSourceLabel(source: string): string {
  return SOURCE_LABELS[source] ?? source;
}

/** A guideline document (guideline_documents). */
export interface Guideline {
  id: string;
  org_id: string;
  title: string;
  source: GuidelineSource;
  /** Markdown. */
  body: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** What check_text takes besides the text. */
export interface CheckContext {
  product_id?: string;
  asset_type?: string;
  audience?: string;
  channel?: string;
  market?: string;
  /** YYYY-MM-DD. */
  as_of?: string;
}

/** What save_compliance_rule takes (no id: a new rule). */
export interface RuleInput {
  id?: string;
  code: string;
  title: string;
  kind: Enums["compliance_rule_kind"];
  phrases?: string[];
  pattern?: string;
  severity: Severity;
  message: string;
  guidance?: string;
  scope?: RuleScope;
  enabled?: boolean;
}

/** What save_guideline takes (no id: a new document). */
export interface GuidelineInput {
  id?: string;
  title: string;
  source: GuidelineSource;
  body: string;
}

// ---- the calls (the functions are not in the generated types' registry yet: typed here from the contract)

interface Result {
  data: unknown;
  error: { message: string; code?: string; details?: string | null; fields?: unknown } | null;
  status: number;
}
type Rpc = (name: string, args: Record<string, unknown>) => PromiseLike<Result>;

async function call<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const sb = await getSupabase();
  const rpc = sb.rpc.bind(sb) as unknown as Rpc;
  return unwrap(await rpc(name, args)) as T;
}

export const complianceKeys = {
  all: ["compliance"] as const,
  /** Every version's findings of an asset: a dismissal may reach a finding carried to later versions. */
  findings: (assetId: string) => [...complianceKeys.all, "findings", assetId] as const,
  versionFindings: (assetId: string, versionId: string) => [...complianceKeys.findings(assetId), versionId] as const,
  rules: () => [...complianceKeys.all, "rules"] as const,
  guidelines: () => [...complianceKeys.all, "guidelines"] as const,
  /** check_text's answers, by text and context: they depend on the rule set. */
  checks: () => [...complianceKeys.all, "check"] as const,
  check: (text: string, context: CheckContext) => [...complianceKeys.checks(), text, context] as const,
};

/** How often a version whose check is still running is asked again. */
export const PENDING_POLL_MS = 1500;

/** A version's findings in reading order, asked again every 1.5 s while its check runs. */
export function versionFindingsQuery(assetId: string, versionId: string | null | undefined, enabled = true) {
  return queryOptions({
    queryKey: complianceKeys.versionFindings(assetId, versionId ?? ""),
    enabled: enabled && isUuid(versionId ?? ""),
    refetchInterval: (query) => (query.state.data?.pending ? PENDING_POLL_MS : false),
    queryFn: async (): Promise<VersionFindings> => {
      const answer = await call<VersionFindings | null>("version_findings", { version_id: versionId ?? "" });
      return { pending: answer?.pending ?? false, checked_at: answer?.checked_at ?? null, findings: answer?.findings ?? [] };
    },
  });
}

/** The built-in rules with the organisation's settings, and its own rules. */
export function ruleListQuery() {
  return queryOptions({
    queryKey: complianceKeys.rules(),
    queryFn: async (): Promise<RuleList> => {
      const answer = await call<RuleList | null>("compliance_rule_list", {});
      return { builtins: answer?.builtins ?? [], rules: answer?.rules ?? [] };
    },
  });
}

/** The organisation's guideline documents, by title. */
export function guidelinesQuery() {
  return queryOptions({
    queryKey: complianceKeys.guidelines(),
    queryFn: async (): Promise<Guideline[]> => {
      const sb = await getSupabase();
      // The table is not in the generated types' registry yet.
      const table = (sb as unknown as { from: (t: string) => { select: (c: string) => { order: (c: string, o: { ascending: boolean }) => PromiseLike<Result> } } }).from(
        "guideline_documents",
      );
      return (unwrap(await table.select("*").order("title", { ascending: true })) as Guideline[] | null) ?? [];
    },
  });
}

/** The findings `text` would get (check_text); saves nothing. */
export async function checkText(text: string, context: CheckContext = {}): Promise<CheckFinding[]> {
  const answer = await call<{ findings: CheckFinding[] } | null>("check_text", { text, ...context });
  return answer?.findings ?? [];
}

/** check_text as a query, for the try-it box: the last answer stays on screen while the next is asked. */
export function checkTextQuery(text: string, context: CheckContext = {}, enabled = true) {
  return queryOptions({
    queryKey: complianceKeys.check(text, context),
    enabled: enabled && text.trim() !== "",
    staleTime: 60_000,
    placeholderData: keepPreviousData,
    queryFn: () => checkText(text, context),
  });
}

/** Dismisses an open finding with a reason (dismiss_finding): writers of the asset and reviewers. */
export function dismissFinding(findingId: string, reason: string): Promise<VersionFinding> {
  return call<VersionFinding>("dismiss_finding", { finding_id: findingId, reason });
}

/** Reopens a dismissed finding (reopen_finding): reviewers and admins. */
export function reopenFinding(findingId: string): Promise<VersionFinding> {
  return call<VersionFinding>("reopen_finding", { finding_id: findingId });
}

/** Saves an organisation rule (save_compliance_rule): a new one without an id; owner/admin. */
export function saveComplianceRule(input: RuleInput): Promise<OrgRule> {
  return call<OrgRule>("save_compliance_rule", { ...input });
}

/** Switches a built-in rule and sets its severity (set_builtin_rule); owner/admin. */
export function setBuiltinRule(code: string, enabled: boolean, severity?: Severity): Promise<unknown> {
  return call<unknown>("set_builtin_rule", severity ? { code, enabled, severity } : { code, enabled });
}

/** Saves a guideline document (save_guideline); owner/admin. */
export function saveGuideline(input: GuidelineInput): Promise<Guideline> {
  return call<Guideline>("save_guideline", { ...input });
}

/** Deletes a guideline document (delete_guideline); owner/admin. */
export function deleteGuideline(id: string): Promise<unknown> {
  return call<unknown>("delete_guideline", { id });
}

// ---- what each function changes

/** The compliance functions that change something. */
export type ComplianceChange = "dismiss" | "reopen" | "save_rule" | "set_builtin" | "save_guideline" | "delete_guideline";

/**
 * The caches `change` makes stale. A dismissal or a reopening changes the
 * asset's findings (on every version the finding reached) and its
 * ready-for-review gate (open critical findings block submission); a rule
 * change the rule list and what check_text answers (saved findings keep
 * the rule version that made them); a guideline its list.
 */
export function complianceEffects(change: ComplianceChange, assetId = ""): QueryKey[] {
  switch (change) {
    case "dismiss":
    case "reopen":
      return [complianceKeys.findings(assetId), reviewKeys.gate(assetId)];
    case "save_rule":
    case "set_builtin":
      return [complianceKeys.rules(), complianceKeys.checks()];
    case "save_guideline":
    case "delete_guideline":
      return [complianceKeys.guidelines()];
  }
}

/** Refreshes what `change` changed (see {@link complianceEffects}); `assetId` for a finding's change. */
export async function invalidateAfterCompliance(queryClient: QueryClient, change: ComplianceChange, assetId = ""): Promise<void> {
  await Promise.all(complianceEffects(change, assetId).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
