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

function parseConfig(body: unknown): PublicConfig {
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

/** Fetches and validates the instance's public configuration. */
export async function fetchConfig(options?: RequestOptions): Promise<PublicConfig> {
  return parseConfig(await getJSON("/api/config", options));
}

let embeddedTaken = false;

/**
 * The configuration the server put into the page (a JSON data block, the
 * same answer as GET /api/config at the time the page was served), or null
 * when there is none (the development server) or it is unreadable. It
 * describes the page load only, so it is handed out until the first
 * {@link resetConfig}.
 */
export function embeddedConfig(): PublicConfig | null {
  if (embeddedTaken) return null;
  try {
    const text = document.getElementById("fairbalance-config")?.textContent;
    return text ? parseConfig(JSON.parse(text)) : null;
  } catch {
    return null;
  }
}

/**
 * Whether the passcode gate was closed to this browser when the page was
 * served (the configuration the page carries says so). Until it is passed —
 * which loads the page afresh — the server refuses every API request, the
 * renewal of a stored session included, so none is made.
 */
export function gateClosedAtLoad(): boolean {
  const config = embeddedConfig();
  return config !== null && config.gate && !config.gatePassed;
}

/** The configuration, fetched once per page load (a failure is retried on the next call). */
export function getConfig(): Promise<PublicConfig> {
  const embedded = cached ? null : embeddedConfig();
  if (embedded) cached = Promise.resolve(embedded);
  cached ??= fetchConfig().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

/** Forgets the cached configuration, e.g. after the gate was passed. */
export function resetConfig(): void {
  embeddedTaken = true;
  cached = undefined;
}
