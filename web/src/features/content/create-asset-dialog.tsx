import { useMutation, useQueryClient } from "@tanstack/react-query";
import { FileUp, PenLine, Upload } from "lucide-react";
import { lazy, Suspense, useId, useMemo, useRef, useState, type DragEvent, type SubmitEvent } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { RichTextValue } from "@/components/ui/rich-text-editor";
import { NativeSelect } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { ASSET_TYPES, assetTypeLabel, AUDIENCES, audienceLabel, formatBytes, UPLOAD_TYPES } from "@/lib/content-types";
import { errorMessage } from "@/lib/errors";
import { cn } from "@/lib/utils";
import { type Asset, callRpc, CONTENT_KEY, type Product, useInsertableModules } from "./api";
import { UploadProgress } from "./upload-progress";
import { fileProblem, useUpload } from "./use-upload";

// ProseMirror is the heaviest thing on this screen: load it only for Compose.
const RichTextEditor = lazy(() => import("@/components/ui/rich-text-editor").then((m) => ({ default: m.RichTextEditor })));

const MARKETS = ["US", "EU", "UK", "CA", "JP"];

type Mode = "compose" | "upload";

interface Errors {
  title?: string;
  body?: string;
  file?: string;
}

/**
 * Creates an asset with its first version, either composed in the editor
 * (with approved modules inserted as marked text) or uploaded (PDF or image,
 * dragged in or picked, sent with a progress bar and a Cancel button). The
 * rpc create_asset makes the asset and version 1 in one step; on success the
 * person lands on the asset's page.
 */
export function CreateAssetDialog({
  open,
  onOpenChange,
  products,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  products: Product[];
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const modules = useInsertableModules(open);
  const [mode, setMode] = useState<Mode>("compose");
  const [title, setTitle] = useState("");
  const [type, setType] = useState<string>("email");
  const [productId, setProductId] = useState("");
  const [audience, setAudience] = useState<string>("hcp");
  const [channel, setChannel] = useState("");
  const [market, setMarket] = useState("US");
  const [jobCode, setJobCode] = useState("");
  const [expiresAt, setExpiresAt] = useState("");
  const [content, setContent] = useState<RichTextValue | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const { state, upload, cancel } = useUpload("asset-files");

  const activeProducts = useMemo(() => products.filter((p) => p.active), [products]);
  const markets = useMemo(() => {
    const product = products.find((p) => p.id === productId);
    const list = product && product.markets.length > 0 ? product.markets : MARKETS;
    return list.includes(market) ? list : [...list, market];
  }, [products, productId, market]);
  const insertable = useMemo(
    () => (modules.data ?? []).map((m) => ({ id: m.id, kind: m.kind, title: m.title, body: m.body })),
    [modules.data],
  );

  const create = useMutation({
    mutationFn: async (): Promise<Asset | null> => {
      const meta = {
        title: title.trim(),
        type,
        product_id: productId || null,
        audience,
        channel: channel.trim(),
        market,
        job_code: jobCode.trim() || null,
        expires_at: expiresAt || null,
      };
      if (mode === "compose") {
        return callRpc<Asset>("create_asset", { ...meta, content_json: content?.json, content_html: content?.html });
      }
      if (!file) return null;
      const prepared = await upload(file);
      if (!prepared) return null;
      return callRpc<Asset>("create_asset", { ...meta, file_path: prepared.path, file_name: file.name });
    },
    onSuccess: (asset) => {
      if (!asset) {
        toast.info("Upload cancelled", { description: "Nothing was created." });
        return;
      }
      void queryClient.invalidateQueries({ queryKey: [CONTENT_KEY] });
      toast.success("Asset created", { description: `${asset.title} · ${asset.job_code}` });
      onOpenChange(false);
      void navigate(`/assets/${asset.id}`);
    },
  });

  const submit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const next: Errors = {};
    if (title.trim() === "") next.title = "Give the asset a title.";
    if (mode === "compose" && (content?.text.trim() ?? "") === "") next.body = "Write the content, or switch to Upload.";
    if (mode === "upload") {
      if (!file) next.file = "Choose a PDF or image to upload.";
      else next.file = fileProblem(file) ?? undefined;
    }
    setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    create.mutate();
  };

  const busy = create.isPending;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && state.uploading) return;
        onOpenChange(next);
      }}
    >
      <DialogContent className="max-w-4xl gap-5 p-5 sm:p-6" aria-describedby="create-asset-description">
        <DialogHeader>
          <DialogTitle>New asset</DialogTitle>
          <DialogDescription id="create-asset-description">
            Write it here with approved modules, or upload the agency’s PDF or image. It starts as a draft.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-5" onSubmit={submit} noValidate>
          <Tabs
            value={mode}
            className="grid gap-5"
            onValueChange={(value) => {
              if (!busy) setMode(value as Mode);
            }}
          >
            <TabsList aria-label="How to create the asset" className="w-full sm:w-fit">
              <TabsTrigger value="compose" className="flex-1 sm:flex-none">
                <PenLine aria-hidden="true" className="size-4" />
                Compose
              </TabsTrigger>
              <TabsTrigger value="upload" className="flex-1 sm:flex-none">
                <Upload aria-hidden="true" className="size-4" />
                Upload
              </TabsTrigger>
            </TabsList>

          <div className="grid grid-cols-2 items-start gap-x-3 gap-y-4 sm:gap-x-4 lg:grid-cols-3">
            <Field label="Title" error={errors.title} className="col-span-2">
              <Input value={title} maxLength={200} autoFocus onChange={(e) => { setTitle(e.target.value); }} />
            </Field>
            <Field label="Type">
              <NativeSelect value={type} onChange={(e) => { setType(e.target.value); }}>
                {ASSET_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {assetTypeLabel(t)}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Product">
              <NativeSelect value={productId} onChange={(e) => { setProductId(e.target.value); }}>
                <option value="">No product</option>
                {activeProducts.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.brand_name}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Audience">
              <NativeSelect value={audience} onChange={(e) => { setAudience(e.target.value); }}>
                {AUDIENCES.map((a) => (
                  <option key={a} value={a}>
                    {audienceLabel(a)}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Channel">
              <Input value={channel} placeholder="e.g. Rep-triggered email" onChange={(e) => { setChannel(e.target.value); }} />
            </Field>
            <Field label="Market">
              <NativeSelect value={market} onChange={(e) => { setMarket(e.target.value); }}>
                {markets.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Expires">
              <Input type="date" value={expiresAt} onChange={(e) => { setExpiresAt(e.target.value); }} />
            </Field>
            <Field label="Job code" hint="Optional — generated when blank.">
              <Input value={jobCode} className="font-mono" placeholder={`FB-${market}-0000`} onChange={(e) => { setJobCode(e.target.value); }} />
            </Field>
          </div>

            <TabsContent value="compose" className="mt-0">
              <ComposeArea error={errors.body} modules={insertable} value={content?.json ?? null} onChange={setContent} />
            </TabsContent>
            <TabsContent value="upload" className="mt-0">
              <DropZone
                file={file}
                error={errors.file}
                disabled={busy}
                onFile={(f) => {
                  setFile(f);
                  setErrors((prev) => ({ ...prev, file: fileProblem(f) ?? undefined }));
                }}
              />
            </TabsContent>
          </Tabs>

          {state.uploading && file ? <UploadProgress state={state} fileName={file.name} onCancel={cancel} /> : null}

          {create.isError ? (
            <Alert variant="destructive">
              <AlertDescription>{errorMessage(create.error, "The asset could not be created.")}</AlertDescription>
            </Alert>
          ) : null}

          <DialogFooter>
            <Button
              variant="outline"
              disabled={state.uploading}
              onClick={() => {
                onOpenChange(false);
              }}
            >
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? (state.uploading ? "Uploading…" : "Creating…") : "Create asset"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function ComposeArea({
  error,
  modules,
  value,
  onChange,
}: {
  error: string | undefined;
  modules: { id: string; kind: string; title: string; body: string }[];
  value: RichTextValue["json"] | null;
  onChange: (value: RichTextValue) => void;
}) {
  const id = useId();
  return (
    <div className="grid gap-1.5">
      <Label id={`${id}-label`}>Content</Label>
      <Suspense fallback={<Skeleton className="h-60 w-full" />}>
        <RichTextEditor
          ariaLabel="Asset content"
          placeholder="Write the asset. Use “Insert module” for approved ISI, claims and disclaimers."
          modules={modules}
          value={value}
          onChange={onChange}
          invalid={Boolean(error)}
          ariaDescribedBy={error ? `${id}-error` : undefined}
          className="[&_.ProseMirror]:max-h-[45dvh] [&_.ProseMirror]:overflow-y-auto"
        />
      </Suspense>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function DropZone({
  file,
  error,
  disabled,
  onFile,
}: {
  file: File | null;
  error: string | undefined;
  disabled: boolean;
  onFile: (file: File) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const id = useId();
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const dropped = e.dataTransfer.files[0];
    if (dropped && !disabled) onFile(dropped);
  };
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={`${id}-input`}>File</Label>
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => {
          setOver(false);
        }}
        onDrop={onDrop}
        data-testid="drop-zone"
        className={cn(
          "flex flex-col items-center justify-center gap-3 rounded-xl border-2 border-dashed px-6 py-10 text-center transition-colors",
          over ? "border-primary bg-primary/5" : "border-input bg-muted/30",
          error && "border-destructive/60",
        )}
      >
        <span className="inline-flex size-11 items-center justify-center rounded-full bg-card shadow-xs">
          <FileUp aria-hidden="true" className="size-5 text-muted-foreground" />
        </span>
        {file ? (
          <p className="text-sm">
            <span className="font-medium">{file.name}</span>
            <span className="text-muted-foreground"> · {formatBytes(file.size)}</span>
          </p>
        ) : (
          <p className="text-sm font-medium">Drag a file here, or choose one</p>
        )}
        <p className="text-xs text-muted-foreground">{Object.values(UPLOAD_TYPES).join(", ")} · up to 500 MB</p>
        <input
          ref={input}
          id={`${id}-input`}
          type="file"
          className="sr-only"
          accept={Object.keys(UPLOAD_TYPES).join(",")}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            if (chosen) onFile(chosen);
            e.target.value = "";
          }}
        />
        <Button
          variant="outline"
          size="sm"
          disabled={disabled}
          onClick={() => {
            input.current?.click();
          }}
        >
          {file ? "Choose another file" : "Choose file"}
        </Button>
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
