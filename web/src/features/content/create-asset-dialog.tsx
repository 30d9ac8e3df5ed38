import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { FileUp, PenLine, Upload } from "lucide-react";
import { lazy, Suspense, useId, useMemo, useRef, useState, type DragEvent } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormError, FormField, FormSelect } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { RichTextValue } from "@/components/ui/rich-text-editor";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { type Asset, createAsset, invalidateAssets, type NewAsset } from "@/entities/assets";
import { assetFieldRules, jobCodeRule } from "@/entities/assets/schema";
import { insertableModulesQuery } from "@/entities/modules";
import type { Product } from "@/entities/products";
import { ASSET_TYPES, assetTypeLabel, AUDIENCES, audienceLabel, formatBytes, UPLOAD_TYPES } from "@/lib/content-types";
import { applyServerError } from "@/lib/form-errors";
import { cn } from "@/lib/utils";
import { UploadProgress } from "./upload-progress";
import { fileProblem, useUpload } from "./use-upload";

// ProseMirror is the heaviest thing on this screen: load it only for Compose.
const RichTextEditor = lazy(() => import("@/components/ui/rich-text-editor").then((m) => ({ default: m.RichTextEditor })));

const MARKETS = ["US", "EU", "UK", "CA", "JP"];

type Mode = "compose" | "upload";

/** The details (the server's rules) and the first version: composed content or a file. */
const schema = z
  .object({
    mode: z.enum(["compose", "upload"]),
    title: assetFieldRules.title,
    type: assetFieldRules.type,
    product_id: assetFieldRules.product_id,
    audience: assetFieldRules.audience,
    channel: assetFieldRules.channel,
    market: assetFieldRules.market,
    job_code: jobCodeRule,
    expires_at: assetFieldRules.expires_at,
    content: z.custom<RichTextValue | null>(),
    file: z.custom<File | null>(),
  })
  .superRefine((v, ctx) => {
    if (v.mode === "compose" && (v.content?.text.trim() ?? "") === "") {
      ctx.addIssue({ code: "custom", path: ["content"], message: "The content is empty." });
    }
    if (v.mode === "upload") {
      const problem = v.file ? fileProblem(v.file) : "Choose a PDF or image to upload.";
      if (problem) ctx.addIssue({ code: "custom", path: ["file"], message: problem });
    }
  });
type Values = z.input<typeof schema>;
type Output = z.output<typeof schema>;

const DEFAULTS: Values = {
  mode: "compose",
  title: "",
  type: "email",
  product_id: "",
  audience: "hcp",
  channel: "",
  market: "US",
  job_code: "",
  expires_at: "",
  content: null,
  file: null,
};

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
  const modules = useQuery(insertableModulesQuery(open));
  const form = useForm<Values, unknown, Output>({ resolver: zodResolver(schema), defaultValues: DEFAULTS });
  const [mode, productId, market, file, content] = useWatch({ control: form.control, name: ["mode", "product_id", "market", "file", "content"] });
  const { errors } = form.formState;
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
    mutationFn: async ({ mode: chosen, content: composed, file: chosenFile, ...meta }: Output): Promise<Asset | null> => {
      // Absent optional details are left out (create_asset reads absent as none).
      const details: NewAsset = {
        title: meta.title,
        type: meta.type,
        audience: meta.audience,
        channel: meta.channel,
        market: meta.market,
        ...(meta.product_id ? { product_id: meta.product_id } : {}),
        ...(meta.job_code ? { job_code: meta.job_code } : {}),
        ...(meta.expires_at ? { expires_at: meta.expires_at } : {}),
      };
      if (chosen === "compose") {
        return createAsset({ ...details, content_json: composed?.json, content_html: composed?.html ?? "" });
      }
      if (!chosenFile) return null;
      const prepared = await upload(chosenFile);
      if (!prepared) return null;
      return createAsset({ ...details, file_path: prepared.path, file_name: chosenFile.name });
    },
    onSuccess: (asset) => {
      if (!asset) {
        toast.info("Upload cancelled", { description: "Nothing was created." });
        return;
      }
      void invalidateAssets(queryClient);
      toast.success("Asset created", { description: `${asset.title} · ${asset.job_code}` });
      onOpenChange(false);
      void navigate(`/assets/${asset.id}`);
    },
  });

  const submit = form.handleSubmit(async (values) => {
    try {
      await create.mutateAsync(values);
    } catch (error) {
      await applyServerError(form.setError, error, {
        fallback: "The asset could not be created.",
        fields: Object.keys(DEFAULTS),
        aliases: { file_path: "file", file_name: "file", content_html: "content", content_json: "content" },
      });
    }
  });

  const busy = form.formState.isSubmitting;
  const { register } = form;
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
        <FormProvider {...form}>
          <form className="grid min-w-0 gap-5" onSubmit={(e) => void submit(e)} noValidate>
            <Tabs
              value={mode}
              className="grid gap-5"
              onValueChange={(value) => {
                if (!busy) form.setValue("mode", value as Mode);
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
                <FormField name="title" label="Title" className="col-span-2">
                  <Input maxLength={200} autoFocus {...register("title")} />
                </FormField>
                <FormField name="type" label="Type">
                  <FormSelect name="type">
                    {ASSET_TYPES.map((t) => (
                      <option key={t} value={t}>
                        {assetTypeLabel(t)}
                      </option>
                    ))}
                  </FormSelect>
                </FormField>
                <FormField name="product_id" label="Product">
                  <FormSelect name="product_id">
                    <option value="">No product</option>
                    {activeProducts.map((p) => (
                      <option key={p.id} value={p.id}>
                        {p.brand_name}
                      </option>
                    ))}
                  </FormSelect>
                </FormField>
                <FormField name="audience" label="Audience">
                  <FormSelect name="audience">
                    {AUDIENCES.map((a) => (
                      <option key={a} value={a}>
                        {audienceLabel(a)}
                      </option>
                    ))}
                  </FormSelect>
                </FormField>
                <FormField name="channel" label="Channel">
                  <Input placeholder="e.g. Rep-triggered email" {...register("channel")} />
                </FormField>
                <FormField name="market" label="Market">
                  <FormSelect name="market">
                    {markets.map((m) => (
                      <option key={m} value={m}>
                        {m}
                      </option>
                    ))}
                  </FormSelect>
                </FormField>
                <FormField name="expires_at" label="Expires">
                  <Input type="date" {...register("expires_at")} />
                </FormField>
                <FormField name="job_code" label="Job code" hint="Optional — generated when blank.">
                  <Input className="font-mono" placeholder={`FB-${market}-0000`} {...register("job_code")} />
                </FormField>
              </div>

              <TabsContent value="compose" className="mt-0">
                <ComposeArea
                  error={errors.content?.message}
                  modules={insertable}
                  value={content?.json ?? null}
                  onChange={(value) => {
                    form.setValue("content", value, { shouldValidate: form.formState.isSubmitted });
                  }}
                />
              </TabsContent>
              <TabsContent value="upload" className="mt-0">
                <DropZone
                  file={file}
                  error={errors.file?.message}
                  disabled={busy}
                  onFile={(f) => {
                    form.setValue("file", f, { shouldValidate: true });
                  }}
                />
              </TabsContent>
            </Tabs>

            {state.uploading && file ? <UploadProgress state={state} fileName={file.name} onCancel={cancel} /> : null}

            <FormError />

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
        </FormProvider>
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
