import type { BadgeProps } from "@/components/ui/badge";

/** Every role a member can hold. */
export const ROLES = [
  "owner",
  "admin",
  "reviewer_medical",
  "reviewer_legal",
  "reviewer_regulatory",
  "marketer",
  "viewer",
] as const;
export type Role = (typeof ROLES)[number];

// Labels as people read them in the app.
const LABELS: Record<Role, string> = {
  owner: "Owner",
  admin: "Admin",
  reviewer_medical: "Medical reviewer",
  reviewer_legal: "Legal reviewer",
  reviewer_regulatory: "Regulatory reviewer",
  marketer: "Marketer",
  viewer: "Viewer",
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** A human name for a role; unknown roles are shown as given. */
export function roleLabel(role: string | null | undefined): string {
  return isRole(role) ? LABELS[role] : (role ?? "No role");
}

/** The spec's badge colours: admin red, reviewer blue, marketer green, else gray. */
export function roleBadgeVariant(role: string | null | undefined): NonNullable<BadgeProps["variant"]> {
  if (role === "admin" || role === "owner") return "red";
  if (role?.startsWith("reviewer")) return "blue";
  if (role === "marketer") return "green";
  return "gray";
}

/** Admins and owners manage members, invites and workspace settings. */
export function isAdminRole(role: string | null | undefined): boolean {
  return role === "admin" || role === "owner";
}
