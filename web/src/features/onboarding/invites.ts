// The onboarding wizard's rules, kept free of React so they are tested on
// their own: progress, the invite rows and which of them count.

/** The wizard's two steps (spec: labelled Organization and Team). */
export const ONBOARDING_STEPS = ["Organization", "Team"] as const;

/** Spec §9: onboarding progress = step × 50 (step 1 → 50 %, step 2 → 100 %). */
export function onboardingProgress(step: number): number {
  const clamped = Math.min(Math.max(Math.trunc(step), 1), ONBOARDING_STEPS.length);
  return clamped * 50;
}

/** The industries offered for a new organization (optional). */
export const INDUSTRIES = ["Pharmaceutical", "Biotechnology", "Medical Device", "Healthcare", "Other"] as const;

/** The roles the wizard offers (spec §1: admin, reviewer and marketer). */
export type InviteRoleChoice = "marketer" | "reviewer" | "admin";

/** The review area of a "reviewer" (product.md §1: stored as one of the three reviewer roles). */
export type ReviewerArea = "reviewer_medical" | "reviewer_legal" | "reviewer_regulatory";

export const ROLE_CHOICES: { value: InviteRoleChoice; label: string }[] = [
  { value: "marketer", label: "Marketer" },
  { value: "reviewer", label: "Reviewer" },
  { value: "admin", label: "Admin" },
];

export const REVIEWER_AREAS: { value: ReviewerArea; label: string }[] = [
  { value: "reviewer_medical", label: "Medical" },
  { value: "reviewer_legal", label: "Legal" },
  { value: "reviewer_regulatory", label: "Regulatory" },
];

/** One row of the Team step (spec §3: onboarding invite row — id, e-mail, role). */
export interface InviteRow {
  id: string;
  email: string;
  role: InviteRoleChoice;
  /** Used only when role is "reviewer". */
  reviewerArea: ReviewerArea;
}

let nextRowId = 0;

/** A blank row: marketer by default (spec). */
export function newInviteRow(): InviteRow {
  nextRowId += 1;
  return { id: `invite-${String(nextRowId)}`, email: "", role: "marketer", reviewerArea: "reviewer_medical" };
}

/** The role an invitation is stored with: "reviewer" becomes the chosen reviewer role. */
export function storedRole(row: Pick<InviteRow, "role" | "reviewerArea">): string {
  return row.role === "reviewer" ? row.reviewerArea : row.role;
}

/** Spec §5: an invite row counts only when its e-mail is non-blank and contains @. */
export function isValidInviteRow(row: Pick<InviteRow, "email">): boolean {
  const email = row.email.trim();
  return email !== "" && email.includes("@");
}

/** A row that has text but will not count, so the wizard can say so. */
export function isIgnoredInviteRow(row: Pick<InviteRow, "email">): boolean {
  return row.email.trim() !== "" && !isValidInviteRow(row);
}

/** An invitation to create: trimmed e-mail and the stored role. */
export interface PendingInvite {
  rowId: string;
  email: string;
  role: string;
}

/**
 * The invitations to send for the rows: only rows that count, e-mail
 * trimmed, and one per address (the first row wins), since a second
 * invitation to the same person would only confuse them.
 */
export function invitesToSend(rows: readonly InviteRow[]): PendingInvite[] {
  const seen = new Set<string>();
  const out: PendingInvite[] = [];
  for (const row of rows) {
    if (!isValidInviteRow(row)) continue;
    const email = row.email.trim();
    const key = email.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ rowId: row.id, email, role: storedRole(row) });
  }
  return out;
}

/** The sign-up link that accepts an invitation (spec: /signup?invite=TOKEN). */
export function inviteLink(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, "")}/signup?invite=${encodeURIComponent(token)}`;
}

/**
 * The invitation token in what someone pasted: a sign-up link
 * (…/signup?invite=TOKEN) or the bare token. Empty when there is none.
 */
export function inviteToken(pasted: string): string {
  const text = pasted.trim();
  if (text === "") return "";
  const match = /[?&]invite=([^&#\s]+)/.exec(text);
  if (match?.[1]) {
    try {
      return decodeURIComponent(match[1]);
    } catch {
      return match[1];
    }
  }
  return /^[\w-]+$/.test(text) ? text : "";
}
