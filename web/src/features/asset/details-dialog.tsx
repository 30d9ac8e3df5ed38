import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { EntityFormDialog } from "@/components/ui/entity-form-dialog";
import { FormField, FormSelect } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { type Asset, type AssetPatch, invalidateAssets, updateAsset } from "@/entities/assets";
import { type AssetDetailsInput, type AssetDetailsOutput, assetDetailsSchema, assetDetailsValues } from "@/entities/assets/schema";
import { membersQuery, type Person } from "@/entities/members";
import type { ProductSummary } from "@/entities/products";
import { useProfile } from "@/entities/profile";
import { invalidateAssetReview } from "@/entities/reviews";
import { AUDIENCES, audienceLabel, canWriteContent } from "@/lib/content-types";

/** The changed columns of `next` against `asset` (the server is sent only those). */
function changes(asset: Asset, next: AssetDetailsOutput): AssetPatch {
  const patch: AssetPatch = {};
  for (const [k, v] of Object.entries(next) as [keyof AssetDetailsOutput, string | null][]) {
    if ((asset[k] ?? null) !== v) Object.assign(patch, { [k]: v });
  }
  return patch;
}

/**
 * Edit details: title, product, audience, channel, market, owner and expiry
 * (the only columns the server lets writers change). Only changed fields
 * are sent; the server's refusal of a value is shown beside its field.
 */
export function EditDetailsDialog({
  asset,
  products,
  people,
  onClose,
}: {
  asset: Asset;
  products: ProductSummary[];
  people: Person[];
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const form = useForm<AssetDetailsInput, unknown, AssetDetailsOutput>({
    resolver: zodResolver(assetDetailsSchema),
    defaultValues: assetDetailsValues(asset),
  });
  const save = useMutation({
    mutationFn: (patch: AssetPatch) => updateAsset(asset.id, patch),
    onSuccess: async () => {
      toast.success("Details saved");
      // The ready-for-review gate reads the product, audience and market.
      await Promise.all([invalidateAssets(queryClient), invalidateAssetReview(queryClient, asset.id)]);
      onClose();
    },
  });
  const ownerId = form.getValues("owner_id");
  // An owner is someone who can write the asset: active owners, admins and
  // marketers (the current owner stays listed whatever their role now).
  const members = useQuery(membersQuery(useProfile().data?.org_id));
  const writers = new Set((members.data ?? []).filter((m) => canWriteContent(m.role) && !m.deactivated_at).map((m) => m.id));
  const owners = people.filter((p) => p.id === ownerId || writers.has(p.id));
  // An approval's expiry is the workflow's, changed by an administrator from the review card.
  const approvalExpiry = asset.status === "approved" || asset.status === "expired" || asset.status === "withdrawn";
  const { register } = form;

  return (
    <EntityFormDialog
      form={form}
      className="max-w-lg"
      title="Edit details"
      description="These describe the asset; its versions do not change."
      onSubmit={async (values) => {
        const patch = changes(asset, values);
        if (Object.keys(patch).length === 0) {
          onClose();
          return;
        }
        await save.mutateAsync(patch);
      }}
      onClose={onClose}
      submitLabel="Save details"
      errorFallback="The details could not be saved."
    >
      <FormField name="title" label="Title">
        <Input maxLength={200} autoComplete="off" {...register("title")} />
      </FormField>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField name="product_id" label="Product">
          <FormSelect name="product_id">
            <option value="">No product</option>
            {products.map((p) => (
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
          <Input placeholder="e.g. Email" autoComplete="off" {...register("channel")} />
        </FormField>
        <FormField name="market" label="Market">
          <Input placeholder="e.g. US" autoComplete="off" {...register("market")} />
        </FormField>
        <FormField name="owner_id" label="Owner">
          <FormSelect name="owner_id">
            {ownerId === "" ? <option value="">No owner</option> : null}
            {owners.map((p) => (
              <option key={p.id} value={p.id}>
                {p.full_name || p.email}
              </option>
            ))}
          </FormSelect>
        </FormField>
        <FormField
          name="expires_at"
          label="Expiry date"
          hint={approvalExpiry ? "Set by the approval; an administrator changes it from the review card." : "Leave empty for none."}
        >
          <Input type="date" readOnly={approvalExpiry} {...register("expires_at")} />
        </FormField>
      </div>
    </EntityFormDialog>
  );
}
