import { auditKeys, type ChainVerification } from "@/entities/audit";

/** The query key of the last recorded verification. */
export const LAST_VERIFICATION_KEY = auditKeys.lastVerification();

/** "Chain intact — 1,234 entries verified", the verification panel's headline. */
export function verificationHeadline(v: Pick<ChainVerification, "ok" | "checked" | "firstBrokenId">): string {
  if (v.ok) return `Chain intact — ${v.checked.toLocaleString("en-US")} ${v.checked === 1 ? "entry" : "entries"} verified`;
  return v.firstBrokenId !== null ? `Chain broken at entry #${v.firstBrokenId}` : "Chain verification failed";
}
