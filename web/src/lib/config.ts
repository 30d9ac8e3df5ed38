import { ApiError, getJSON, isRecord, type RequestOptions } from "./api";

/** Public, per-instance settings served by `GET /api/config`. */
export interface PublicConfig {
  /** The anonymous (public) API key; safe to ship to browsers. */
  anonKey: string;
  /** The instance's public base URL, as configured on the server. */
  siteUrl: string;
  /** The server's version. */
  version: string;
  /** Whether the passcode gate is on (the API then needs the gate cookie). */
  gate: boolean;
  /** Whether this browser holds a valid gate cookie (or the gate is off). */
  gatePassed: boolean;
  /** Whether the operator allows the read-only preview of the demo workspace. */
  preview: boolean;
}

let cached: Promise<PublicConfig> | undefined;

/** Fetches and validates the instance's public configuration. */
export async function fetchConfig(options?: RequestOptions): Promise<PublicConfig> {
  const body = await getJSON("/api/config", options);
  if (!isRecord(body) || typeof body.anon_key !== "string" || body.anon_key === "") {
    throw new ApiError("The server configuration has no anon_key.", 200);
  }
  return {
    anonKey: body.anon_key,
    siteUrl: typeof body.site_url === "string" ? body.site_url : window.location.origin,
    version: typeof body.version === "string" ? body.version : "",
    gate: body.gate === true,
    gatePassed: body.gate_passed !== false,
    preview: body.preview === true,
  };
}

/** The configuration, fetched once per page load (a failure is retried on the next call). */
export function getConfig(): Promise<PublicConfig> {
  cached ??= fetchConfig().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

/** Forgets the cached configuration, e.g. after the gate was passed. */
export function resetConfig(): void {
  cached = undefined;
}
