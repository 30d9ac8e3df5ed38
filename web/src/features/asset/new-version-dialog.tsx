import type { JSONContent } from "@tiptap/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { FileUp, UploadCloud } from "lucide-react";
import { lazy, Suspense, useId, useRef, useState, type DragEvent } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormError, FormField } from "@/components/ui/form";
import { Textarea } from "@/components/ui/input";
import { Progress } from "@/components/ui/progress";
import type { RichTextValue } from "@/components/ui/rich-text-editor";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { prepareUpload } from "@/entities/content";
import { insertableModulesQuery } from "@/entities/modules";
import { addVersion, versionTextQuery, type VersionSummary } from "@/entities/versions";
import { changeNoteRule } from "@/entities/versions/schema";
import { formatBytes, UPLOAD_MAX_BYTES, UPLOAD_TYPES } from "@/lib/content-types";
import type { Json } from "@/lib/db-types";
import { applyServerError } from "@/lib/form-errors";
import { isAbortError, uploadWithProgress } from "@/lib/upload";
import { cn } from "@/lib/utils";

// ProseMirror is heavy: only people who write a version load it.
const RichTextEditor = lazy(() => import("@/components/ui/rich-text-editor").then((m) => ({ default: m.RichTextEditor })));

export type NewVersionMode = "upload" | "edit";

/** A TipTap document of plain paragraphs, to start editing from an uploaded file's text. */
function paragraphs(text: string): JSONContent {
  const blocks = text
    .split(/\f|\n{2,}/)
    .map((b) => b.replace(/\s+/g, " ").trim())
    .filter(Boolean);
  return {
    type: "doc",
    content: blocks.length
      ? blocks.map((b) => ({ type: "paragraph", content: [{ type: "text", text: b }] }))
      : [{ type: "paragraph" }],
  };
}

function isDoc(value: unknown): value is JSONContent {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "doc";
}

/**
 * New version: upload a file (PDF, PNG, JPEG, WebP; progress shown, can be
 * cancelled) or edit the text in the editor, starting from the latest
 * written version (or the current file's text). A change note is required.
 * The server numbers the version and makes it current; `onCreated` gets its
 * number.
 */
export function NewVersionDialog({
  assetId,
  versions,
  open,
  onOpenChange,
  initialMode,
  onCreated,
}: {
  assetId: string;
  versions: VersionSummary[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  initialMode: NewVersionMode;
  onCreated: (number: number) => void | Promise<void>;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        {open ? <NewVersionForm assetId={assetId} versions={versions} initialMode={initialMode} onOpenChange={onOpenChange} onCreated={onCreated} /> : null}
      </DialogContent>
    </Dialog>
  );
}

/** The form's values: the mode picks which of file and content is the version. */
const schema = z
  .object({
    mode: z.enum(["upload", "edit"]),
    change_note: changeNoteRule,
    file: z.custom<File | null>(),
    content: z.custom<RichTextValue | null>(),
  })
  .superRefine((v, ctx) => {
    if (v.mode === "upload" && !v.file) ctx.addIssue({ code: "custom", path: ["file"], message: "Choose the file of the new version." });
    if (v.mode === "edit" && !v.content?.text.trim()) {
      ctx.addIssue({ code: "custom", path: ["content"], message: v.content ? "The content is empty." : "Make your changes before saving." });
    }
  });
type Values = z.input<typeof schema>;
type Output = z.output<typeof schema>;

/** Why a file cannot be a version (type or size), or null. The server re-checks both from the bytes. */
function fileProblem(f: File): string | null {
  if (!(f.type in UPLOAD_TYPES)) return "Choose a PDF, PNG, JPEG or WebP file.";
  if (f.size > UPLOAD_MAX_BYTES) return `The file is ${formatBytes(f.size)}; the limit is ${formatBytes(UPLOAD_MAX_BYTES)}.`;
  return null;
}

function NewVersionForm({
  assetId,
  versions,
  initialMode,
  onOpenChange,
  onCreated,
}: {
  assetId: string;
  versions: VersionSummary[];
  initialMode: NewVersionMode;
  onOpenChange: (open: boolean) => void;
  onCreated: (number: number) => void | Promise<void>;
}) {
  const ids = useId();
  const form = useForm<Values, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues: { mode: initialMode, change_note: "", file: null, content: null },
  });
  const [mode, file] = useWatch({ control: form.control, name: ["mode", "file"] });
  const { errors, isSubmitting: busy } = form.formState;
  const [dragging, setDragging] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);
  const input = useRef<HTMLInputElement>(null);

  // Editing starts from the newest written version, else the current file's text.
  const latest = versions[0];
  const seed = versions.find((v) => v.kind === "authored") ?? latest;
  const seedText = useQuery(versionTextQuery(mode === "edit" ? seed?.id : null));
  const modules = useQuery(insertableModulesQuery(mode === "edit"));
  const initialDoc: JSONContent | null = seedText.data
    ? isDoc(seedText.data.content_json)
      ? seedText.data.content_json
      : paragraphs(seedText.data.plain_text)
    : null;

  const choose = (f: File | undefined) => {
    form.clearErrors("root");
    if (!f) return;
    const problem = fileProblem(f);
    form.setValue("file", problem ? null : f);
    if (problem) form.setError("file", { type: "file", message: problem });
    else form.clearErrors("file");
  };

  const onDrop = (e: DragEvent<HTMLElement>) => {
    e.preventDefault();
    setDragging(false);
    choose(e.dataTransfer.files[0]);
  };

  const save = async ({ mode: chosenMode, change_note, file: chosen, content }: Output) => {
    try {
      let created;
      if (chosenMode === "upload" && chosen) {
        const controller = new AbortController();
        abort.current = controller;
        setProgress(0);
        const prepared = await prepareUpload("asset-files", chosen);
        await uploadWithProgress(
          prepared.signed_url,
          chosen,
          (loaded, total) => {
            setProgress(total > 0 ? Math.round((loaded / total) * 100) : 0);
          },
          controller.signal,
        );
        created = await addVersion(assetId, { file_path: prepared.path, file_name: chosen.name, change_note });
      } else if (content) {
        created = await addVersion(assetId, { content_json: content.json as Json, content_html: content.html, change_note });
      }
      if (created) {
        toast.success(`Version ${created.number} added`);
        await onCreated(created.number);
        onOpenChange(false);
      }
    } catch (error) {
      if (isAbortError(error)) {
        form.setError("root", { type: "server", message: "Upload cancelled." });
      } else {
        await applyServerError(form.setError, error, {
          fallback: "The version could not be added.",
          fields: ["change_note", "file", "content"],
          aliases: { file_path: "file", file_name: "file", content_html: "content", content_json: "content" },
        });
      }
    } finally {
      setProgress(null);
      abort.current = null;
    }
  };

  const fileError = errors.file?.message;
  const contentError = errors.content?.message;
  return (
    <FormProvider {...form}>
      <form className="grid gap-4" noValidate onSubmit={(e) => void form.handleSubmit(save)(e)}>
        <DialogHeader>
          <DialogTitle>New version</DialogTitle>
          <DialogDescription>
            {latest ? `It becomes v${latest.number + 1} and the current version.` : "It becomes the current version."} Earlier versions stay as they
            are.
          </DialogDescription>
        </DialogHeader>
        <Tabs
          value={mode}
          onValueChange={(v) => {
            form.setValue("mode", v as NewVersionMode);
            form.clearErrors("root");
          }}
        >
          <TabsList className="w-full sm:w-auto">
            <TabsTrigger value="upload" className="flex-1" disabled={busy}>
              <FileUp aria-hidden="true" className="size-4" /> Upload a file
            </TabsTrigger>
            <TabsTrigger value="edit" className="flex-1" disabled={busy}>
              Edit the text
            </TabsTrigger>
          </TabsList>
          <TabsContent value="upload" className="grid gap-2">
            <label
              htmlFor={`${ids}-file`}
              onDragOver={(e) => {
                e.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => {
                setDragging(false);
              }}
              onDrop={onDrop}
              className={cn(
                "flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed px-6 py-8 text-center transition-colors",
                "focus-within:border-ring focus-within:ring-2 focus-within:ring-ring/30",
                dragging ? "border-primary bg-primary/5" : "border-input hover:bg-muted/60",
                fileError && "border-destructive",
              )}
            >
              <UploadCloud aria-hidden="true" className="size-8 text-muted-foreground" />
              {file ? (
                <span className="min-w-0 text-sm break-all">
                  <span className="font-medium">{file.name}</span> <span className="text-muted-foreground">· {formatBytes(file.size)}</span>
                </span>
              ) : (
                <span className="text-sm">
                  <span className="font-medium text-primary">Choose a file</span> or drop it here
                </span>
              )}
              <span className="text-xs text-muted-foreground">PDF, PNG, JPEG or WebP, up to {formatBytes(UPLOAD_MAX_BYTES)}</span>
              <input
                ref={input}
                id={`${ids}-file`}
                type="file"
                accept={Object.keys(UPLOAD_TYPES).join(",")}
                className="sr-only"
                aria-describedby={fileError ? `${ids}-file-error` : undefined}
                aria-invalid={fileError ? true : undefined}
                disabled={busy}
                onChange={(e) => {
                  choose(e.target.files?.[0]);
                }}
              />
            </label>
            {fileError ? (
              <p id={`${ids}-file-error`} role="alert" className="text-sm font-medium text-destructive">
                {fileError}
              </p>
            ) : null}
            {progress !== null ? (
              <div className="grid gap-1">
                <Progress value={progress} aria-label="Upload progress" />
                <p className="text-xs text-muted-foreground tabular-nums" aria-live="polite">
                  Uploading… {progress} %
                </p>
              </div>
            ) : null}
          </TabsContent>
          <TabsContent value="edit" className="grid gap-2">
            {seedText.isPending || !initialDoc ? (
              <Skeleton className="h-56 w-full" />
            ) : (
              <Suspense fallback={<Skeleton className="h-56 w-full" />}>
                <RichTextEditor
                  key={seedText.data?.id}
                  value={initialDoc}
                  onChange={(value) => {
                    form.setValue("content", value, { shouldValidate: form.formState.isSubmitted });
                  }}
                  modules={modules.data ?? []}
                  ariaLabel="Version text"
                  invalid={Boolean(contentError)}
                  ariaDescribedBy={contentError ? `${ids}-content-error` : undefined}
                  className="max-h-[45dvh] overflow-y-auto"
                />
              </Suspense>
            )}
            {contentError ? (
              <p id={`${ids}-content-error`} role="alert" className="text-sm font-medium text-destructive">
                {contentError}
              </p>
            ) : (
              <p className="text-xs text-muted-foreground">
                {seed?.kind === "authored" ? `Starts from v${seed.number}.` : "Starts from the text of the current file."} Module text stays marked.
              </p>
            )}
          </TabsContent>
        </Tabs>
        <FormField name="change_note" label="Change note" hint="What changed and why; reviewers read this first.">
          <Textarea
            maxLength={1000}
            disabled={busy}
            placeholder="e.g. Updated the efficacy claim to match the 2026 label"
            {...form.register("change_note")}
          />
        </FormField>
        <FormError />
        <DialogFooter>
          <Button
            type="button"
            variant="outline"
            onClick={() => {
              if (busy && abort.current) abort.current.abort();
              else onOpenChange(false);
            }}
          >
            {busy && mode === "upload" ? "Cancel upload" : "Cancel"}
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? "Saving…" : "Add version"}
          </Button>
        </DialogFooter>
      </form>
    </FormProvider>
  );
}
