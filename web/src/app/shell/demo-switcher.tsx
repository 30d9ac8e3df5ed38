import { useQueryClient } from "@tanstack/react-query";
import { ChevronDown, Drama, RotateCcw } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { startDemoSession } from "@/lib/auth";
import { logEvent } from "@/lib/logger";
import { INACTIVE_IMPERSONATION, readImpersonation, writeImpersonation, type Impersonation } from "@/lib/modes";
import { ROLES, roleLabel } from "@/lib/roles";
import { getSupabase } from "@/lib/supabase";

async function recordSwitch(action: "demo_role_switched" | "demo_role_reset", state: Impersonation) {
  const sb = await getSupabase();
  const { error } = await sb.from("audit_logs_v2").insert({
    action,
    object_type: "demo_impersonation",
    object_id: state.role,
    meta: { role: state.role, display_name: state.displayName, active: state.active },
  });
  if (error) {
    // The spec: a failed audit insert from the client is only logged.
    console.error("Audit entry for the demo role switch failed:", error.message);
    logEvent("warning", "Audit entry for the demo role switch failed", { context: { message: error.message } });
  }
}

/**
 * Demo mode's role impersonation: choose a role to see the demo workspace as
 * that member (a new read-only session), or reset to the default preview
 * user. The choice lives in session storage; each switch is audited.
 */
export function DemoRoleSwitcher() {
  const [state, setState] = useState(readImpersonation);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();

  async function apply(next: Impersonation, action: "demo_role_switched" | "demo_role_reset") {
    setBusy(true);
    try {
      await startDemoSession(next.active ? next.role : "admin");
      writeImpersonation(next);
      setState(next);
      queryClient.clear();
      await recordSwitch(action, next);
      toast.success(next.active ? `Viewing the demo as ${next.displayName}` : "Demo role reset");
    } catch (error) {
      toast.error("Could not switch the demo role", { description: error instanceof Error ? error.message : undefined });
    } finally {
      setBusy(false);
    }
  }

  const label = state.active ? state.displayName : "Default (Admin)";
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        disabled={busy}
        className="inline-flex h-8 items-center gap-1.5 rounded-md border px-2.5 text-xs font-medium hover:bg-accent disabled:opacity-60"
        aria-label={`Demo role: ${label}. Change role`}
      >
        <Drama aria-hidden="true" className="size-3.5" />
        {/* On a phone the icon stands for it (the button's label names the role), so the bar fits 390 px. */}
        <span className="hidden sm:inline">View as: {label}</span>
        <ChevronDown aria-hidden="true" className="size-3.5 text-muted-foreground" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel className="text-xs text-muted-foreground">Impersonate a demo role</DropdownMenuLabel>
        <DropdownMenuRadioGroup
          value={state.active ? state.role : ""}
          onValueChange={(role) => {
            void apply({ active: true, role, displayName: roleLabel(role) }, "demo_role_switched");
          }}
        >
          {ROLES.map((role) => (
            <DropdownMenuRadioItem key={role} value={role}>
              {roleLabel(role)}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          disabled={!state.active}
          onSelect={() => {
            void apply(INACTIVE_IMPERSONATION, "demo_role_reset");
          }}
        >
          <RotateCcw aria-hidden="true" /> Reset role
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
