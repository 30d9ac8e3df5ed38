import type { Member } from "./fixtures";
import type { Server } from "./server";

/**
 * Content calls made as a member (with their own token), the way the app
 * makes them: for arranging assets in tests without clicking through the
 * Hub.
 */

/** A member's access token (password grant). */
export async function accessToken(server: Server, member: Pick<Member, "email" | "password">): Promise<string> {
  const res = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: server.anonKey, "Content-Type": "application/json" },
    body: JSON.stringify({ email: member.email, password: member.password }),
  });
  if (!res.ok) throw new Error(`sign in: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Calls an rpc as the token's member and returns its JSON, failing on an error. */
export async function rpcAs<T = Record<string, unknown>>(server: Server, token: string, name: string, args: Record<string, unknown>): Promise<T> {
  const res = await fetch(`${server.url}/rest/v1/rpc/${name}`, {
    method: "POST",
    headers: { apikey: server.anonKey, Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(args),
  });
  if (!res.ok) throw new Error(`rpc ${name}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Inserts a row through the data API as the token's member; returns it. */
export async function insertAs<T = Record<string, unknown>>(server: Server, token: string, table: string, row: Record<string, unknown>): Promise<T> {
  const res = await fetch(`${server.url}/rest/v1/${table}`, {
    method: "POST",
    headers: {
      apikey: server.anonKey,
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
      Prefer: "return=representation",
    },
    body: JSON.stringify(row),
  });
  if (!res.ok) throw new Error(`insert ${table}: ${res.status} ${await res.text()}`);
  const [created] = (await res.json()) as T[];
  if (!created) throw new Error(`insert ${table}: no row`);
  return created;
}

/** Uploads a file to `asset-files` through prepare_upload and its signed URL; returns the object path. */
export async function uploadAssetFile(server: Server, token: string, bytes: Buffer, fileName: string, contentType: string): Promise<string> {
  const prepared = await rpcAs<{ path: string; signed_url: string }>(server, token, "prepare_upload", {
    bucket: "asset-files",
    file_name: fileName,
    content_type: contentType,
    size: bytes.length,
  });
  const res = await fetch(`${server.url}${prepared.signed_url}`, {
    method: "PUT",
    headers: { apikey: server.anonKey, Authorization: `Bearer ${token}`, "x-upsert": "false", "content-type": contentType },
    body: new Uint8Array(bytes),
  });
  if (!res.ok) throw new Error(`upload: ${res.status} ${await res.text()}`);
  return prepared.path;
}

/** Creates an asset whose version 1 is the given file; returns the asset row. */
export async function createFileAsset(
  server: Server,
  token: string,
  opts: { title: string; bytes: Buffer; fileName: string; contentType?: string; type?: string; market?: string },
): Promise<{ id: string; job_code: string; current_version_id: string }> {
  const contentType = opts.contentType ?? "application/pdf";
  const path = await uploadAssetFile(server, token, opts.bytes, opts.fileName, contentType);
  return rpcAs(server, token, "create_asset", {
    title: opts.title,
    type: opts.type ?? "detail_aid",
    audience: "hcp",
    channel: "Field force",
    market: opts.market ?? "US",
    file_path: path,
    file_name: opts.fileName,
    change_note: "First draft",
  });
}
