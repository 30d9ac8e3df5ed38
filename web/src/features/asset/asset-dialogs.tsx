import { AlertTriangle } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/select";
import { AUDIENCES, audienceLabel } from "@/lib/content-types";
import { describeServerError, type ServerProblem } from "@/lib/server-error";
import { archiveAsset, updateAsset, type AssetPatch } from "./api";
import type { Asset, Person, ProductSummary } from "./types";

function ProblemAlert({ problem }: { problem: ServerProblem | null }) {
  if (!problem) return null;
  return (
    <Alert variant="destructive">
      <AlertTriangle aria-hidden="true" />
      <AlertTitle>{problem.message}</AlertTitle>
      {problem.detail ? <AlertDescription>{problem.detail}</AlertDescription> : null}
    </Alert>
  );
}

/**
 * Edit details: title, product, audience, channel, market, owner and expiry
 * (the only columns the server lets writers change). Only changed fields
 * are sent.
 */
export function EditDetailsDialog({
  asset,
  products,
  people,
  open,
  onOpenChange,
  onSaved,
}: {
  asset: Asset;
  products: ProductSummary[];
  people: Person[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: () => void | Promise<void>;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        {open ? <EditDetailsForm asset={asset} products={products} people={people} onOpenChange={onOpenChange} onSaved={onSaved} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function EditDetailsForm({
  asset,
  products,
  people,
  onOpenChange,
  onSaved,
}: {
  asset: Asset;
  products: ProductSummary[];
  people: Person[];
  onOpenChange: (open: boolean) => void;
  onSaved: () => void | Promise<void>;
}) {
  const [values, setValues] = useState({
    title: asset.title,
    product_id: asset.product_id ?? "",
    audience: asset.audience,
    channel: asset.channel,
    market: asset.market,
    owner_id: asset.owner_id ?? "",
    expires_at: asset.expires_at ?? "",
  });
  const [titleError, setTitleError] = useState<string | undefined>();
  const [problem, setProblem] = useState<ServerProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [key]: e.target.value }));
  };

  const submit = async () => {
    setProblem(null);
    const title = values.title.trim();
    if (!title) {
      setTitleError("Give the asset a title.");
      return;
    }
    if (title.length > 200) {
      setTitleError("Keep the title under 200 characters.");
      return;
    }
    setTitleError(undefined);
    const next: AssetPatch = {
      title,
      product_id: values.product_id || null,
      audience: values.audience,
      channel: values.channel.trim(),
      market: values.market.trim(),
      owner_id: values.owner_id || null,
      expires_at: values.expires_at || null,
    };
    const patch: AssetPatch = {};
    for (const [k, v] of Object.entries(next) as [keyof AssetPatch, string | null][]) {
      if ((asset[k] ?? null) !== v) Object.assign(patch, { [k]: v });
    }
    if (Object.keys(patch).length === 0) {
      onOpenChange(false);
      return;
    }
    setBusy(true);
    try {
      await updateAsset(asset.id, patch);
      toast.success("Details saved");
      await onSaved();
      onOpenChange(false);
    } catch (error) {
      setProblem(describeServerError(error, "The details could not be saved."));
    } finally {
      setBusy(false);
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
        <DialogTitle>Edit details</DialogTitle>
        <DialogDescription>These describe the asset; its versions do not change.</DialogDescription>
      </DialogHeader>
      <Field label="Title" error={titleError}>
        <Input value={values.title} onChange={set("title")} maxLength={200} autoComplete="off" />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Product">
          <NativeSelect value={values.product_id} onChange={set("product_id")}>
            <option value="">No product</option>
            {products.map((p) => (
              <option key={p.id} value={p.id}>
                {p.brand_name}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field label="Audience">
          <NativeSelect value={values.audience} onChange={set("audience")}>
            {AUDIENCES.map((a) => (
              <option key={a} value={a}>
                {audienceLabel(a)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field label="Channel">
          <Input value={values.channel} onChange={set("channel")} placeholder="e.g. Email" autoComplete="off" />
        </Field>
        <Field label="Market">
          <Input value={values.market} onChange={set("market")} placeholder="e.g. US" autoComplete="off" />
        </Field>
        <Field label="Owner">
          <NativeSelect value={values.owner_id} onChange={set("owner_id")}>
            {values.owner_id === "" ? <option value="">No owner</option> : null}
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.full_name || p.email}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field label="Expiry date" hint="Leave empty for none.">
          <Input type="date" value={values.expires_at} onChange={set("expires_at")} />
        </Field>
      </div>
      <ProblemAlert problem={problem} />
      <DialogFooter>
        <Button
          type="button"
          variant="outline"
          onClick={() => {
            onOpenChange(false);
          }}
        >
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Save details"}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** Asks before archiving: an archived asset cannot change any more. */
export function ArchiveDialog({
  asset,
  open,
  onOpenChange,
  onArchived,
}: {
  asset: Asset;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onArchived: () => void | Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ServerProblem | null>(null);
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!o) setProblem(null);
        onOpenChange(o);
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Archive “{asset.title}”?</DialogTitle>
          <DialogDescription>
            An archived asset keeps its versions and history for the record, but nobody can add versions or change it any more.
          </DialogDescription>
        </DialogHeader>
        <ProblemAlert problem={problem} />
        <DialogFooter>
          <Button
            variant="outline"
            onClick={() => {
              onOpenChange(false);
            }}
          >
            Cancel
          </Button>
          <Button
            variant="destructive"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              setProblem(null);
              archiveAsset(asset.id)
                .then(async () => {
                  toast.success("Asset archived");
                  await onArchived();
                  onOpenChange(false);
                })
                .catch((error: unknown) => {
                  setProblem(describeServerError(error, "The asset could not be archived."));
                })
                .finally(() => {
                  setBusy(false);
                });
            }}
          >
            {busy ? "Archiving…" : "Archive asset"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
