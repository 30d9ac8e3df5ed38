import { z } from "zod";
import { BUILTIN_CODES, GUIDELINE_SOURCES, type GuidelineInput, type OrgRule, type RuleInput, type RuleScope, SCOPE_KEYS } from "./index";
import { phraseLines } from "./text";

/**
 * The compliance forms' checks in the server's words (the contract of
 * issue 17), so a form says before sending what the server would say
 * after; the server stays the authority (a regular expression it cannot
 * compile, a duplicate code) and its per-field refusals land on the same
 * fields.
 */

const characters = (s: string) => Array.from(s).length;

/** A dismissal's reason: 1 to 2000 characters, trimmed. */
export const MAX_DISMISS_REASON = 2000;

export const dismissSchema = z.object({ reason: z.string() }).transform((v, ctx) => {
  const reason = v.reason.trim();
  if (reason === "") ctx.addIssue({ code: "custom", path: ["reason"], message: "Say why the finding does not apply." });
  else if (characters(reason) > MAX_DISMISS_REASON) ctx.addIssue({ code: "custom", path: ["reason"], message: "The reason is longer than 2000 characters." });
  return { reason };
});
export type DismissInput = z.input<typeof dismissSchema>;

const SEVERITY_VALUES = ["info", "warning", "critical"] as const;

/** The rule editor's values: phrases one a line, the scope's lists as chips. */
export const ruleSchema = z
  .object({
    id: z.string(),
    code: z.string(),
    title: z.string(),
    kind: z.enum(["phrases", "regex"]),
    phrases: z.string(),
    pattern: z.string(),
    severity: z.enum(SEVERITY_VALUES, { error: "Choose a severity." }),
    message: z.string(),
    guidance: z.string(),
    enabled: z.boolean(),
    asset_types: z.array(z.string()),
    audiences: z.array(z.string()),
    channels: z.array(z.string()),
    markets: z.array(z.string()),
  })
  .superRefine((v, ctx) => {
    const code = v.code.trim();
    if (!/^[a-z0-9-]{2,40}$/.test(code)) {
      ctx.addIssue({ code: "custom", path: ["code"], message: "Use 2 to 40 lower-case letters, digits or hyphens." });
    } else if ((BUILTIN_CODES as readonly string[]).includes(code)) {
      ctx.addIssue({ code: "custom", path: ["code"], message: "That code belongs to a built-in rule." });
    }
    const title = characters(v.title.trim());
    if (title === 0) ctx.addIssue({ code: "custom", path: ["title"], message: "The title is required." });
    else if (title > 200) ctx.addIssue({ code: "custom", path: ["title"], message: "The title is longer than 200 characters." });
    if (v.kind === "phrases" && phraseLines(v.phrases).length === 0) ctx.addIssue({ code: "custom", path: ["phrases"], message: "Add at least one phrase, one a line." });
    if (v.kind === "regex") {
      if (v.pattern.trim() === "") ctx.addIssue({ code: "custom", path: ["pattern"], message: "The regular expression is required." });
      else if (!compiles(v.pattern.trim())) ctx.addIssue({ code: "custom", path: ["pattern"], message: "This regular expression does not compile." });
    }
    const message = characters(v.message.trim());
    if (message === 0) ctx.addIssue({ code: "custom", path: ["message"], message: "Say what the finding means." });
    else if (message > 500) ctx.addIssue({ code: "custom", path: ["message"], message: "The message is longer than 500 characters." });
    if (characters(v.guidance.trim()) > 2000) ctx.addIssue({ code: "custom", path: ["guidance"], message: "The guidance is longer than 2000 characters." });
  })
  .transform((v): RuleInput => {
    const scope: RuleScope = {};
    for (const key of SCOPE_KEYS) if (v[key].length > 0) scope[key] = v[key];
    return {
      ...(v.id ? { id: v.id } : {}),
      code: v.code.trim(),
      title: v.title.trim(),
      kind: v.kind,
      ...(v.kind === "phrases" ? { phrases: phraseLines(v.phrases) } : { pattern: v.pattern.trim() }),
      severity: v.severity,
      message: v.message.trim(),
      guidance: v.guidance.trim(),
      scope,
      enabled: v.enabled,
    };
  });
export type RuleFormInput = z.input<typeof ruleSchema>;

/**
 * Whether the browser compiles the pattern. The server compiles it as RE2
 * (no look-around, no back-references), so it may still refuse what a
 * browser takes: its message then lands on the field.
 */
function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

/** The editor's values for `rule`, or a new rule's. */
export function ruleValues(rule?: OrgRule): RuleFormInput {
  return {
    id: rule?.id ?? "",
    code: rule?.code ?? "",
    title: rule?.title ?? "",
    kind: rule?.kind ?? "phrases",
    phrases: (rule?.phrases ?? []).join("\n"),
    pattern: rule?.pattern ?? "",
    severity: rule?.severity ?? "warning",
    message: rule?.message ?? "",
    guidance: rule?.guidance ?? "",
    enabled: rule?.enabled ?? true,
    asset_types: rule?.scope.asset_types ?? [],
    audiences: rule?.scope.audiences ?? [],
    channels: rule?.scope.channels ?? [],
    markets: rule?.scope.markets ?? [],
  };
}

/** A guideline document: a title (1 to 200), a source and a markdown body (1 to 100 000 characters). */
export const guidelineSchema = z
  .object({ id: z.string(), title: z.string(), source: z.enum(GUIDELINE_SOURCES as [string, ...string[]], { error: "Choose where the guideline comes from." }), body: z.string() })
  .superRefine((v, ctx) => {
    const title = characters(v.title.trim());
    if (title === 0) ctx.addIssue({ code: "custom", path: ["title"], message: "The title is required." });
    else if (title > 200) ctx.addIssue({ code: "custom", path: ["title"], message: "The title is longer than 200 characters." });
    const body = characters(v.body.trim());
    if (body === 0) ctx.addIssue({ code: "custom", path: ["body"], message: "Write the guideline's text." });
    else if (body > 100_000) ctx.addIssue({ code: "custom", path: ["body"], message: "The text is longer than 100 000 characters." });
  })
  .transform((v): GuidelineInput => ({ ...(v.id ? { id: v.id } : {}), title: v.title.trim(), source: v.source as GuidelineInput["source"], body: v.body.trim() }));
export type GuidelineFormInput = z.input<typeof guidelineSchema>;
