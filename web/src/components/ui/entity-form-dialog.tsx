import type { ReactNode } from "react";
import { FormProvider, type FieldValues, type UseFormReturn } from "react-hook-form";
import { applyServerError } from "@/lib/form-errors";
import { cn } from "@/lib/utils";
import { Button } from "./button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "./dialog";
import { FormError } from "./form";
import { Separator } from "./separator";

export interface EntityFormDialogProps<TValues extends FieldValues, TOutput> {
  /** The form (react-hook-form with its zod resolver); its default values name the fields. */
  form: UseFormReturn<TValues, unknown, TOutput>;
  title: ReactNode;
  description: ReactNode;
  /**
   * Saves the valid values. A rejection is shown in the form: each
   * per-field message of the server beside its field, else the server's
   * message for the form. Close the dialog from here when done.
   */
  onSubmit: (values: TOutput) => Promise<unknown>;
  onClose: () => void;
  /** The submit button's label. */
  submitLabel: string;
  /** Its label while saving. */
  pendingLabel?: string;
  /** The form's message when a refusal carries none. */
  errorFallback: string;
  /** Server names of fields the form names otherwise (see lib/form-errors). */
  fieldAliases?: Readonly<Record<string, string>>;
  /** Only reading: no submit button, "Close" instead of "Cancel". */
  readOnly?: boolean;
  /** Something is still busy (an upload): the dialog cannot be closed. */
  locked?: boolean;
  /** Busy beyond the submit itself. */
  pending?: boolean;
  /** Width and spacing of the dialog. */
  className?: string;
  /** Shown under the fields, above the form's message and buttons (upload progress…). */
  status?: ReactNode;
  /**
   * A second part under the form (a claim's passages, with forms of their
   * own): the form's submit button then closes the form, and the dialog
   * gets a Close button at the bottom.
   */
  after?: ReactNode;
  /** The fields, usually {@link FormField}s. */
  children: ReactNode;
}

/**
 * The create/edit dialog every entity shares (products, assets' details,
 * claims, modules, references): title and description, the fields, the
 * server's refusal shown where it belongs, and Cancel/Save.
 */
export function EntityFormDialog<TValues extends FieldValues, TOutput>({
  form,
  title,
  description,
  onSubmit,
  onClose,
  submitLabel,
  pendingLabel = "Saving…",
  errorFallback,
  fieldAliases,
  readOnly = false,
  locked = false,
  pending = false,
  className,
  status,
  after,
  children,
}: EntityFormDialogProps<TValues, TOutput>) {
  const busy = form.formState.isSubmitting || pending;
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      await applyServerError(form.setError, error, {
        fallback: errorFallback,
        fields: Object.keys(form.formState.defaultValues ?? {}),
        ...(fieldAliases ? { aliases: fieldAliases } : {}),
      });
    }
  });

  const submitButton = readOnly ? null : (
    <Button type="submit" disabled={busy}>
      {busy ? pendingLabel : submitLabel}
    </Button>
  );
  const closeButton = (
    <Button variant="outline" onClick={onClose} disabled={locked}>
      {readOnly || after ? "Close" : "Cancel"}
    </Button>
  );

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !locked) onClose();
      }}
    >
      <DialogContent className={cn("max-w-2xl", className)}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <FormProvider {...form}>
          <form className="grid min-w-0 gap-4" noValidate onSubmit={(event) => void submit(event)}>
            {children}
            {status}
            <FormError />
            {after ? (
              submitButton ? <div className="flex justify-end">{submitButton}</div> : null
            ) : (
              <DialogFooter>
                {closeButton}
                {submitButton}
              </DialogFooter>
            )}
          </form>
        </FormProvider>
        {after ? (
          <>
            <Separator />
            {after}
            <DialogFooter>{closeButton}</DialogFooter>
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
