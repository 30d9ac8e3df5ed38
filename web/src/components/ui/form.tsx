import { CircleAlert } from "lucide-react";
import { useFormContext, useFormState } from "react-hook-form";
import { Alert, AlertDescription } from "./alert";
import { Field, type FieldProps } from "./field";

/**
 * A {@link Field} of the surrounding react-hook-form form (FormProvider):
 * it shows the field's message — the schema's, or the server's when it
 * refused the value (lib/form-errors) — beside the control.
 */
export function FormField({ name, ...props }: Omit<FieldProps, "error"> & { name: string }) {
  const { getFieldState } = useFormContext();
  const state = useFormState({ name });
  const { error } = getFieldState(name, state);
  return <Field {...props} error={error?.message} />;
}

/**
 * The form's own message (react-hook-form's `root` error): what the server
 * said when no field took it — a refusal, a duplicate, the demo's
 * read-only rule. Nothing when there is none.
 */
export function FormError({ className }: { className?: string }) {
  const { errors } = useFormState();
  const message = errors.root?.message;
  if (!message) return null;
  return (
    <Alert variant="destructive" className={className}>
      <CircleAlert aria-hidden="true" />
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  );
}
