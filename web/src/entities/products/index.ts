import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { assetKeys } from "@/entities/assets";
import { invalidateContent } from "@/entities/content";
import { unwrap } from "@/lib/data";
import type { Insert, Row } from "@/lib/db-types";
import { assetPageLoads, earlyOr } from "@/lib/early";
import { getSupabase } from "@/lib/supabase";

/** A product (table `products`). */
export type Product = Row<"products">;

/** A product as pickers and an asset's details show it. */
export type ProductSummary = Pick<Product, "id" | "brand_name" | "established_name">;

/** The columns the product form writes. */
export type ProductValues = Pick<
  Insert<"products">,
  "brand_name" | "established_name" | "indications" | "isi_text" | "pi_reference" | "launch_date" | "markets"
>;

/**
 * Every product query sits under `products`: the full rows (Settings, the
 * Hub's pickers and filters) and the names an asset's page shows.
 */
export const productKeys = {
  all: ["products"] as const,
  list: () => [...productKeys.all, "list"] as const,
  summaries: () => [...productKeys.all, "summaries"] as const,
};

/** The organisation's products, by brand name (active and inactive). */
export function productsQuery() {
  return queryOptions({
    queryKey: productKeys.list(),
    queryFn: async (): Promise<Product[]> => {
      const sb = await getSupabase();
      return unwrap(await sb.from("products").select("*").order("brand_name", { ascending: true }));
    },
  });
}

/** The products' names, for an asset's page (the boot script's early load when there is one). */
export function productSummariesQuery() {
  return queryOptions({
    queryKey: productKeys.summaries(),
    queryFn: () =>
      earlyOr(assetPageLoads.productNames.key, async (): Promise<ProductSummary[]> => {
        const sb = await getSupabase();
        return unwrap(await sb.from("products").select("id, brand_name, established_name").order("brand_name"));
      }),
  });
}

/** Inserts (id null) or updates a product, returning the server's row. */
export async function saveProduct(id: string | null, values: ProductValues): Promise<Product> {
  const sb = await getSupabase();
  return id
    ? unwrap(await sb.from("products").update(values).eq("id", id).select("*").single())
    : unwrap(await sb.from("products").insert(values).select("*").single());
}

/** Deactivates or reactivates a product (products in use are never deleted). */
export async function setProductActive(id: string, active: boolean): Promise<Product> {
  const sb = await getSupabase();
  return unwrap(await sb.from("products").update({ active }).eq("id", id).select("*").single());
}

/**
 * Refreshes every screen that shows a product after one changed: the
 * product queries themselves, and the asset queries and search results,
 * which show products by name (an asset's page shows its product's name).
 */
export async function invalidateProducts(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: productKeys.all }),
    queryClient.invalidateQueries({ queryKey: assetKeys.all }),
    invalidateContent(queryClient),
  ]);
}
