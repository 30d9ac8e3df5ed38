import { useMutation, useQueryClient } from "@tanstack/react-query";
import { FileText } from "lucide-react";
import { useState, type SubmitEvent } from "react";
import { toast } from "sonner";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input, Textarea } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/select";
import { formatBytes, REFERENCE_KINDS, REFERENCE_STATUSES, referenceKindLabel, referenceStatusLabel } from "@/lib/content-types";
import { errorMessage } from "@/lib/errors";
import { callRpc, CONTENT_KEY, type Reference, saveRow } from "./api";
import { UploadProgress } from "./upload-progress";
import { fileProblem, useUpload } from "./use-upload";

const PDF_ONLY = { "application/pdf": "PDF" } as const;

/**
 * Creates (reference = null) or edits a reference and attaches its PDF:
 * the metadata is saved first, then the file goes to the reference-files
 * bucket through a signed upload URL (with progress) and the rpc
 * attach_reference_file extracts its text page by page.
 */
export function ReferenceDialog({ reference, canWrite, onClose }: { reference: Reference | null; canWrite: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(reference?.title ?? "");
  const [citation, setCitation] = useState(reference?.citation ?? "");
  const [kind, setKind] = useState(reference?.kind ?? "clinical_study");
  const [status, setStatus] = useState(reference?.status ?? "active");
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string>();
  const [titleError, setTitleError] = useState<string>();
  const { state, upload, cancel } = useUpload("reference-files");

  const save = useMutation({
    mutationFn: async (): Promise<Reference | null> => {
      let row = await saveRow<Reference>("references", reference?.id ?? null, {
        title: title.trim(),
        citation: citation.trim(),
        kind,
        status,
      });
      if (file) {
        const prepared = await upload(file);
        if (!prepared) return null;
        row = await callRpc<Reference>("attach_reference_file", { reference_id: row.id, file_path: prepared.path, file_name: file.name });
      }
      return row;
    },
    onSuccess: (row) => {
      void queryClient.invalidateQueries({ queryKey: [CONTENT_KEY] });
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

  const submit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (title.trim() === "") {
      setTitleError("Give the reference a title.");
      return;
    }
    setTitleError(undefined);
    if (fileError) return;
    save.mutate();
  };

  const readOnly = !canWrite;
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !state.uploading) onClose();
      }}
    >
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{reference ? (readOnly ? reference.title : "Edit reference") : "New reference"}</DialogTitle>
          <DialogDescription>A document that substantiates claims. Attach its PDF so passages can be quoted by page.</DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <Field label="Title" error={titleError}>
            <Input value={title} readOnly={readOnly} maxLength={300} onChange={(e) => { setTitle(e.target.value); }} />
          </Field>
          <Field label="Citation" hint="As it should appear in a reference list.">
            <Textarea value={citation} readOnly={readOnly} rows={2} onChange={(e) => { setCitation(e.target.value); }} />
          </Field>
          <div className="grid items-start gap-4 sm:grid-cols-2">
            <Field label="Kind">
              <NativeSelect value={kind} disabled={readOnly} onChange={(e) => { setKind(e.target.value); }}>
                {REFERENCE_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {referenceKindLabel(k)}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Status">
              <NativeSelect value={status} disabled={readOnly} onChange={(e) => { setStatus(e.target.value); }}>
                {REFERENCE_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {referenceStatusLabel(s)}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          </div>

          {reference?.file_path ? (
            <p className="flex items-center gap-2 rounded-lg border bg-muted/30 px-3 py-2 text-sm">
              <FileText aria-hidden="true" className="size-4 text-muted-foreground" />
              <span className="min-w-0 truncate font-medium">{reference.file_name ?? "PDF"}</span>
              <span className="shrink-0 text-muted-foreground">
                · {reference.page_count} {reference.page_count === 1 ? "page" : "pages"}
              </span>
            </p>
          ) : null}

          {readOnly ? null : (
            <Field
              label={reference?.file_path ? "Replace PDF" : "PDF"}
              error={fileError}
              hint={file ? `${file.name} · ${formatBytes(file.size)}` : "PDF, up to 500 MB. Its text is extracted page by page."}
            >
              <Input
                type="file"
                accept="application/pdf"
                disabled={state.uploading}
                className="h-auto py-1.5"
                onChange={(e) => {
                  const chosen = e.target.files?.[0] ?? null;
                  setFile(chosen);
                  setFileError(chosen ? (fileProblem(chosen, PDF_ONLY) ?? undefined) : undefined);
                }}
              />
            </Field>
          )}
          {state.uploading && file ? <UploadProgress state={state} fileName={file.name} onCancel={cancel} /> : null}
          {save.isError ? (
            <Alert variant="destructive">
              <AlertDescription>{errorMessage(save.error, "The reference could not be saved.")}</AlertDescription>
            </Alert>
          ) : null}
          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={state.uploading}>
              {readOnly ? "Close" : "Cancel"}
            </Button>
            {readOnly ? null : (
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? (state.uploading ? "Uploading…" : "Saving…") : reference ? "Save reference" : "Add reference"}
              </Button>
            )}
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
