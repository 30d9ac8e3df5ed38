import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Eye, FileText } from "lucide-react";
import { useForm, useWatch } from "react-hook-form";
import { Link } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import { buttonVariants } from "@/components/ui/button-variants";
import { EntityFormDialog } from "@/components/ui/entity-form-dialog";
import { FormField, FormSelect } from "@/components/ui/form";
import { Input, Textarea } from "@/components/ui/input";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { attachReferenceFile, invalidateReferences, type Reference, saveReference } from "@/entities/references";
import { referenceFieldRules, referenceFormValues } from "@/entities/references/schema";
import { useReadOnly } from "@/lib/auth";
import { formatBytes, REFERENCE_KINDS, REFERENCE_STATUSES, referenceKindLabel, referenceStatusLabel } from "@/lib/content-types";
import { referencePath } from "@/components/document-viewer/reference-path";
import { UploadProgress } from "./upload-progress";
import { fileProblem, useUpload } from "./use-upload";

const PDF_ONLY = { "application/pdf": "PDF" } as const;

const schema = z.object({
  ...referenceFieldRules,
  file: z.custom<File | null>().superRefine((file, ctx) => {
    const problem = file ? fileProblem(file, PDF_ONLY) : null;
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
});
type Values = z.input<typeof schema>;
type Output = z.output<typeof schema>;

/**
 * Creates (reference = null) or edits a reference and attaches its PDF:
 * the metadata is saved first, then the file goes to the reference-files
 * bucket through a signed upload URL (with progress) and the rpc
 * attach_reference_file extracts its text page by page.
 */
export function ReferenceDialog({ reference, canWrite, onClose }: { reference: Reference | null; canWrite: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { state, upload, cancel } = useUpload("reference-files");
  const form = useForm<Values, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues: { ...referenceFormValues(reference), file: null },
  });
  const file = useWatch({ control: form.control, name: "file" });

  const save = useMutation({
    mutationFn: async ({ file: chosen, ...values }: Output): Promise<Reference | null> => {
      const row = await saveReference(reference?.id ?? null, values);
      if (!chosen) return row;
      const prepared = await upload(chosen);
      if (!prepared) return null;
      return attachReferenceFile(row.id, prepared.path, chosen.name);
    },
    onSuccess: (row) => {
      void invalidateReferences(queryClient);
      if (!row) {
        toast.info("Upload cancelled", { description: "The reference was saved without its PDF." });
        return;
      }
      toast.success(reference ? "Reference saved" : "Reference added", {
        description: row.page_count > 0 ? `${row.file_name ?? "PDF"} · ${row.page_count} ${row.page_count === 1 ? "page" : "pages"}` : undefined,
      });
      onClose();
    },
  });

  const readOnly = !canWrite;
  const demo = useReadOnly();
  const { register } = form;
  return (
    <EntityFormDialog
      form={form}
      title={reference ? (readOnly ? reference.title : "Edit reference") : "New reference"}
      description="A document that substantiates claims. Attach its PDF so passages can be quoted by page."
      onSubmit={(values) => save.mutateAsync(values)}
      onClose={onClose}
      readOnly={readOnly}
      locked={state.uploading}
      submitLabel={reference ? "Save reference" : "Add reference"}
      pendingLabel={state.uploading ? "Uploading…" : "Saving…"}
      errorFallback="The reference could not be saved."
      fieldAliases={{ file_path: "file", file_name: "file" }}
      status={state.uploading && file ? <UploadProgress state={state} fileName={file.name} onCancel={cancel} /> : demo ? <ReadOnlyNote /> : null}
    >
      <FormField name="title" label="Title">
        <Input readOnly={readOnly} maxLength={300} {...register("title")} />
      </FormField>
      <FormField name="citation" label="Citation" hint="As it should appear in a reference list.">
        <Textarea readOnly={readOnly} rows={2} {...register("citation")} />
      </FormField>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField name="kind" label="Kind">
          <FormSelect name="kind" disabled={readOnly}>
            {REFERENCE_KINDS.map((k) => (
              <option key={k} value={k}>
                {referenceKindLabel(k)}
              </option>
            ))}
          </FormSelect>
        </FormField>
        <FormField name="status" label="Status">
          <FormSelect name="status" disabled={readOnly}>
            {REFERENCE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {referenceStatusLabel(s)}
              </option>
            ))}
          </FormSelect>
        </FormField>
      </div>

      {reference?.file_path ? (
        <div className="flex min-w-0 flex-wrap items-center justify-end gap-2 rounded-lg border bg-muted/30 px-3 py-2 text-sm">
          <p className="flex min-w-0 flex-[1_1_12rem] items-center gap-2">
            <FileText aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
            <span className="min-w-0 truncate font-medium">{reference.file_name ?? "PDF"}</span>
            <span className="shrink-0 text-muted-foreground">
              · {reference.page_count} {reference.page_count === 1 ? "page" : "pages"}
            </span>
          </p>
          {state.uploading ? null : (
            <Link to={referencePath(reference.id)} className={buttonVariants({ variant: "outline", size: "sm" })}>
              <Eye aria-hidden="true" />
              View PDF
            </Link>
          )}
        </div>
      ) : null}

      {readOnly ? null : (
        <FormField
          name="file"
          label={reference?.file_path ? "Replace PDF" : "PDF"}
          hint={file ? `${file.name} · ${formatBytes(file.size)}` : "PDF, up to 500 MB. Its text is extracted page by page."}
        >
          <Input
            type="file"
            accept="application/pdf"
            disabled={state.uploading}
            className="h-auto py-1.5"
            onChange={(e) => {
              form.setValue("file", e.target.files?.[0] ?? null, { shouldValidate: true });
            }}
          />
        </FormField>
      )}
    </EntityFormDialog>
  );
}
