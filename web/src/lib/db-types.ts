import type { Database, Json } from "./database.types";

export type { Json };

/**
 * Short names for the generated types of the data API (database.types.ts,
 * written by `fairbalance gen types` from the server's registry): a table's
 * row, insert and update shapes and a function's arguments. Hand-written
 * row types drift from the server; these cannot.
 */

type PublicSchema = Database["public"];

/** The tables (and views) the data API serves. */
export type TableName = keyof PublicSchema["Tables"];

/** A table's generated shapes: `Tables<"products">["Row"]`, `["Insert"]`, `["Update"]`. */
export type Tables<T extends TableName> = PublicSchema["Tables"][T];

/** A row as the server returns it. */
export type Row<T extends TableName> = Tables<T>["Row"];

/** What an insert may send. */
export type Insert<T extends TableName> = Tables<T>["Insert"];

/** What an update may send. */
export type Update<T extends TableName> = Tables<T>["Update"];

/** The rpc functions the data API serves. */
export type FunctionName = keyof PublicSchema["Functions"];

/** A function's arguments as the registry declares them. */
export type FunctionArgs<F extends FunctionName> = PublicSchema["Functions"][F]["Args"];
