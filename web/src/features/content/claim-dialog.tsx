import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link2, Unlink } from "lucide-react";
import { useMemo, useState, type SubmitEvent } from "react";
import { toast } from "sonner";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input, Textarea } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/select";
import { Separator } from "@/components/ui/separator";
import { Skeleton } from "@/components/ui/skeleton";
import { useProfile } from "@/lib/auth";
import { CLAIM_STATUSES, claimStatusLabel, decidesContentStatus, STATUS_DECIDED_HINT } from "@/lib/content-types";
import { errorMessage } from "@/lib/errors";
import { type Claim, type ClaimReference, CONTENT_KEY, deleteRow, type Product, saveRow, useAllReferences, useClaimReferences } from "./api";

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
  const [text, setText] = useState(claim?.text ?? "");
  const [variants, setVariants] = useState((claim?.variants ?? []).join("\n"));
  const [productId, setProductId] = useState(claim?.product_id ?? "");
  const [status, setStatus] = useState(claim?.status ?? "draft");
  const [expiresAt, setExpiresAt] = useState(claim?.expires_at ?? "");
  const [textError, setTextError] = useState<string>();

  const decides = decidesContentStatus(useProfile().data?.role);
  // Authors edit drafts; a decided claim is its reviewers' (the server's rule).
  const readOnly = !canWrite || (!decides && (saved?.status ?? "draft") !== "draft");
  const save = useMutation({
    mutationFn: () =>
      saveRow<Claim>(
        "claims",
        saved?.id ?? null,
        readOnly
          ? { status, expires_at: expiresAt || null }
          : {
              text: text.trim(),
              variants: variants
                .split("\n")
                .map((v) => v.trim())
                .filter(Boolean),
              product_id: productId || null,
              ...(decides ? { status } : {}),
              expires_at: expiresAt || null,
            },
      ),
    onSuccess: (row) => {
      void queryClient.invalidateQueries({ queryKey: [CONTENT_KEY] });
      if (saved) {
        toast.success("Claim saved");
        onClose();
      } else {
        toast.success("Claim created", { description: "Now link the reference passages that substantiate it." });
        setSaved(row);
      }
    },
  });

  const submit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (text.trim() === "") {
      setTextError("Write the claim.");
      return;
    }
    setTextError(undefined);
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
          <DialogTitle>{saved ? (readOnly ? "Claim" : "Edit claim") : "New claim"}</DialogTitle>
          <DialogDescription>A statement your organisation may make, substantiated down to the page and passage of its references.</DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <Field label="Claim" error={textError}>
            <Textarea value={text} readOnly={readOnly} rows={3} maxLength={2000} onChange={(e) => { setText(e.target.value); }} />
          </Field>
          <Field label="Variants" hint="Approved alternative wordings, one per line.">
            <Textarea value={variants} readOnly={readOnly} rows={2} onChange={(e) => { setVariants(e.target.value); }} />
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
            <Field label="Status" hint={decides ? undefined : STATUS_DECIDED_HINT}>
              <NativeSelect value={status} disabled={!decides} onChange={(e) => { setStatus(e.target.value); }}>
                {CLAIM_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {claimStatusLabel(s)}
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
              <AlertDescription>{errorMessage(save.error, "The claim could not be saved.")}</AlertDescription>
            </Alert>
          ) : null}
          {readOnly && !(decides && saved) ? null : (
            <div className="flex justify-end">
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? "Saving…" : saved ? "Save claim" : "Create claim"}
              </Button>
            </div>
          )}
        </form>

        <Separator />
        {saved ? (
          <Passages claimId={saved.id} canWrite={canWrite} />
        ) : (
          <p className="text-sm text-muted-foreground">Create the claim to link the reference passages that substantiate it.</p>
        )}

        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function Passages({ claimId, canWrite }: { claimId: string; canWrite: boolean }) {
  const queryClient = useQueryClient();
  const links = useClaimReferences(claimId);
  const references = useAllReferences();
  const refById = useMemo(() => new Map((references.data ?? []).map((r) => [r.id, r])), [references.data]);
  const [referenceId, setReferenceId] = useState("");
  const [page, setPage] = useState("1");
  const [passage, setPassage] = useState("");
  const [formError, setFormError] = useState<string>();
  const chosen = refById.get(referenceId);

  const invalidate = () => queryClient.invalidateQueries({ queryKey: [CONTENT_KEY, "claim_references", claimId] });

  const link = useMutation({
    mutationFn: () =>
      saveRow<ClaimReference>("claim_references", null, {
        claim_id: claimId,
        reference_id: referenceId,
        page: Number(page),
        passage: passage.trim(),
      }),
    onSuccess: () => {
      toast.success("Passage linked");
      setPassage("");
      void invalidate();
    },
  });
  const unlink = useMutation({
    mutationFn: (id: string) => deleteRow("claim_references", id),
    onSuccess: () => {
      toast.success("Passage unlinked");
      void invalidate();
    },
    onError: (err) => toast.error(errorMessage(err, "The passage could not be unlinked.")),
  });

  const submit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    link.reset();
    const n = Number(page);
    let problem: string | undefined;
    if (!referenceId) problem = "Choose a reference.";
    else if (!Number.isInteger(n) || n < 1) problem = "Enter a page number (1 or more).";
    else if (chosen && chosen.page_count > 0 && n > chosen.page_count) {
      problem = `This reference has ${chosen.page_count} ${chosen.page_count === 1 ? "page" : "pages"}.`;
    } else if (passage.trim() === "") problem = "Quote the passage that supports the claim.";
    setFormError(problem);
    if (!problem) link.mutate();
  };

  return (
    <section aria-labelledby="passages-title" className="grid gap-3">
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
            <li key={l.id} className="flex items-start justify-between gap-3 rounded-lg border bg-muted/30 px-3 py-2 text-sm">
              <p className="min-w-0 leading-6">
                <span className="font-medium">{refById.get(l.reference_id)?.title ?? "Reference"}</span>, p. {l.page}: “{l.passage}”
              </p>
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
            </li>
          ))}
        </ul>
      )}

      {canWrite ? (
        <form className="grid gap-3 rounded-lg border p-3" onSubmit={submit} noValidate aria-label="Link reference passage">
          <p className="text-sm font-medium">Link reference passage</p>
          <div className="grid gap-3 sm:grid-cols-[1fr_7rem]">
            <Field label="Reference">
              <NativeSelect value={referenceId} onChange={(e) => { setReferenceId(e.target.value); }}>
                <option value="">Choose a reference…</option>
                {(references.data ?? []).map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.title}
                    {r.page_count > 0 ? ` (${r.page_count} p.)` : ""}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Page">
              <Input type="number" inputMode="numeric" min={1} max={chosen && chosen.page_count > 0 ? chosen.page_count : undefined} value={page} onChange={(e) => { setPage(e.target.value); }} />
            </Field>
          </div>
          <Field label="Quoted passage" hint="Copy the words exactly as they appear on that page.">
            <Textarea value={passage} rows={2} maxLength={2000} onChange={(e) => { setPassage(e.target.value); }} />
          </Field>
          {formError ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {formError}
            </p>
          ) : null}
          {link.isError ? (
            <Alert variant="destructive">
              <AlertDescription>{errorMessage(link.error, "The passage could not be linked.")}</AlertDescription>
            </Alert>
          ) : null}
          <div className="flex justify-end">
            <Button type="submit" variant="outline" disabled={link.isPending}>
              <Link2 aria-hidden="true" />
              {link.isPending ? "Linking…" : "Link passage"}
            </Button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
