import { auditKeys, type ChainVerification, type SealStatus } from "@/entities/audit";

/** The query key of the last recorded verification. */
export const LAST_VERIFICATION_KEY = auditKeys.lastVerification();

/** The query key of the chain's seal (audit_checkpoint()). */
export const SEAL_STATUS_KEY = auditKeys.seal();

/** "Chain intact — 1,234 entries verified", the verification panel's headline. */
export function verificationHeadline(v: Pick<ChainVerification, "ok" | "checked" | "firstBrokenId">): string {
  if (v.ok) return `Chain intact — ${v.checked.toLocaleString("en-US")} ${v.checked === 1 ? "entry" : "entries"} verified`;
  return v.firstBrokenId !== null ? `Chain broken at entry #${v.firstBrokenId}` : "Chain verification failed";
}

/** A hash as shown: its first 12 hex digits and an ellipsis. */
export function shortHash(hash: string): string {
  return hash.length > 12 ? `${hash.slice(0, 12)}…` : hash;
}

/** "Sealed up to entry #1,234", or "Not sealed yet". */
export function sealHeadline(seal: Pick<SealStatus, "sealing" | "checkpoint">): string {
  if (seal.checkpoint) return `Sealed up to entry #${seal.checkpoint.seq.toLocaleString("en-US")}`;
  return seal.sealing === "off" ? "Not sealed" : "Not sealed yet";
}

/** How the chain compares with its last checkpoint. */
export interface SealComparison {
  tone: "ok" | "broken" | "unknown";
  text: string;
}

/**
 * What the last verification (run now or recorded in the trail) says of the
 * checkpoint: it matched, it did not, or the chain was not compared with a
 * checkpoint yet. A verification against an older checkpoint is reported
 * as such.
 */
export function sealComparison(
  checkpoint: SealStatus["checkpoint"],
  verification: Pick<ChainVerification, "checkpoint"> | null,
): SealComparison {
  if (checkpoint && !checkpoint.signatureOk) return { tone: "broken", text: "The checkpoint’s signature does not verify" };
  const compared = verification?.checkpoint ?? null;
  if (!compared) {
    return checkpoint
      ? { tone: "unknown", text: "Not compared yet — verify the chain to check it against this checkpoint" }
      : { tone: "unknown", text: "" };
  }
  const entry = `#${compared.seq.toLocaleString("en-US")}`;
  if (!compared.matches) return { tone: "broken", text: `The chain does not match the checkpoint of entry ${entry}` };
  if (compared.seq === checkpoint?.seq) return { tone: "ok", text: "The chain matches this checkpoint" };
  return { tone: "ok", text: `The chain matched the checkpoint of entry ${entry} when last verified` };
}
