import type { Role } from "@/lib/roles";

export { type IssuedInvite, parseIssued } from "@/entities/invites";

/** The roles an invitation or a role change offers (the owner is not handed out here). */
export const ASSIGNABLE_ROLES = [
  "admin",
  "reviewer_medical",
  "reviewer_legal",
  "reviewer_regulatory",
  "marketer",
  "viewer",
] as const satisfies readonly Role[];

/** What each role does, shown under the role picker. */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  owner: "Everything an admin does, and owns the organisation.",
  admin: "Manages members, roles, workspace settings, products and content.",
  reviewer_medical: "Reviews clinical accuracy, claim substantiation and fair balance.",
  reviewer_legal: "Reviews legal risk: comparative claims, trademarks, guarantees, endorsements.",
  reviewer_regulatory: "Reviews labelling, ISI, required statements and FDA 2253 readiness.",
  marketer: "Creates content, runs the pre-screen and submits it for review.",
  viewer: "Reads content, reviews and the audit log.",
};

/** Role ranks as the server compares them (service/tables.go): nobody acts above their own. */
const RANK: Record<string, number> = {
  owner: 3,
  admin: 2,
  reviewer_medical: 1,
  reviewer_legal: 1,
  reviewer_regulatory: 1,
  marketer: 1,
  viewer: 0,
};

/** Whether `actor` may manage someone holding `target` (a hint for the screen; the server decides). */
export function canManage(actor: string | null | undefined, target: string): boolean {
  return (RANK[actor ?? ""] ?? -1) >= 2 && (RANK[target] ?? 0) <= (RANK[actor ?? ""] ?? -1);
}

/** The sign-up link of an invitation token. */
export function inviteLink(token: string, origin: string = window.location.origin): string {
  return `${origin}/signup?invite=${encodeURIComponent(token)}`;
}
