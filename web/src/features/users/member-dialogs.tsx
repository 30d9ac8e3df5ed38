import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/select";
import { unwrap } from "@/lib/data";
import { isRole, roleLabel } from "@/lib/roles";
import { describeServerError, toastServerError } from "@/lib/server-error";
import { getSupabase } from "@/lib/supabase";
import { ASSIGNABLE_ROLES, MEMBERS_KEY, ROLE_DESCRIPTIONS, type Member } from "./api";

export type MemberAction = { kind: "role" | "deactivate" | "reactivate"; member: Member } | null;

const displayName = (m: Member) => m.full_name.trim() || m.email;

function RoleDialog({ member, onClose }: { member: Member; onClose: () => void }) {
  const queryClient = useQueryClient();
  const selectId = useId();
  const [role, setRole] = useState(member.role);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const options: string[] = [...ASSIGNABLE_ROLES];
  if (!options.includes(member.role)) options.unshift(member.role);
  const name = displayName(member);

  async function save() {
    setBusy(true);
    setError(null);
    try {
      const sb = await getSupabase();
      const rows = unwrap<{ id: string; role: string }[]>(
        await sb.from("profiles_v2").update({ role }).eq("id", member.id).select("id, role"),
      );
      if (rows.length === 0) throw new Error("This member could not be updated. Reload the page and try again.");
      await queryClient.invalidateQueries({ queryKey: [MEMBERS_KEY] });
      toast.success("Role changed", { description: `${name} is now ${roleLabel(role)}.` });
      onClose();
    } catch (e) {
      const p = describeServerError(e, "The role could not be changed.");
      setError(p.message);
      toastServerError("Role not changed", p);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Change {name}’s role</DialogTitle>
        <DialogDescription>The new role applies from their next action; every change is recorded in the audit trail.</DialogDescription>
      </DialogHeader>
      <div className="grid gap-1.5">
        <Label htmlFor={selectId}>Role</Label>
        <NativeSelect
          id={selectId}
          value={role}
          aria-describedby={`${selectId}-hint`}
          onChange={(event) => {
            setRole(event.target.value);
          }}
        >
          {options.map((r) => (
            <option key={r} value={r}>
              {roleLabel(r)}
            </option>
          ))}
        </NativeSelect>
        <p id={`${selectId}-hint`} className="text-xs leading-5 text-muted-foreground">
          {isRole(role) ? ROLE_DESCRIPTIONS[role] : ""}
        </p>
      </div>
      {error ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={busy}>
            Cancel
          </Button>
        </DialogClose>
        <Button onClick={() => void save()} disabled={busy || role === member.role}>
          {busy ? "Saving…" : "Change role"}
        </Button>
      </DialogFooter>
    </>
  );
}

function SwitchDialog({ member, deactivate, onClose }: { member: Member; deactivate: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = displayName(member);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      const sb = await getSupabase();
      unwrap<unknown>(await sb.rpc(deactivate ? "deactivate_member" : "reactivate_member", { user_id: member.id }));
      await queryClient.invalidateQueries({ queryKey: [MEMBERS_KEY] });
      toast.success(deactivate ? "Member deactivated" : "Member reactivated", {
        description: deactivate ? `${name} is signed out and cannot sign in.` : `${name} can sign in again.`,
      });
      onClose();
    } catch (e) {
      const p = describeServerError(e, deactivate ? "The member could not be deactivated." : "The member could not be reactivated.");
      setError(p.message);
      toastServerError(deactivate ? "Member not deactivated" : "Member not reactivated", p);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>{deactivate ? `Deactivate ${name}?` : `Reactivate ${name}?`}</DialogTitle>
        <DialogDescription>
          {deactivate
            ? "They are signed out everywhere at once and cannot sign in until an administrator reactivates them. Their content, reviews, signatures and audit history stay as they are."
            : `They can sign in again with their existing password, as ${roleLabel(member.role)}.`}
        </DialogDescription>
      </DialogHeader>
      {error ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={busy}>
            Cancel
          </Button>
        </DialogClose>
        <Button variant={deactivate ? "destructive" : "default"} onClick={() => void confirm()} disabled={busy}>
          {busy ? (deactivate ? "Deactivating…" : "Reactivating…") : deactivate ? "Deactivate" : "Reactivate"}
        </Button>
      </DialogFooter>
    </>
  );
}

/** The dialogs of the member actions: change role, deactivate, reactivate (each confirmed). */
export function MemberActionDialog({ action, onClose }: { action: MemberAction; onClose: () => void }) {
  return (
    <Dialog
      open={action !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <DialogContent>
        {action?.kind === "role" ? <RoleDialog key={action.member.id} member={action.member} onClose={onClose} /> : null}
        {action?.kind === "deactivate" || action?.kind === "reactivate" ? (
          <SwitchDialog
            key={action.member.id + action.kind}
            member={action.member}
            deactivate={action.kind === "deactivate"}
            onClose={onClose}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
