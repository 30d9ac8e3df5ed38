import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Package, Pencil, Plus, X } from "lucide-react";
import { useState, type KeyboardEvent, type SubmitEvent } from "react";
import { toast } from "sonner";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Input, Textarea } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { unwrap } from "@/lib/data";
import type { Database } from "@/lib/database.types";
import { errorMessage } from "@/lib/errors";
import { formatDate } from "@/lib/format-time";
import { getSupabase } from "@/lib/supabase";

type Product = Database["public"]["Tables"]["products"]["Row"];

/** Shared with the Content Hub's queries, so a change here refreshes its pickers. */
const PRODUCTS_KEY = ["content", "products"];

const MARKET_PATTERN = /^[A-Z]{2,3}$/;

/**
 * Products & ISI (Settings, owners and admins): the organisation's
 * therapeutic products with their established name, approved indications,
 * Important Safety Information, prescribing-information reference, launch
 * date and markets. Products are deactivated rather than deleted once
 * assets use them; the server enforces who may change them.
 */
export function ProductsSettingsCard() {
  const queryClient = useQueryClient();
  const products = useQuery({
    queryKey: PRODUCTS_KEY,
    queryFn: async () => {
      const sb = await getSupabase();
      return unwrap<Product[]>(await sb.from("products").select("*").order("brand_name", { ascending: true }));
    },
  });
  const [editing, setEditing] = useState<Product | null | undefined>(undefined);

  const toggle = useMutation({
    mutationFn: async (p: Product) => {
      const sb = await getSupabase();
      return unwrap<Product>(await sb.from("products").update({ active: !p.active }).eq("id", p.id).select("*").single());
    },
    onSuccess: (p) => {
      toast.success(p.active ? `${p.brand_name} reactivated` : `${p.brand_name} deactivated`);
      void queryClient.invalidateQueries({ queryKey: PRODUCTS_KEY });
    },
    onError: (err) => toast.error(errorMessage(err, "The product could not be changed.")),
  });

  const list = products.data ?? [];
  return (
    <Card>
      <CardHeader className="flex-row items-start gap-4">
        <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10">
          <Package aria-hidden="true" className="size-5 text-primary" />
        </span>
        <div className="grid flex-1 gap-1.5">
          <CardTitle id="products-title">Products &amp; ISI</CardTitle>
          <CardDescription>The products your content promotes, with the safety information every asset must carry.</CardDescription>
        </div>
        {list.length > 0 ? (
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              setEditing(null);
            }}
          >
            <Plus aria-hidden="true" />
            Add product
          </Button>
        ) : null}
      </CardHeader>
      <CardContent>
        {products.isPending ? (
          <div className="grid gap-2">
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
          </div>
        ) : products.isError ? (
          <Alert variant="destructive">
            <AlertDescription className="flex flex-wrap items-center justify-between gap-3">
              <span>{errorMessage(products.error, "The products could not be loaded.")}</span>
              <Button variant="outline" size="sm" onClick={() => void products.refetch()}>
                Retry
              </Button>
            </AlertDescription>
          </Alert>
        ) : list.length === 0 ? (
          <EmptyState
            icon={Package}
            title="No products yet"
            action={
              <Button
                onClick={() => {
                  setEditing(null);
                }}
              >
                <Plus aria-hidden="true" />
                Add product
              </Button>
            }
          >
            Add a product with its ISI so marketers can tag assets and reviewers can check fair balance.
          </EmptyState>
        ) : (
          <ul className="divide-y rounded-lg border" aria-labelledby="products-title">
            {list.map((p) => (
              <li key={p.id} className="flex flex-col gap-3 p-3 sm:flex-row sm:items-start sm:justify-between">
                <div className="grid min-w-0 gap-1">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{p.brand_name}</span>
                    {p.established_name ? <span className="text-sm text-muted-foreground">({p.established_name})</span> : null}
                    {p.active ? null : <Badge variant="gray">Inactive</Badge>}
                  </p>
                  <p className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
                    {p.markets.map((m) => (
                      <Badge key={m} variant="outline" className="font-mono">
                        {m}
                      </Badge>
                    ))}
                    {p.launch_date ? <span>Launched {formatDate(`${p.launch_date}T12:00:00`)}</span> : null}
                    <span>{p.isi_text.trim() ? "ISI on file" : "No ISI yet"}</span>
                  </p>
                </div>
                <div className="flex shrink-0 gap-2">
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Edit ${p.brand_name}`}
                    onClick={() => {
                      setEditing(p);
                    }}
                  >
                    <Pencil aria-hidden="true" />
                    Edit
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`${p.active ? "Deactivate" : "Reactivate"} ${p.brand_name}`}
                    disabled={toggle.isPending}
                    onClick={() => {
                      toggle.mutate(p);
                    }}
                  >
                    {p.active ? "Deactivate" : "Reactivate"}
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      {editing !== undefined ? (
        <ProductDialog
          product={editing}
          onClose={() => {
            setEditing(undefined);
          }}
        />
      ) : null}
    </Card>
  );
}

function ProductDialog({ product, onClose }: { product: Product | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [brand, setBrand] = useState(product?.brand_name ?? "");
  const [established, setEstablished] = useState(product?.established_name ?? "");
  const [indications, setIndications] = useState(product?.indications ?? "");
  const [isi, setIsi] = useState(product?.isi_text ?? "");
  const [pi, setPi] = useState(product?.pi_reference ?? "");
  const [launch, setLaunch] = useState(product?.launch_date ?? "");
  const [markets, setMarkets] = useState<string[]>(product?.markets ?? []);
  const [marketDraft, setMarketDraft] = useState("");
  const [errors, setErrors] = useState<{ brand?: string; market?: string }>({});

  const save = useMutation({
    mutationFn: async () => {
      const sb = await getSupabase();
      const values = {
        brand_name: brand.trim(),
        established_name: established.trim(),
        indications: indications.trim(),
        isi_text: isi,
        pi_reference: pi.trim(),
        launch_date: launch || null,
        markets,
      };
      return product
        ? unwrap<Product>(await sb.from("products").update(values).eq("id", product.id).select("*").single())
        : unwrap<Product>(await sb.from("products").insert(values).select("*").single());
    },
    onSuccess: (p) => {
      toast.success(product ? `${p.brand_name} saved` : `${p.brand_name} added`);
      void queryClient.invalidateQueries({ queryKey: PRODUCTS_KEY });
      onClose();
    },
  });

  const addMarket = () => {
    const code = marketDraft.trim().toUpperCase();
    if (code === "") return;
    if (!MARKET_PATTERN.test(code)) {
      setErrors((e) => ({ ...e, market: "Use a two- or three-letter market code, e.g. US or EU." }));
      return;
    }
    setErrors((e) => ({ ...e, market: undefined }));
    if (!markets.includes(code)) setMarkets([...markets, code]);
    setMarketDraft("");
  };
  const onMarketKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter" || e.key === ",") {
      e.preventDefault();
      addMarket();
    } else if (e.key === "Backspace" && marketDraft === "" && markets.length > 0) {
      setMarkets(markets.slice(0, -1));
    }
  };

  const submit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (brand.trim() === "") {
      setErrors({ brand: "Enter the brand name." });
      return;
    }
    setErrors({});
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
          <DialogTitle>{product ? `Edit ${product.brand_name}` : "Add product"}</DialogTitle>
          <DialogDescription>Reviewers check every asset for this product against its indications and ISI.</DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <div className="grid items-start gap-4 sm:grid-cols-2">
            <Field label="Brand name" error={errors.brand}>
              <Input value={brand} maxLength={120} onChange={(e) => { setBrand(e.target.value); }} />
            </Field>
            <Field label="Established name" hint="The generic (non-proprietary) name.">
              <Input value={established} onChange={(e) => { setEstablished(e.target.value); }} />
            </Field>
          </div>
          <Field label="Approved indications">
            <Textarea value={indications} rows={3} onChange={(e) => { setIndications(e.target.value); }} />
          </Field>
          <Field label="Important Safety Information (ISI)" hint="The full ISI text, as approved.">
            <Textarea value={isi} rows={10} className="min-h-48 leading-6" onChange={(e) => { setIsi(e.target.value); }} />
          </Field>
          <div className="grid items-start gap-4 sm:grid-cols-2">
            <Field label="Prescribing information reference">
              <Input value={pi} placeholder="e.g. PI rev. 03/2026" onChange={(e) => { setPi(e.target.value); }} />
            </Field>
            <Field label="Launch date">
              <Input type="date" value={launch} onChange={(e) => { setLaunch(e.target.value); }} />
            </Field>
          </div>
          <Field label="Markets" error={errors.market} hint="Type a market code and press Enter.">
            <div className="flex min-h-10 flex-wrap items-center gap-1.5 rounded-md border border-input bg-card px-2 py-1.5 shadow-xs focus-within:border-ring focus-within:ring-2 focus-within:ring-ring/30">
              {markets.map((m) => (
                <span key={m} className="inline-flex items-center gap-1 rounded-full bg-secondary py-0.5 pr-1 pl-2 font-mono text-xs font-medium">
                  {m}
                  <button
                    type="button"
                    aria-label={`Remove ${m}`}
                    className="inline-flex size-4 items-center justify-center rounded-full hover:bg-muted-foreground/20 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                    onClick={() => {
                      setMarkets(markets.filter((x) => x !== m));
                    }}
                  >
                    <X aria-hidden="true" className="size-3" />
                  </button>
                </span>
              ))}
              <input
                aria-label="Add market"
                value={marketDraft}
                placeholder={markets.length === 0 ? "US, EU…" : ""}
                maxLength={3}
                className="h-7 min-w-16 flex-1 bg-transparent px-1 text-sm uppercase outline-none placeholder:text-muted-foreground/80 placeholder:normal-case"
                onChange={(e) => {
                  setMarketDraft(e.target.value);
                }}
                onKeyDown={onMarketKey}
                onBlur={addMarket}
              />
            </div>
          </Field>
          {save.isError ? (
            <Alert variant="destructive">
              <AlertDescription>{errorMessage(save.error, "The product could not be saved.")}</AlertDescription>
            </Alert>
          ) : null}
          <DialogFooter>
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? "Saving…" : product ? "Save product" : "Add product"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
