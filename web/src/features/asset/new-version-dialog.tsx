import type { JSONContent } from "@tiptap/react";
import { AlertTriangle, FileUp, UploadCloud } from "lucide-react";
import { lazy, Suspense, useId, useRef, useState, type DragEvent } from "react";
import { toast } from "sonner";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/input";
import { Progress } from "@/components/ui/progress";
import type { RichTextValue } from "@/components/ui/rich-text-editor";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { formatBytes, UPLOAD_MAX_BYTES, UPLOAD_TYPES } from "@/lib/content-types";
import { describeServerError } from "@/lib/server-error";
import { isAbortError, uploadWithProgress } from "@/lib/upload";
import { cn } from "@/lib/utils";
import { addVersion, prepareUpload, useInsertableModules, useVersionText, type VersionSummary } from "./api";

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
  const [mode, setMode] = useState<NewVersionMode>(initialMode);
  const [note, setNote] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ message: string; detail?: string | undefined } | null>(null);
  const [noteError, setNoteError] = useState<string | undefined>();
  const [content, setContent] = useState<RichTextValue | null>(null);
  const [contentError, setContentError] = useState<string | undefined>();
  const abort = useRef<AbortController | null>(null);
  const input = useRef<HTMLInputElement>(null);

  // Editing starts from the newest written version, else the current file's text.
  const latest = versions[0];
  const seed = versions.find((v) => v.kind === "authored") ?? latest;
  const seedText = useVersionText(mode === "edit" ? seed?.id : null);
  const modules = useInsertableModules(mode === "edit");
  const initialDoc: JSONContent | null = seedText.data
    ? isDoc(seedText.data.content_json)
      ? seedText.data.content_json
      : paragraphs(seedText.data.plain_text)
    : null;

  const choose = (f: File | undefined) => {
    setProblem(null);
    if (!f) return;
    if (!(f.type in UPLOAD_TYPES)) {
      setFile(null);
      setFileError("Choose a PDF, PNG, JPEG or WebP file.");
      return;
    }
    if (f.size > UPLOAD_MAX_BYTES) {
      setFile(null);
      setFileError(`The file is ${formatBytes(f.size)}; the limit is ${formatBytes(UPLOAD_MAX_BYTES)}.`);
      return;
    }
    setFileError(null);
    setFile(f);
  };

  const onDrop = (e: DragEvent<HTMLElement>) => {
    e.preventDefault();
    setDragging(false);
    choose(e.dataTransfer.files[0]);
  };

  const submit = async () => {
    setProblem(null);
    const changeNote = note.trim();
    let invalid = false;
    if (!changeNote) {
      setNoteError("Say what changed in this version.");
      invalid = true;
    } else if (changeNote.length > 1000) {
      setNoteError("Keep the change note under 1000 characters.");
      invalid = true;
    } else setNoteError(undefined);
    if (mode === "upload" && !file) {
      setFileError("Choose the file of the new version.");
      invalid = true;
    }
    if (mode === "edit" && !content?.text.trim()) {
      setContentError(content ? "The version has no text." : "Make your changes before saving.");
      invalid = true;
    } else setContentError(undefined);
    if (invalid) return;

    setBusy(true);
    try {
      let created;
      if (mode === "upload" && file) {
        const controller = new AbortController();
        abort.current = controller;
        setProgress(0);
        const prepared = await prepareUpload(file);
        await uploadWithProgress(
          prepared.signed_url,
          file,
          (loaded, total) => {
            setProgress(total > 0 ? Math.round((loaded / total) * 100) : 0);
          },
          controller.signal,
        );
        created = await addVersion(assetId, { file_path: prepared.path, file_name: file.name, change_note: changeNote });
      } else if (content) {
        created = await addVersion(assetId, { content_json: content.json as never, content_html: content.html, change_note: changeNote });
      }
      if (created) {
        toast.success(`Version ${created.number} added`);
        await onCreated(created.number);
        onOpenChange(false);
      }
    } catch (error) {
      if (isAbortError(error)) {
        setProblem({ message: "Upload cancelled." });
      } else {
        setProblem(describeServerError(error, "The version could not be added."));
      }
    } finally {
      setBusy(false);
      setProgress(null);
      abort.current = null;
    }
  };

  return (
    <form
      className="grid gap-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
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
          setMode(v as NewVersionMode);
          setProblem(null);
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
              <span className="text-sm">
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
                onChange={setContent}
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
      <Field label="Change note" error={noteError} hint="What changed and why; reviewers read this first.">
        <Textarea
          value={note}
          maxLength={1000}
          disabled={busy}
          onChange={(e) => {
            setNote(e.target.value);
          }}
          placeholder="e.g. Updated the efficacy claim to match the 2026 label"
        />
      </Field>
      {problem ? (
        <Alert variant="destructive">
          <AlertTriangle aria-hidden="true" />
          <AlertTitle>{problem.message}</AlertTitle>
          {problem.detail ? <AlertDescription>{problem.detail}</AlertDescription> : null}
        </Alert>
      ) : null}
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
  );
}
