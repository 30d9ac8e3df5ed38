/**
 * The early loads of an asset's page (lib/early): the boot script starts
 * them before the app's code has arrived, and the queries take them. Kept
 * free of the query library so the boot script stays small.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` could be an asset id at all (anything else is simply not found). */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/** The early load of an asset row: its key and REST path. */
export const assetEarly = {
  key: (id: string) => `asset:${id}`,
  path: (id: string) => `/rest/v1/assets?select=*&id=eq.${id}`,
};
