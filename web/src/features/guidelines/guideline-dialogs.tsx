import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import Markdown, { type Components } from "react-markdown";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { EntityFormDialog } from "@/components/ui/entity-form-dialog";
import { FormField, FormSelect } from "@/components/ui/form";
import { Input, Textarea } from "@/components/ui/input";
import { deleteGuideline, GUIDELINE_SOURCES, type Guideline, guidelineSourceLabel, invalidateAfterCompliance, saveGuideline } from "@/entities/compliance";
import { type GuidelineFormInput, guidelineSchema } from "@/entities/compliance/schema";
import { formatDate } from "@/lib/format-time";
import { describeServerError, toastServerError } from "@/lib/server-error";

/** A guideline's source as a badge: regulators apart from the organisation's own. */
export function SourceBadge({ source }: { source: string }) {
  return <Badge variant={source === "internal" ? "gray" : "blue"}>{guidelineSourceLabel(source)}</Badge>;
}

/**
 * Markdown's elements in the app's type. react-markdown builds React
 * elements from the markdown itself and renders no raw HTML, and its URL
 * filter drops javascript: and other unsafe links, so a guideline cannot
 * run script in a reader's session.
 */
const MARKDOWN: Components = {
  h1: ({ children }) => <h3 className="mt-4 text-lg font-semibold first:mt-0">{children}</h3>,
  h2: ({ children }) => <h4 className="mt-4 text-base font-semibold first:mt-0">{children}</h4>,
  h3: ({ children }) => <h5 className="mt-3 text-sm font-semibold first:mt-0">{children}</h5>,
  p: ({ children }) => <p className="mt-2 leading-6 first:mt-0">{children}</p>,
  ul: ({ children }) => <ul className="mt-2 list-disc space-y-1 pl-5">{children}</ul>,
  ol: ({ children }) => <ol className="mt-2 list-decimal space-y-1 pl-5">{children}</ol>,
  a: ({ children, href }) => (
    <a href={href} target="_blank" rel="noreferrer noopener" className="text-primary underline underline-offset-2">
      {children}
    </a>
  ),
  blockquote: ({ children }) => <blockquote className="mt-2 border-l-2 pl-3 text-muted-foreground">{children}</blockquote>,
  code: ({ children }) => <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs">{children}</code>,
  img: ({ alt }) => <span className="text-muted-foreground">[{alt ?? "image"}]</span>,
};

/** A guideline's markdown, rendered. */
export function GuidelineBody({ body }: { body: string }) {
  return (
    <div className="min-w-0 text-sm wrap-anywhere" data-testid="guideline-body">
      <Markdown components={MARKDOWN}>{body}</Markdown>
    </div>
  );
}

/** Reading a guideline, with Edit and Delete for those who may. */
export function ReadGuidelineDialog({ guideline, onEdit, onDelete, onClose }: { guideline: Guideline; onEdit: (() => void) | null; onDelete: (() => void) | null; onClose: () => void }) {
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <DialogContent className="max-h-[90dvh] max-w-3xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle className="wrap-anywhere">{guideline.title}</DialogTitle>
          <DialogDescription className="flex flex-wrap items-center gap-2">
            <SourceBadge source={guideline.source} /> Updated {formatDate(guideline.updated_at)}
          </DialogDescription>
        </DialogHeader>
        <GuidelineBody body={guideline.body} />
        <DialogFooter>
          {onDelete ? (
            <Button variant="ghost" className="text-destructive sm:mr-auto" onClick={onDelete}>
              Delete
            </Button>
          ) : null}
          {onEdit ? (
            <Button variant="outline" onClick={onEdit}>
              Edit
            </Button>
          ) : null}
          <Button onClick={onClose}>Close</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Writing a guideline: title, source and a markdown body. */
export function GuidelineFormDialog({ guideline, onClose }: { guideline: Guideline | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm<GuidelineFormInput, unknown, ReturnType<typeof guidelineSchema.parse>>({
    resolver: zodResolver(guidelineSchema),
    defaultValues: { id: guideline?.id ?? "", title: guideline?.title ?? "", source: guideline?.source ?? "internal", body: guideline?.body ?? "" },
  });
  return (
    <EntityFormDialog
      form={form}
      title={guideline ? "Edit guideline" : "New guideline"}
      description="Keep the guidance your reviewers apply next to the rules: a regulator's document or your own policy, in Markdown."
      submitLabel={guideline ? "Save guideline" : "Add guideline"}
      errorFallback="The guideline could not be saved."
      onClose={onClose}
      className="max-w-3xl"
      onSubmit={async (values) => {
        try {
          await saveGuideline(values);
        } finally {
          await invalidateAfterCompliance(queryClient, "save_guideline");
        }
        toast.success(guideline ? "Guideline saved" : "Guideline added");
        onClose();
      }}
    >
      <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_12rem]">
        <FormField name="title" label="Title">
          <Input {...form.register("title")} autoComplete="off" />
        </FormField>
        <FormField name="source" label="Source">
          <FormSelect name="source">
            {GUIDELINE_SOURCES.map((s) => (
              <option key={s} value={s}>
                {guidelineSourceLabel(s)}
              </option>
            ))}
          </FormSelect>
        </FormField>
      </div>
      <FormField name="body" label="Text" hint="Markdown: # headings, - lists, **bold**, [links](https://…).">
        <Textarea {...form.register("body")} rows={12} className="font-mono text-xs" />
      </FormField>
    </EntityFormDialog>
  );
}

/** Confirms deleting a guideline. */
export function DeleteGuidelineDialog({ guideline, onClose }: { guideline: Guideline; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !busy) onClose();
      }}
    >
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Delete this guideline?</DialogTitle>
          <DialogDescription className="wrap-anywhere">“{guideline.title}” is removed for everyone in the organisation. The audit log keeps that you deleted it.</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              void deleteGuideline(guideline.id)
                .then(
                  () => {
                    toast.success("Guideline deleted");
                    onClose();
                  },
                  (error: unknown) => {
                    toastServerError("The guideline could not be deleted.", describeServerError(error, "The guideline could not be deleted."));
                  },
                )
                .finally(() => {
                  setBusy(false);
                  void invalidateAfterCompliance(queryClient, "delete_guideline");
                });
            }}
          >
            {busy ? "Deleting…" : "Delete"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
