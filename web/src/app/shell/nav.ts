import {
  BookOpenCheck,
  ClipboardCheck,
  FileStack,
  LayoutDashboard,
  type LucideIcon,
  ScrollText,
  Settings,
  ShieldCheck,
  Sparkles,
  Stethoscope,
  UserRound,
  Users,
  ListChecks,
} from "lucide-react";

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Paths that also light this item up. */
  also?: string[];
}

export interface NavGroup {
  label: string;
  items: NavItem[];
}

/** The sidebar's groups (spec: Main, Governance, Account), plus the administration screens. */
export const NAV_GROUPS: NavGroup[] = [
  {
    label: "Main",
    items: [
      { to: "/", label: "Command Center", icon: LayoutDashboard },
      { to: "/content-hub", label: "Content & Modules", icon: FileStack, also: ["/content", "/assets"] },
      { to: "/review", label: "Review Center", icon: ClipboardCheck },
      { to: "/compliance-intel", label: "Compliance Intelligence", icon: Sparkles },
    ],
  },
  {
    label: "Governance",
    items: [
      { to: "/audit-log", label: "Audit Log", icon: ScrollText },
      { to: "/guidelines", label: "Guidelines", icon: BookOpenCheck },
      { to: "/users", label: "Users", icon: Users },
      { to: "/pilot-checklist", label: "Pilot", icon: ListChecks, also: ["/pilot-runbook"] },
      { to: "/diagnostics", label: "Diagnostics", icon: Stethoscope },
    ],
  },
  {
    label: "Account",
    items: [
      { to: "/account/profile", label: "Profile", icon: UserRound, also: ["/account"] },
      { to: "/security", label: "Security", icon: ShieldCheck },
      { to: "/settings", label: "Settings", icon: Settings, also: ["/account/settings"] },
    ],
  },
];

/**
 * Whether `item` is the active one for `pathname`: "/" only matches exactly,
 * the others by prefix (spec), and "/account" only exactly, so its children
 * light their own items.
 */
export function isActive(item: NavItem, pathname: string): boolean {
  const prefixes = [item.to, ...(item.also ?? [])];
  return prefixes.some((p) => {
    if (p === "/" || p === "/account") return pathname === p;
    return pathname === p || pathname.startsWith(`${p}/`);
  });
}
