import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { EntityFormDialog } from "@/components/ui/entity-form-dialog";
import { FormField, FormSelect } from "@/components/ui/form";
import { Input, Textarea } from "@/components/ui/input";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { claimOptionsQuery } from "@/entities/claims";
import { type ContentModule, decideModule, invalidateModules, type ModuleValues, saveModule } from "@/entities/modules";
import { moduleFormValues, moduleSchema } from "@/entities/modules/schema";
import type { Product } from "@/entities/products";
import { useProfile } from "@/entities/profile";
import { useReadOnly } from "@/lib/auth";
import { decidesContentStatus, MODULE_KINDS, MODULE_STATUSES, moduleKindLabel, moduleStatusLabel, STATUS_DECIDED_HINT } from "@/lib/content-types";

/**
 * Creates (module = null) or edits a module. Writers save; everyone else
 * sees the fields read-only. The server validates and may refuse; its
 * words are shown beside the field they concern.
 */
export function ModuleDialog({
  module,
  products,
  canWrite,
  onClose,
}: {
  module: ContentModule | null;
  products: Product[];
  canWrite: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const claims = useQuery(claimOptionsQuery());
  const form = useForm<z.input<typeof moduleSchema>, unknown, z.output<typeof moduleSchema>>({
    resolver: zodResolver(moduleSchema),
    defaultValues: moduleFormValues(module),
  });
  // The read-only demo only shows the module.
  const demo = useReadOnly();
  const decides = decidesContentStatus(useProfile().data?.role) && !demo;
  // Authors edit drafts; a decided module is its reviewers' (the server's
  // rule): they set its status and expiry, never its content.
  const readOnly = !canWrite || (!decides && (module?.status ?? "draft") !== "draft");
  const save = useMutation({
    mutationFn: (values: ModuleValues) => {
      if (module && readOnly) return decideModule(module.id, { status: values.status, expires_at: values.expires_at });
      const { status, ...authored } = values;
      return saveModule(module?.id ?? null, decides ? { ...authored, status } : authored);
    },
    onSuccess: () => {
      toast.success(module ? "Module saved" : "Module created");
      void invalidateModules(queryClient);
      onClose();
    },
  });


  const { register } = form;
  return (
    <EntityFormDialog
      form={form}
      title={module ? (readOnly ? module.title : "Edit module") : "New module"}
      description="Approved, unexpired modules can be inserted into assets; the inserted text stays marked as module text for reviewers."
      onSubmit={(values) => save.mutateAsync(values)}
      onClose={onClose}
      readOnly={readOnly && !decides}
      submitLabel={module ? "Save module" : "Create module"}
      errorFallback="The module could not be saved."
      status={demo ? <ReadOnlyNote /> : null}
    >
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField name="kind" label="Kind">
          <FormSelect name="kind" disabled={readOnly}>
            {MODULE_KINDS.map((k) => (
              <option key={k} value={k}>
                {moduleKindLabel(k)}
              </option>
            ))}
          </FormSelect>
        </FormField>
        <FormField name="status" label="Status" hint={decides ? undefined : STATUS_DECIDED_HINT}>
          <FormSelect name="status" disabled={!decides}>
            {MODULE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {moduleStatusLabel(s)}
              </option>
            ))}
          </FormSelect>
        </FormField>
      </div>
      <FormField name="title" label="Title">
        <Input readOnly={readOnly} maxLength={200} {...register("title")} />
      </FormField>
      <FormField name="body" label="Text" hint="Exactly what is inserted into an asset.">
        <Textarea readOnly={readOnly} rows={6} {...register("body")} />
      </FormField>
      <div className="grid items-start gap-4 sm:grid-cols-3">
        <FormField name="product_id" label="Product">
          <FormSelect name="product_id" disabled={readOnly}>
            <option value="">No product</option>
            {products.map((p) => (
              <option key={p.id} value={p.id}>
                {p.brand_name}
              </option>
            ))}
          </FormSelect>
        </FormField>
        <FormField name="claim_id" label="Claim">
          <FormSelect name="claim_id" disabled={readOnly}>
            <option value="">No claim</option>
            {(claims.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.text.length > 60 ? `${c.text.slice(0, 60)}…` : c.text}
              </option>
            ))}
          </FormSelect>
        </FormField>
        <FormField name="expires_at" label="Expires">
          <Input type="date" readOnly={readOnly && !decides} {...register("expires_at")} />
        </FormField>
      </div>
    </EntityFormDialog>
  );
}
