import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
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
import { FormField, FormSelect } from "@/components/ui/form";
import { changeMemberRole, invalidateMembers, type Member, setMemberActive } from "@/entities/members";
import { applyServerError } from "@/lib/form-errors";
import { isRole, roleLabel } from "@/lib/roles";
import { describeServerError, toastServerError } from "@/lib/server-error";
import { ASSIGNABLE_ROLES, ROLE_DESCRIPTIONS } from "./api";

export type MemberAction = { kind: "role" | "deactivate" | "reactivate"; member: Member } | null;

const displayName = (m: Member) => m.full_name.trim() || m.email;

const roleSchema = z.object({ role: z.string().min(1) });
type RoleValues = z.input<typeof roleSchema>;

function RoleDialog({ member, onClose }: { member: Member; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm<RoleValues>({ resolver: zodResolver(roleSchema), defaultValues: { role: member.role } });
  const role = useWatch({ control: form.control, name: "role" });
  const busy = form.formState.isSubmitting;
  const options: string[] = [...ASSIGNABLE_ROLES];
  if (!options.includes(member.role)) options.unshift(member.role);
  const name = displayName(member);

  const save = form.handleSubmit(async (values) => {
    try {
      await changeMemberRole(member.id, values.role);
      await invalidateMembers(queryClient);
      toast.success("Role changed", { description: `${name} is now ${roleLabel(values.role)}.` });
      onClose();
    } catch (e) {
      const p = await applyServerError(form.setError, e, { fallback: "The role could not be changed.", fields: ["role"] });
      toastServerError("Role not changed", p);
    }
  });

  return (
    <FormProvider {...form}>
      <form className="grid gap-4" noValidate onSubmit={(event) => void save(event)}>
        <DialogHeader>
          <DialogTitle>Change {name}’s role</DialogTitle>
          <DialogDescription>The new role applies from their next action; every change is recorded in the audit trail.</DialogDescription>
        </DialogHeader>
        <FormField name="role" label="Role" hint={isRole(role) ? ROLE_DESCRIPTIONS[role] : ""}>
          <FormSelect name="role">
            {options.map((r) => (
              <option key={r} value={r}>
                {roleLabel(r)}
              </option>
            ))}
          </FormSelect>
        </FormField>
        {form.formState.errors.root?.message ? (
          <p role="alert" className="text-sm font-medium text-destructive">
            {form.formState.errors.root.message}
          </p>
        ) : null}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={busy}>
              Cancel
            </Button>
          </DialogClose>
          <Button type="submit" disabled={busy || role === member.role}>
            {busy ? "Saving…" : "Change role"}
          </Button>
        </DialogFooter>
      </form>
    </FormProvider>
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
      await setMemberActive(member.id, !deactivate);
      await invalidateMembers(queryClient);
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
