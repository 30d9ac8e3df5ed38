import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Package, Pencil, Plus, X } from "lucide-react";
import { useState, type KeyboardEvent } from "react";
import { useController, useForm } from "react-hook-form";
import { toast } from "sonner";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { EntityFormDialog } from "@/components/ui/entity-form-dialog";
import { Field } from "@/components/ui/field";
import { FormField } from "@/components/ui/form";
import { Input, Textarea } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { invalidateProducts, type Product, productsQuery, saveProduct, setProductActive } from "@/entities/products";
import { type ProductFormInput, type ProductFormOutput, productFormValues, productSchema } from "@/entities/products/schema";
import { errorMessage } from "@/lib/errors";
import { formatDate } from "@/lib/format-time";

/**
 * Products & ISI (Settings, owners and admins): the organisation's
 * therapeutic products with their established name, approved indications,
 * Important Safety Information, prescribing-information reference, launch
 * date and markets. Products are deactivated rather than deleted once
 * assets use them; the server enforces who may change them.
 */
export function ProductsSettingsCard() {
  const queryClient = useQueryClient();
  const products = useQuery(productsQuery());
  const [editing, setEditing] = useState<Product | null | undefined>(undefined);

  const toggle = useMutation({
    mutationFn: (p: Product) => setProductActive(p.id, !p.active),
    onSuccess: (p) => {
      toast.success(p.active ? `${p.brand_name} reactivated` : `${p.brand_name} deactivated`);
      void invalidateProducts(queryClient);
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
                    <span className="font-medium wrap-anywhere">{p.brand_name}</span>
                    {p.established_name ? <span className="text-sm text-muted-foreground wrap-anywhere">({p.established_name})</span> : null}
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

/** A market code as the chips accept it (the server allows any short text; codes keep the list tidy). */
const MARKET_PATTERN = /^[A-Z]{2,3}$/;

function ProductDialog({ product, onClose }: { product: Product | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm<ProductFormInput, unknown, ProductFormOutput>({
    resolver: zodResolver(productSchema),
    defaultValues: productFormValues(product),
  });
  const save = useMutation({
    mutationFn: (values: ProductFormOutput) => saveProduct(product?.id ?? null, values),
    onSuccess: (p) => {
      toast.success(product ? `${p.brand_name} saved` : `${p.brand_name} added`);
      void invalidateProducts(queryClient);
      onClose();
    },
  });
  const { register } = form;

  return (
    <EntityFormDialog
      form={form}
      title={product ? `Edit ${product.brand_name}` : "Add product"}
      description="Reviewers check every asset for this product against its indications and ISI."
      onSubmit={(values) => save.mutateAsync(values)}
      onClose={onClose}
      submitLabel={product ? "Save product" : "Add product"}
      errorFallback="The product could not be saved."
    >
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField name="brand_name" label="Brand name">
          <Input maxLength={120} {...register("brand_name")} />
        </FormField>
        <FormField name="established_name" label="Established name" hint="The generic (non-proprietary) name.">
          <Input {...register("established_name")} />
        </FormField>
      </div>
      <FormField name="indications" label="Approved indications">
        <Textarea rows={3} {...register("indications")} />
      </FormField>
      <FormField name="isi_text" label="Important Safety Information (ISI)" hint="The full ISI text, as approved.">
        <Textarea rows={10} className="min-h-48 leading-6" {...register("isi_text")} />
      </FormField>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField name="pi_reference" label="Prescribing information reference">
          <Input placeholder="e.g. PI rev. 03/2026" {...register("pi_reference")} />
        </FormField>
        <FormField name="launch_date" label="Launch date">
          <Input type="date" {...register("launch_date")} />
        </FormField>
      </div>
      <MarketsField />
    </EntityFormDialog>
  );
}

/**
 * The product's markets as chips: type a code and press Enter (or a
 * comma); Backspace in the empty box removes the last one.
 */
function MarketsField() {
  const {
    field: { ref, value: markets, onChange, onBlur },
    fieldState,
  } = useController<ProductFormInput, "markets">({ name: "markets" });
  const [draft, setDraft] = useState("");
  const [draftError, setDraftError] = useState<string>();

  const addMarket = () => {
    const code = draft.trim().toUpperCase();
    if (code === "") return;
    if (!MARKET_PATTERN.test(code)) {
      setDraftError("Use a two- or three-letter market code, e.g. US or EU.");
      return;
    }
    setDraftError(undefined);
    if (!markets.includes(code)) onChange([...markets, code]);
    setDraft("");
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter" || e.key === ",") {
      e.preventDefault();
      addMarket();
    } else if (e.key === "Backspace" && draft === "" && markets.length > 0) {
      onChange(markets.slice(0, -1));
    }
  };

  return (
    <Field label="Markets" error={draftError ?? fieldState.error?.message} hint="Type a market code and press Enter.">
      <div className="flex min-h-10 flex-wrap items-center gap-1.5 rounded-md border border-input bg-card px-2 py-1.5 shadow-xs focus-within:border-ring focus-within:ring-2 focus-within:ring-ring/30">
        {markets.map((m) => (
          <span key={m} className="inline-flex items-center gap-1 rounded-full bg-secondary py-0.5 pr-1 pl-2 font-mono text-xs font-medium">
            {m}
            <button
              type="button"
              aria-label={`Remove ${m}`}
              className="inline-flex size-4 items-center justify-center rounded-full hover:bg-muted-foreground/20 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              onClick={() => {
                onChange(markets.filter((x) => x !== m));
              }}
            >
              <X aria-hidden="true" className="size-3" />
            </button>
          </span>
        ))}
        <input
          ref={ref}
          aria-label="Add market"
          value={draft}
          placeholder={markets.length === 0 ? "US, EU…" : ""}
          maxLength={3}
          className="h-7 min-w-16 flex-1 bg-transparent px-1 text-sm uppercase outline-none placeholder:text-muted-foreground/80 placeholder:normal-case"
          onChange={(e) => {
            setDraft(e.target.value);
          }}
          onKeyDown={onKey}
          onBlur={() => {
            addMarket();
            onBlur();
          }}
        />
      </div>
    </Field>
  );
}
