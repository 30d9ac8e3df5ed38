import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { X } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { useController, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { EntityFormDialog } from "@/components/ui/entity-form-dialog";
import { FormField, FormSelect } from "@/components/ui/form";
import { Input, Textarea } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { invalidateAfterCompliance, type OrgRule, saveComplianceRule, type ScopeKey } from "@/entities/compliance";
import { type RuleFormInput, ruleSchema, ruleValues } from "@/entities/compliance/schema";
import { ASSET_TYPES, AUDIENCES, assetTypeLabel, audienceLabel } from "@/lib/content-types";
import { cn } from "@/lib/utils";
import type { DraftRule } from "./draft-matches";
import { TryItBox } from "./try-it";

/**
 * The organisation rule editor: a phrase list (one a line) or a regular
 * expression, its severity, message and guidance, where it applies (asset
 * types, audiences, channels, markets), and beside it a sample text
 * checked as one types — the saved rule set by the server, this rule as
 * edited in the browser. The server compiles the pattern as RE2 and says
 * so on the field when it cannot.
 */
export function RuleEditorDialog({ rule, onClose }: { rule: OrgRule | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm<RuleFormInput, unknown, ReturnType<typeof ruleSchema.parse>>({ resolver: zodResolver(ruleSchema), defaultValues: ruleValues(rule ?? undefined) });
  const [kind, phrases, pattern, severity, message, guidance, code] = useWatch({
    control: form.control,
    name: ["kind", "phrases", "pattern", "severity", "message", "guidance", "code"],
  });
  const draft = useMemo<DraftRule>(() => ({ kind, phrases, pattern, severity, message, guidance, code }), [kind, phrases, pattern, severity, message, guidance, code]);

  return (
    <EntityFormDialog
      form={form}
      title={rule ? `Edit ${rule.title}` : "New rule"}
      description="Findings of this rule name it, quote the text and show your message and guidance to the author. Saving makes a new version of the rule; findings keep the version that made them."
      submitLabel="Save rule"
      errorFallback="The rule could not be saved."
      onClose={onClose}
      className="max-w-5xl"
      onSubmit={async (values) => {
        try {
          await saveComplianceRule(values);
        } finally {
          await invalidateAfterCompliance(queryClient, "save_rule");
        }
        toast.success(rule ? "Rule saved" : "Rule added");
        onClose();
      }}
    >
      <div className="grid min-w-0 gap-6 lg:grid-cols-2">
        <div className="grid min-w-0 content-start gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField name="title" label="Title">
              <Input {...form.register("title")} autoComplete="off" />
            </FormField>
            <FormField name="code" label="Code" hint="Lower-case letters, digits and hyphens; findings name it.">
              <Input {...form.register("code")} autoComplete="off" className="font-mono" readOnly={rule !== null} />
            </FormField>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField name="kind" label="Matches">
              <FormSelect name="kind">
                <option value="phrases">A list of phrases</option>
                <option value="regex">A regular expression</option>
              </FormSelect>
            </FormField>
            <FormField name="severity" label="Severity" hint="Critical findings block submission.">
              <FormSelect name="severity">
                <option value="critical">Critical</option>
                <option value="warning">Warning</option>
                <option value="info">Info</option>
              </FormSelect>
            </FormField>
          </div>
          {kind === "phrases" ? (
            <FormField name="phrases" label="Phrases" hint="One a line. Whole words, any capitals, any spacing between words.">
              <Textarea {...form.register("phrases")} rows={5} spellCheck={false} />
            </FormField>
          ) : (
            <FormField name="pattern" label="Regular expression" hint="RE2 syntax, e.g. (?i)\bcures?\b — no look-around or back-references.">
              <Input {...form.register("pattern")} className="font-mono" spellCheck={false} autoComplete="off" />
            </FormField>
          )}
          <FormField name="message" label="Message" hint="What the finding says to the author.">
            <Input {...form.register("message")} autoComplete="off" />
          </FormField>
          <FormField name="guidance" label="Guidance" hint="How to fix it, or where the rule comes from (optional).">
            <Textarea {...form.register("guidance")} rows={3} />
          </FormField>
          <fieldset className="grid gap-3">
            <legend className="mb-1 text-sm font-medium">Applies to</legend>
            <p className="-mt-1 text-xs leading-5 text-muted-foreground">Nothing chosen in a row means all of them.</p>
            <ChoiceChips name="asset_types" label="Asset types" options={ASSET_TYPES.map((v) => ({ value: v, label: assetTypeLabel(v) }))} />
            <ChoiceChips name="audiences" label="Audiences" options={AUDIENCES.map((v) => ({ value: v, label: audienceLabel(v) }))} />
            <FreeChips name="channels" label="Channels" placeholder="e.g. email, social" />
            <FreeChips name="markets" label="Markets" placeholder="e.g. US, GB" />
          </fieldset>
          <EnabledSwitch />
        </div>
        <div className="min-w-0">
          <TryItBox
            label="Try it on sample text"
            hint="Marks what your saved rules find and what this rule, as you edit it, would find."
            draft={draft}
          />
        </div>
      </div>
    </EntityFormDialog>
  );
}

function EnabledSwitch() {
  const id = useId();
  const {
    field: { value, onChange },
  } = useController<RuleFormInput, "enabled">({ name: "enabled" });
  return (
    <div className="flex items-center gap-3">
      <Switch id={id} checked={value} onCheckedChange={onChange} />
      <Label htmlFor={id}>{value ? "On: new versions are checked with it" : "Off: saved, but not checked"}</Label>
    </div>
  );
}

/** A scope row of fixed choices, each a toggle chip. */
function ChoiceChips({ name, label, options }: { name: ScopeKey; label: string; options: { value: string; label: string }[] }) {
  const id = useId();
  const {
    field: { value, onChange },
  } = useController<RuleFormInput, ScopeKey>({ name });
  return (
    <div className="grid gap-1.5" role="group" aria-labelledby={id}>
      <span id={id} className="text-xs font-medium text-muted-foreground">
        {label}
      </span>
      <div className="flex flex-wrap gap-1.5">
        {options.map((o) => {
          const on = value.includes(o.value);
          return (
            <button
              key={o.value}
              type="button"
              aria-pressed={on}
              onClick={() => {
                onChange(on ? value.filter((v) => v !== o.value) : [...value, o.value]);
              }}
              className={cn(
                "rounded-full border px-2.5 py-0.5 text-xs leading-5 transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
                on ? "border-primary bg-primary text-primary-foreground" : "bg-background hover:bg-muted",
              )}
            >
              {o.label}
            </button>
          );
        })}
      </div>
    </div>
  );
}

/** A scope row of typed values (channels, markets): Enter or a comma adds one. */
function FreeChips({ name, label, placeholder }: { name: ScopeKey; label: string; placeholder: string }) {
  const id = useId();
  const [draft, setDraft] = useState("");
  const {
    field: { value, onChange },
  } = useController<RuleFormInput, ScopeKey>({ name });
  const add = () => {
    const v = draft.trim().replace(/,$/, "").trim();
    if (v && !value.some((x) => x.toLowerCase() === v.toLowerCase())) onChange([...value, v]);
    setDraft("");
  };
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="text-xs font-medium text-muted-foreground">
        {label}
      </label>
      <div className="flex min-w-0 flex-wrap items-center gap-1.5">
        {value.map((v) => (
          <span key={v} className="inline-flex items-center gap-1 rounded-full border bg-muted px-2 py-0.5 text-xs leading-5">
            {v}
            <button
              type="button"
              aria-label={`Remove ${v}`}
              className="rounded-full hover:text-destructive focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              onClick={() => {
                onChange(value.filter((x) => x !== v));
              }}
            >
              <X aria-hidden="true" className="size-3" />
            </button>
          </span>
        ))}
        <Input
          id={id}
          value={draft}
          placeholder={placeholder}
          className="h-8 w-40 min-w-0 flex-1 text-xs"
          onChange={(e) => {
            setDraft(e.target.value);
          }}
          onKeyDown={(e) => {
            if (e.key === "Enter" || e.key === ",") {
              e.preventDefault();
              add();
            }
          }}
          onBlur={add}
        />
        {draft.trim() ? (
          <Button type="button" variant="outline" size="sm" onClick={add}>
            Add
          </Button>
        ) : null}
      </div>
    </div>
  );
}
