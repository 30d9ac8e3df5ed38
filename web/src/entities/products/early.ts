/** The early load of the product names an asset's page shows (lib/early); free of the query library. */
export const productSummariesEarly = {
  key: "products:summary",
  path: "/rest/v1/products?select=id,brand_name,established_name&order=brand_name.asc",
};
