import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type SubmitEvent } from "react";
import { toast } from "sonner";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input, Textarea } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/select";
import { useProfile } from "@/lib/auth";
import {
  decidesContentStatus,
  MODULE_KINDS,
  MODULE_STATUSES,
  moduleKindLabel,
  moduleStatusLabel,
  STATUS_DECIDED_HINT,
} from "@/lib/content-types";
import { errorMessage } from "@/lib/errors";
import { CONTENT_KEY, type ContentModule, type Product, saveRow, useAllClaims } from "./api";

/**
 * Creates (module = null) or edits a module. Writers save; everyone else
 * sees the fields read-only. The server validates and may refuse; its
 * message is shown in the dialog.
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
  const claims = useAllClaims();
  const [kind, setKind] = useState(module?.kind ?? "isi");
  const [title, setTitle] = useState(module?.title ?? "");
  const [body, setBody] = useState(module?.body ?? "");
  const [productId, setProductId] = useState(module?.product_id ?? "");
  const [claimId, setClaimId] = useState(module?.claim_id ?? "");
  const [status, setStatus] = useState(module?.status ?? "draft");
  const [expiresAt, setExpiresAt] = useState(module?.expires_at ?? "");
  const [titleError, setTitleError] = useState<string>();

  const decides = decidesContentStatus(useProfile().data?.role);
  // Authors edit drafts; a decided module is its reviewers' (the server's rule).
  const readOnly = !canWrite || (!decides && (module?.status ?? "draft") !== "draft");
  const save = useMutation({
    mutationFn: () =>
      saveRow<ContentModule>(
        "modules",
        module?.id ?? null,
        readOnly
          ? { status, expires_at: expiresAt || null }
          : {
              kind,
              title: title.trim(),
              body,
              product_id: productId || null,
              claim_id: claimId || null,
              ...(decides ? { status } : {}),
              expires_at: expiresAt || null,
            },
      ),
    onSuccess: () => {
      toast.success(module ? "Module saved" : "Module created");
      void queryClient.invalidateQueries({ queryKey: [CONTENT_KEY] });
      onClose();
    },
  });

  const submit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (title.trim() === "") {
      setTitleError("Give the module a title.");
      return;
    }
    setTitleError(undefined);
    save.mutate();
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{module ? (readOnly ? module.title : "Edit module") : "New module"}</DialogTitle>
          <DialogDescription>
            Approved, unexpired modules can be inserted into assets; the inserted text stays marked as module text for reviewers.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <div className="grid items-start gap-4 sm:grid-cols-2">
            <Field label="Kind">
              <NativeSelect value={kind} disabled={readOnly} onChange={(e) => { setKind(e.target.value); }}>
                {MODULE_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {moduleKindLabel(k)}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Status" hint={decides ? undefined : STATUS_DECIDED_HINT}>
              <NativeSelect value={status} disabled={!decides} onChange={(e) => { setStatus(e.target.value); }}>
                {MODULE_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {moduleStatusLabel(s)}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          </div>
          <Field label="Title" error={titleError}>
            <Input value={title} readOnly={readOnly} maxLength={200} onChange={(e) => { setTitle(e.target.value); }} />
          </Field>
          <Field label="Text" hint="Exactly what is inserted into an asset.">
            <Textarea value={body} readOnly={readOnly} rows={6} onChange={(e) => { setBody(e.target.value); }} />
          </Field>
          <div className="grid items-start gap-4 sm:grid-cols-3">
            <Field label="Product">
              <NativeSelect value={productId} disabled={readOnly} onChange={(e) => { setProductId(e.target.value); }}>
                <option value="">No product</option>
                {products.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.brand_name}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Claim">
              <NativeSelect value={claimId} disabled={readOnly} onChange={(e) => { setClaimId(e.target.value); }}>
                <option value="">No claim</option>
                {(claims.data ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.text.length > 60 ? `${c.text.slice(0, 60)}…` : c.text}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Expires">
              <Input type="date" value={expiresAt} readOnly={readOnly && !decides} onChange={(e) => { setExpiresAt(e.target.value); }} />
            </Field>
          </div>
          {save.isError ? (
            <Alert variant="destructive">
              <AlertDescription>{errorMessage(save.error, "The module could not be saved.")}</AlertDescription>
            </Alert>
          ) : null}
          <DialogFooter>
            <Button variant="outline" onClick={onClose}>
              {readOnly ? "Close" : "Cancel"}
            </Button>
            {readOnly && !(decides && module) ? null : (
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? "Saving…" : module ? "Save module" : "Create module"}
              </Button>
            )}
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
