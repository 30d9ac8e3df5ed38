import { ApiError, getJSON, isRecord, type RequestOptions } from "./api";

/** Public, per-instance settings served by `GET /api/config`. */
export interface PublicConfig {
  /** The anonymous (public) API key; safe to ship to browsers. */
  anonKey: string;
  /** The instance's public base URL, as configured on the server. */
  siteUrl: string;
}

/** Fetches and validates the instance's public configuration. */
export async function fetchConfig(options?: RequestOptions): Promise<PublicConfig> {
  const body = await getJSON("/api/config", options);
  if (!isRecord(body) || typeof body.anon_key !== "string" || body.anon_key === "") {
    throw new ApiError("The server configuration has no anon_key.", 200);
  }
  return {
    anonKey: body.anon_key,
    siteUrl: typeof body.site_url === "string" ? body.site_url : window.location.origin,
  };
}
