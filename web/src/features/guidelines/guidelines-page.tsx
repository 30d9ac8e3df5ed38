import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { BookOpenText, ListChecks, Plus, ShieldCheck } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { NativeSelect } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import {
  type BuiltinRule,
  type Guideline,
  guidelinesQuery,
  invalidateAfterCompliance,
  type OrgRule,
  ruleListQuery,
  SCOPE_KEYS,
  type Severity,
  setBuiltinRule,
  severityLabel,
  severityVariant,
} from "@/entities/compliance";
import { useProfile } from "@/entities/profile";
import { useReadOnly } from "@/lib/auth";
import { assetTypeLabel, audienceLabel } from "@/lib/content-types";
import { formatDate } from "@/lib/format-time";
import { isAdminRole } from "@/lib/roles";
import { describeServerError, toastServerError } from "@/lib/server-error";
import { useDocumentTitle } from "@/lib/use-document-title";
import { DeleteGuidelineDialog, GuidelineFormDialog, ReadGuidelineDialog, SourceBadge } from "./guideline-dialogs";
import { RuleEditorDialog } from "./rule-editor";
import { TryItBox } from "./try-it";

type GuidelineDialog = { kind: "read" | "edit" | "delete"; guideline: Guideline } | { kind: "new" };

/**
 * Guidelines (/guidelines): the rules every new version is pre-screened
 * against — the built-in checks with the organisation's switches and
 * severities, and its own phrase lists and patterns — a box to try them on
 * sample text, and the guideline documents reviewers apply. Owners and
 * admins change them; everyone else reads.
 */
export function GuidelinesPage() {
  useDocumentTitle("Guidelines");
  const readOnly = useReadOnly();
  const profile = useProfile();
  const manager = isAdminRole(profile.data?.role) && !readOnly;
  const rules = useQuery(ruleListQuery());
  const guidelines = useQuery(guidelinesQuery());
  const [editing, setEditing] = useState<OrgRule | "new" | null>(null);
  const [doc, setDoc] = useState<GuidelineDialog | null>(null);

  return (
    <div className="grid min-w-0 gap-6">
      <PageHeader
        title="Guidelines"
        description="Every new version is checked against these rules before a reviewer opens it. Findings name the rule, quote the text and carry your guidance."
        actions={readOnly ? <ReadOnlyNote /> : !manager && profile.data ? <ReadOnlyNote>Owners and admins change the rules and guidelines.</ReadOnlyNote> : null}
      />
      <div className="grid min-w-0 items-start gap-6 xl:grid-cols-[minmax(0,1fr)_26rem]">
        <div className="grid min-w-0 gap-6">
          <Card className="min-w-0">
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <ShieldCheck aria-hidden="true" className="size-5 text-primary" /> Built-in rules
              </CardTitle>
              <CardDescription>Deterministic checks of US and UK promotional rules. Switch off what does not apply to you, or change how serious a finding is.</CardDescription>
            </CardHeader>
            <CardContent>
              {rules.isPending ? (
                <ListSkeleton />
              ) : rules.isError ? (
                <LoadError what="The rules" onRetry={() => void rules.refetch()} />
              ) : (
                <ul className="divide-y" data-testid="builtin-rules">
                  {rules.data.builtins.map((r) => (
                    <BuiltinRow key={r.code} rule={r} manager={manager} />
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>

          <Card className="min-w-0">
            <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
              <div className="grid gap-1.5">
                <CardTitle className="flex items-center gap-2">
                  <ListChecks aria-hidden="true" className="size-5 text-primary" /> Your rules
                </CardTitle>
                <CardDescription>Phrase lists and patterns of your own, with the message and guidance authors see.</CardDescription>
              </div>
              {manager ? (
                <Button
                  size="sm"
                  onClick={() => {
                    setEditing("new");
                  }}
                >
                  <Plus aria-hidden="true" /> New rule
                </Button>
              ) : null}
            </CardHeader>
            <CardContent>
              {rules.isPending ? (
                <ListSkeleton rows={2} />
              ) : rules.isError ? null : rules.data.rules.length === 0 ? (
                <EmptyState icon={ListChecks} title="No rules of your own yet">
                  {manager ? "Add a phrase list or a pattern — a banned word, a competitor's name — and try it on sample text before saving." : "Owners and admins add them."}
                </EmptyState>
              ) : (
                <ul className="divide-y" data-testid="org-rules">
                  {rules.data.rules.map((r) => (
                    <OrgRuleRow
                      key={r.id}
                      rule={r}
                      onEdit={
                        manager
                          ? () => {
                              setEditing(r);
                            }
                          : null
                      }
                    />
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
        </div>

        <div className="grid min-w-0 gap-6">
          <Card className="min-w-0">
            <CardHeader>
              <CardTitle>Try the rules</CardTitle>
              <CardDescription>Type or paste copy: matches are marked as you type, in the colour of their severity. Nothing is saved.</CardDescription>
            </CardHeader>
            <CardContent>
              <TryItBox label="Sample text" />
            </CardContent>
          </Card>

          <Card className="min-w-0">
            <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
              <div className="grid gap-1.5">
                <CardTitle className="flex items-center gap-2">
                  <BookOpenText aria-hidden="true" className="size-5 text-primary" /> Guideline documents
                </CardTitle>
                <CardDescription>The guidance your reviewers apply.</CardDescription>
              </div>
              {manager ? (
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => {
                    setDoc({ kind: "new" });
                  }}
                >
                  <Plus aria-hidden="true" /> New guideline
                </Button>
              ) : null}
            </CardHeader>
            <CardContent>
              {guidelines.isPending ? (
                <ListSkeleton rows={3} />
              ) : guidelines.isError ? (
                <LoadError what="The guidelines" onRetry={() => void guidelines.refetch()} />
              ) : guidelines.data.length === 0 ? (
                <EmptyState icon={BookOpenText} title="No guideline documents yet">
                  {manager ? "Add OPDP's guidance, the PhRMA Code or your own policy so reviewers read it beside the rules." : "Owners and admins add them."}
                </EmptyState>
              ) : (
                <ul className="divide-y" data-testid="guidelines">
                  {guidelines.data.map((g) => (
                    <li key={g.id} className="grid gap-1 py-3 first:pt-0 last:pb-0">
                      <div className="flex min-w-0 flex-wrap items-center gap-2">
                        <button
                          type="button"
                          className="min-w-0 text-left text-sm font-medium wrap-anywhere hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                          onClick={() => {
                            setDoc({ kind: "read", guideline: g });
                          }}
                        >
                          {g.title}
                        </button>
                        <SourceBadge source={g.source} />
                      </div>
                      <p className="line-clamp-2 text-xs leading-5 text-muted-foreground wrap-anywhere">{excerpt(g.body)}</p>
                      <p className="text-xs text-muted-foreground">Updated {formatDate(g.updated_at)}</p>
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
        </div>
      </div>

      {editing ? (
        <RuleEditorDialog
          rule={editing === "new" ? null : editing}
          onClose={() => {
            setEditing(null);
          }}
        />
      ) : null}
      {doc?.kind === "read" ? (
        <ReadGuidelineDialog
          guideline={doc.guideline}
          onClose={() => {
            setDoc(null);
          }}
          onEdit={
            manager
              ? () => {
                  setDoc({ kind: "edit", guideline: doc.guideline });
                }
              : null
          }
          onDelete={
            manager
              ? () => {
                  setDoc({ kind: "delete", guideline: doc.guideline });
                }
              : null
          }
        />
      ) : null}
      {doc?.kind === "edit" || doc?.kind === "new" ? (
        <GuidelineFormDialog
          guideline={doc.kind === "edit" ? doc.guideline : null}
          onClose={() => {
            setDoc(null);
          }}
        />
      ) : null}
      {doc?.kind === "delete" ? (
        <DeleteGuidelineDialog
          guideline={doc.guideline}
          onClose={() => {
            setDoc(null);
          }}
        />
      ) : null}
    </div>
  );
}

/** The first words of a markdown body, without its markup. */
function excerpt(body: string): string {
  return body
    .replace(/[#>*_`[\]()-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 220);
}

/** A built-in rule: its switch and severity for managers, else what they are. */
function BuiltinRow({ rule, manager }: { rule: BuiltinRule; manager: boolean }) {
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: ({ enabled, severity }: { enabled: boolean; severity: Severity }) => setBuiltinRule(rule.code, enabled, severity),
    onSuccess: (_data, v) => {
      toast.success(v.enabled !== rule.enabled ? `${rule.title} ${v.enabled ? "on" : "off"}` : `${rule.title}: ${severityLabel(v.severity).toLowerCase()}`);
    },
    onError: (error) => {
      toastServerError("The rule could not be changed.", describeServerError(error, "The rule could not be changed."));
    },
    onSettled: () => invalidateAfterCompliance(queryClient, "set_builtin"),
  });
  const enabled = change.isPending ? change.variables.enabled : rule.enabled;
  const severity = change.isPending ? change.variables.severity : rule.severity;
  return (
    <li className="flex flex-col gap-3 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-start sm:justify-between" data-rule={rule.code}>
      <div className="grid min-w-0 gap-0.5">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
          {rule.title} <code className="font-mono text-xs font-normal text-muted-foreground">{rule.code}</code>
          {!enabled ? <Badge variant="gray">Off</Badge> : null}
        </p>
        <p className="text-xs leading-5 text-muted-foreground wrap-anywhere">{rule.summary}</p>
      </div>
      {manager ? (
        <div className="flex shrink-0 items-center gap-3">
          <NativeSelect
            aria-label={`${rule.title}: severity`}
            value={severity}
            disabled={change.isPending || !enabled}
            className="h-8 w-32 text-xs"
            onChange={(e) => {
              change.mutate({ enabled, severity: e.target.value as Severity });
            }}
          >
            <option value="critical">Critical{rule.default_severity === "critical" ? " (default)" : ""}</option>
            <option value="warning">Warning{rule.default_severity === "warning" ? " (default)" : ""}</option>
            <option value="info">Info{rule.default_severity === "info" ? " (default)" : ""}</option>
          </NativeSelect>
          <Switch
            aria-label={`${rule.title}: check new versions with it`}
            checked={enabled}
            disabled={change.isPending}
            onCheckedChange={(on) => {
              change.mutate({ enabled: on, severity });
            }}
          />
        </div>
      ) : (
        <div className="flex shrink-0 items-center gap-2">
          <Badge variant={severityVariant(severity)}>{severityLabel(severity)}</Badge>
          <Badge variant={enabled ? "green" : "gray"}>{enabled ? "On" : "Off"}</Badge>
        </div>
      )}
    </li>
  );
}

/** An organisation rule: what it matches, how serious, where it applies. */
function OrgRuleRow({ rule, onEdit }: { rule: OrgRule; onEdit: (() => void) | null }) {
  const scope = SCOPE_KEYS.flatMap((key) =>
    (rule.scope[key] ?? []).map((v) => (key === "asset_types" ? assetTypeLabel(v) : key === "audiences" ? audienceLabel(v) : v)),
  );
  return (
    <li className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-start sm:justify-between" data-rule={rule.code}>
      <div className="grid min-w-0 gap-1">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
          <span className="wrap-anywhere">{rule.title}</span>
          <code className="font-mono text-xs font-normal text-muted-foreground">{rule.code}</code>
          <Badge variant={severityVariant(rule.severity)}>{severityLabel(rule.severity)}</Badge>
          {!rule.enabled ? <Badge variant="gray">Off</Badge> : null}
          <span className="text-xs font-normal text-muted-foreground">v{rule.version}</span>
        </p>
        <p className="text-xs leading-5 text-muted-foreground wrap-anywhere">
          {rule.kind === "phrases" ? (
            <>
              {rule.phrases.length === 1 ? "1 phrase" : `${rule.phrases.length} phrases`}: {rule.phrases.slice(0, 6).map((p) => `“${p}”`).join(", ")}
              {rule.phrases.length > 6 ? "…" : ""}
            </>
          ) : (
            <>
              Pattern <code className="font-mono">{rule.pattern}</code>
            </>
          )}
        </p>
        <p className="text-xs leading-5 wrap-anywhere">{rule.message}</p>
        <div className="flex flex-wrap gap-1">
          {scope.length === 0 ? (
            <span className="text-xs text-muted-foreground">Applies to every asset</span>
          ) : (
            scope.map((s) => (
              <Badge key={s} variant="outline">
                {s}
              </Badge>
            ))
          )}
        </div>
      </div>
      {onEdit ? (
        <Button variant="outline" size="sm" className="shrink-0 self-start" onClick={onEdit} aria-label={`Edit ${rule.title}`}>
          Edit
        </Button>
      ) : null}
    </li>
  );
}

function ListSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <div className="grid gap-3" aria-busy="true" aria-label="Loading">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-10 w-full" />
      ))}
    </div>
  );
}

function LoadError({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-destructive">
      {what} could not be loaded.
      <Button variant="outline" size="sm" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}
