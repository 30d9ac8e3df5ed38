import { ApiError, getJSON, isRecord, type RequestOptions } from "@/lib/api";

/** The body of `GET /api/health`. */
export interface Health {
  /** "ok" when the instance is healthy; any other value is shown as-is. */
  status: string;
  version: string;
  /** The storage backend, "sqlite" or "postgres". */
  database: string;
  /** The highest schema migration applied. */
  migration: number;
}

export const healthQueryKey = ["health"] as const;

/** Fetches the instance status and checks the body has the expected shape. */
export async function fetchHealth(options?: RequestOptions): Promise<Health> {
  return parseHealth(await getJSON("/api/health", options));
}

export function parseHealth(body: unknown): Health {
  if (
    !isRecord(body) ||
    typeof body.status !== "string" ||
    typeof body.version !== "string" ||
    typeof body.database !== "string" ||
    typeof body.migration !== "number" ||
    !Number.isInteger(body.migration)
  ) {
    throw new ApiError("The server sent a status report in an unexpected format.", 200);
  }
  return {
    status: body.status,
    version: body.version,
    database: body.database,
    migration: body.migration,
  };
}

const databaseLabels: Record<string, string> = {
  sqlite: "SQLite",
  postgres: "PostgreSQL",
};

export function databaseLabel(database: string): string {
  return databaseLabels[database] ?? database;
}
