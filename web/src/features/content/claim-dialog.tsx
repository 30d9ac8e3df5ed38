import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { BookOpenCheck, Eye, Link2, Unlink } from "lucide-react";
import { lazy, Suspense, useMemo, useState } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { EntityFormDialog } from "@/components/ui/entity-form-dialog";
import { FormError, FormField, FormSelect } from "@/components/ui/form";
import { Input, Textarea } from "@/components/ui/input";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { Skeleton } from "@/components/ui/skeleton";
import { type Claim, type ClaimReference, type ClaimValues, claimPassagesQuery, decideClaim, invalidateClaims, linkPassage, saveClaim, unlinkPassage } from "@/entities/claims";
import { claimFormValues, claimSchema, type PassageFormInput, passageSchema } from "@/entities/claims/schema";
import type { Product } from "@/entities/products";
import { referenceOptionsQuery } from "@/entities/references";
import { useProfile } from "@/entities/profile";
import { useReadOnly } from "@/lib/auth";
import { CLAIM_STATUSES, changesClaimPassages, claimStatusLabel, decidesContentStatus, STATUS_DECIDED_HINT } from "@/lib/content-types";
import { errorMessage } from "@/lib/errors";
import { applyServerError } from "@/lib/form-errors";

// The document viewer loads when a passage is first viewed, not with the Hub.
const ReferenceViewerSheet = lazy(() => import("./reference-viewer").then((m) => ({ default: m.ReferenceViewerSheet })));

/**
 * Creates (claim = null) or edits a claim, and links it to reference
 * passages (reference, page, quoted text). The server checks that the
 * passage is on that page of the reference's PDF; its refusal is shown
 * word for word. A new claim is saved first; the dialog then stays open
 * for linking.
 */
export function ClaimDialog({
  claim,
  products,
  canWrite,
  onClose,
}: {
  claim: Claim | null;
  products: Product[];
  canWrite: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState<Claim | null>(claim);
  const form = useForm<z.input<typeof claimSchema>, unknown, z.output<typeof claimSchema>>({
    resolver: zodResolver(claimSchema),
    defaultValues: claimFormValues(claim),
  });
  // The read-only demo only shows the claim.
  const demo = useReadOnly();
  const role = useProfile().data?.role;
  const decides = decidesContentStatus(role) && !demo;
  // Authors edit drafts; a decided claim is its reviewers' (the server's rule):
  // they set its status and expiry, never its text.
  const readOnly = !canWrite || (!decides && (saved?.status ?? "draft") !== "draft");
  // Passages too: authors change a draft's, administrators any claim's.
  const passagesOpen = changesClaimPassages(role, saved?.status ?? "draft");
  const save = useMutation({
    mutationFn: (values: ClaimValues) => {
      if (saved && readOnly) return decideClaim(saved.id, { status: values.status, expires_at: values.expires_at });
      const { status, ...authored } = values;
      return saveClaim(saved?.id ?? null, decides ? { ...authored, status } : authored);
    },
    onSuccess: (row) => {
      void invalidateClaims(queryClient);
      if (saved) {
        toast.success("Claim saved");
        onClose();
      } else {
        toast.success("Claim created", { description: "Now link the reference passages that substantiate it." });
        setSaved(row);
      }
    },
  });

  const { register } = form;
  return (
    <EntityFormDialog
      form={form}
      title={saved ? (readOnly ? "Claim" : "Edit claim") : "New claim"}
      description="A statement your organisation may make, substantiated down to the page and passage of its references."
      onSubmit={(values) => save.mutateAsync(values)}
      onClose={onClose}
      readOnly={readOnly && !decides}
      submitLabel={saved ? "Save claim" : "Create claim"}
      errorFallback="The claim could not be saved."
      status={demo ? <ReadOnlyNote /> : null}
      after={
        saved ? (
          <Passages
            claimId={saved.id}
            canWrite={canWrite && passagesOpen}
            locked={canWrite && !passagesOpen ? `The claim is ${claimStatusLabel(saved.status).toLowerCase()}; only an administrator may change its passages.` : null}
          />
        ) : (
          <p className="text-sm text-muted-foreground">Create the claim to link the reference passages that substantiate it.</p>
        )
      }
    >
      <FormField name="text" label="Claim">
        <Textarea readOnly={readOnly} rows={3} maxLength={2000} {...register("text")} />
      </FormField>
      <FormField name="variants" label="Variants" hint="Approved alternative wordings, one per line.">
        <Textarea readOnly={readOnly} rows={2} {...register("variants")} />
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
        <FormField name="status" label="Status" hint={decides ? undefined : STATUS_DECIDED_HINT}>
          <FormSelect name="status" disabled={!decides}>
            {CLAIM_STATUSES.map((s) => (
              <option key={s} value={s}>
                {claimStatusLabel(s)}
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

const EMPTY_PASSAGE: PassageFormInput = { reference_id: "", page: "1", passage: "" };

/**
 * A claim's passages; `canWrite` offers linking and unlinking, `locked`
 * says why a writer is not offered them (a decided claim).
 */
function Passages({ claimId, canWrite, locked }: { claimId: string; canWrite: boolean; locked: string | null }) {
  const queryClient = useQueryClient();
  const links = useQuery(claimPassagesQuery(claimId));
  const references = useQuery(referenceOptionsQuery());
  const refById = useMemo(() => new Map((references.data ?? []).map((r) => [r.id, r])), [references.data]);
  const schema = useMemo(() => passageSchema((id) => refById.get(id)?.page_count ?? 0), [refById]);
  const form = useForm<PassageFormInput, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: EMPTY_PASSAGE,
  });
  const chosen = refById.get(useWatch({ control: form.control, name: "reference_id" }));
  // The passage being read in its reference's PDF.
  const [viewing, setViewing] = useState<ClaimReference | null>(null);
  const viewed = viewing ? refById.get(viewing.reference_id) : undefined;
  // Picking the passage by selecting it in the chosen reference's PDF.
  const [picking, setPicking] = useState(false);
  const pickPage = Number(useWatch({ control: form.control, name: "page" })) || 1;

  const link = useMutation({
    mutationFn: (values: z.output<typeof schema>) => linkPassage({ claim_id: claimId, ...values }),
    onSuccess: () => {
      toast.success("Passage linked");
      form.resetField("passage");
      void invalidateClaims(queryClient);
    },
  });
  const unlink = useMutation({
    mutationFn: unlinkPassage,
    onSuccess: () => {
      toast.success("Passage unlinked");
      void invalidateClaims(queryClient);
    },
    onError: (err) => toast.error(errorMessage(err, "The passage could not be unlinked.")),
  });

  const submit = form.handleSubmit(async (values) => {
    try {
      await link.mutateAsync(values);
    } catch (error) {
      await applyServerError(form.setError, error, { fallback: "The passage could not be linked.", fields: Object.keys(EMPTY_PASSAGE) });
    }
  });

  return (
    <section aria-labelledby="passages-title" className="grid min-w-0 gap-3">
      <h3 id="passages-title" className="text-sm font-semibold">
        Reference passages
      </h3>
      {links.isPending ? (
        <Skeleton className="h-12 w-full" />
      ) : links.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(links.error, "The linked passages could not be loaded.")}
        </p>
      ) : links.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">No passages linked yet. A claim needs at least one before it can be approved.</p>
      ) : (
        <ul className="grid gap-2" aria-label="Linked passages">
          {links.data.map((l) => (
            <li key={l.id} className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1 rounded-lg border bg-muted/30 px-3 py-2 text-sm">
              <p className="min-w-0 flex-[1_1_15rem] leading-6 wrap-anywhere">
                <span className="font-medium">{refById.get(l.reference_id)?.title ?? "Reference"}</span>, p. {l.page}: “{l.passage}”
              </p>
              <div className="flex shrink-0 items-center gap-1">
                {refById.get(l.reference_id)?.file_path ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`View passage on page ${l.page} in the PDF`}
                    onClick={() => {
                      setViewing(l);
                    }}
                  >
                    <Eye aria-hidden="true" />
                    View
                  </Button>
                ) : null}
                {canWrite ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Unlink passage on page ${l.page}`}
                    disabled={unlink.isPending}
                    onClick={() => {
                      unlink.mutate(l.id);
                    }}
                  >
                    <Unlink aria-hidden="true" />
                    Unlink
                  </Button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}

      {locked ? <p className="text-sm text-muted-foreground">{locked}</p> : null}
      {canWrite ? (
        <FormProvider {...form}>
          <form className="grid min-w-0 gap-3 rounded-lg border p-3" onSubmit={(event) => void submit(event)} noValidate aria-label="Link reference passage">
            <p className="text-sm font-medium">Link reference passage</p>
            <div className="grid gap-3 sm:grid-cols-[1fr_7rem]">
              <FormField name="reference_id" label="Reference">
                <FormSelect name="reference_id">
                  <option value="">Choose a reference…</option>
                  {(references.data ?? []).map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.title}
                      {r.page_count > 0 ? ` (${r.page_count} p.)` : ""}
                    </option>
                  ))}
                </FormSelect>
              </FormField>
              <FormField name="page" label="Page">
                <Input
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={chosen && chosen.page_count > 0 ? chosen.page_count : undefined}
                  {...form.register("page")}
                />
              </FormField>
            </div>
            <FormField name="passage" label="Quoted passage" hint="Copy the words exactly as they appear on that page.">
              <Textarea rows={2} maxLength={2000} {...form.register("passage")} />
            </FormField>
            <FormError />
            <div className="flex flex-wrap items-center justify-end gap-2">
              <Button
                type="button"
                variant="ghost"
                disabled={!chosen?.file_path}
                title={chosen && !chosen.file_path ? "This reference has no PDF attached." : undefined}
                onClick={() => {
                  setPicking(true);
                }}
              >
                <BookOpenCheck aria-hidden="true" />
                Pick in the PDF
              </Button>
              <Button type="submit" variant="outline" disabled={form.formState.isSubmitting}>
                <Link2 aria-hidden="true" />
                {form.formState.isSubmitting ? "Linking…" : "Link passage"}
              </Button>
            </div>
          </form>
        </FormProvider>
      ) : null}

      {picking && chosen ? (
        <Suspense fallback={null}>
          <ReferenceViewerSheet
            reference={chosen}
            passage={null}
            page={Math.min(Math.max(1, pickPage), Math.max(1, chosen.page_count))}
            onPick={(passage) => {
              form.setValue("page", String(passage.page), { shouldValidate: true, shouldDirty: true });
              form.setValue("passage", passage.text, { shouldValidate: true, shouldDirty: true });
              setPicking(false);
            }}
            onClose={() => {
              setPicking(false);
            }}
          />
        </Suspense>
      ) : null}
      {viewing && viewed ? (
        <Suspense fallback={null}>
          <ReferenceViewerSheet
            reference={viewed}
            passage={{ page: viewing.page, text: viewing.passage }}
            onClose={() => {
              setViewing(null);
            }}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
