import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { CircleCheck } from "lucide-react";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
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
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/select";
import { formatDate } from "@/lib/format-time";
import { roleLabel } from "@/lib/roles";
import { applyServerError } from "@/lib/form-errors";
import { toastServerError } from "@/lib/server-error";
import { createInvite, invalidateInvites, type IssuedInvite } from "@/entities/invites";
import { ASSIGNABLE_ROLES, inviteLink, ROLE_DESCRIPTIONS } from "./api";
import { LinkBox } from "./link-box";

const schema = z.object({
  email: z.string().trim().min(1, "Enter an e-mail address").pipe(z.email("Enter a valid e-mail address")),
  role: z.enum(ASSIGNABLE_ROLES),
});
type Values = z.input<typeof schema>;

/**
 * Invite someone: e-mail and role, then create_invite. The sign-up link
 * (its token) is shown once, with a copy button; Fairbalance does not
 * e-mail it (Resend does).
 */
export function InviteDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const [issued, setIssued] = useState<IssuedInvite | null>(null);
  const form = useForm<Values, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { email: "", role: "marketer" },
  });
  const role = useWatch({ control: form.control, name: "role" });
  const { errors, isSubmitting } = form.formState;

  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      setIssued(null);
      form.reset();
    }
  };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      setIssued(await createInvite(values.email, values.role));
      void invalidateInvites(queryClient);
    } catch (error) {
      const p = await applyServerError(form.setError, error, { fallback: "The invitation could not be created.", fields: ["email", "role"] });
      toastServerError("Invitation not created", p);
    }
  });

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        {issued ? (
          <>
            <DialogHeader>
              <DialogTitle>Invitation created</DialogTitle>
              <DialogDescription>
                Send this link to {issued.email}. It is shown only once and works until {formatDate(issued.expires_at)}.
              </DialogDescription>
            </DialogHeader>
            <Alert variant="success">
              <CircleCheck aria-hidden="true" />
              <AlertTitle>
                {issued.email} is invited as {roleLabel(issued.role)}
              </AlertTitle>
              <AlertDescription>
                Fairbalance has not e-mailed this link. Copy it now; to e-mail them a fresh link later, use Resend in the
                pending invitations.
              </AlertDescription>
            </Alert>
            <LinkBox link={inviteLink(issued.token)} />
            <DialogFooter>
              <Button
                variant="outline"
                onClick={() => {
                  setIssued(null);
                  form.reset();
                }}
              >
                Invite someone else
              </Button>
              <DialogClose asChild>
                <Button>Done</Button>
              </DialogClose>
            </DialogFooter>
          </>
        ) : (
          <form className="grid gap-4" onSubmit={(event) => void onSubmit(event)} noValidate>
            <DialogHeader>
              <DialogTitle>Invite a colleague</DialogTitle>
              <DialogDescription>
                They create their account from the link and join your organisation with the role you choose.
              </DialogDescription>
            </DialogHeader>
            <Field label="E-mail address" error={errors.email?.message}>
              <Input type="email" autoComplete="off" placeholder="name@company.com" {...form.register("email")} />
            </Field>
            <Field label="Role" hint={ROLE_DESCRIPTIONS[role]} error={errors.role?.message}>
              <NativeSelect {...form.register("role")}>
                {ASSIGNABLE_ROLES.map((r) => (
                  <option key={r} value={r}>
                    {roleLabel(r)}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            {errors.root?.message ? (
              <p role="alert" className="text-sm font-medium text-destructive">
                {errors.root.message}
              </p>
            ) : null}
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline">Cancel</Button>
              </DialogClose>
              <Button type="submit" disabled={isSubmitting}>
                {isSubmitting ? "Creating…" : "Create invitation"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
