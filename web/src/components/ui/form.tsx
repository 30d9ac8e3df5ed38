import { CircleAlert } from "lucide-react";
import type { ComponentProps } from "react";
import { useController, useFormContext, useFormState } from "react-hook-form";
import { Alert, AlertDescription } from "./alert";
import { Field, type FieldProps } from "./field";
import { Input } from "./input";
import { NativeSelect } from "./select";

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

/**
 * A {@link NativeSelect} bound to a field of the surrounding form, kept in
 * step with the form's value even when its options arrive after it (a
 * picker of rows still loading shows the chosen row once it is there).
 */
export function FormSelect({ name, ...props }: Omit<ComponentProps<typeof NativeSelect>, "value" | "defaultValue" | "onChange" | "onBlur"> & { name: string }) {
  const {
    field: { ref, value, onChange, onBlur },
  } = useController<Record<string, unknown>>({ name });
  return <NativeSelect {...props} name={name} ref={ref} value={typeof value === "string" ? value : ""} onChange={onChange} onBlur={onBlur} />;
}

/**
 * An {@link Input} bound to a field of the surrounding form whose typing is
 * reshaped as it happens (`transform`: digits only for a one-time code).
 */
export function FormInput({
  name,
  transform = (value) => value,
  ...props
}: Omit<ComponentProps<typeof Input>, "value" | "defaultValue" | "onChange" | "onBlur" | "name"> & {
  name: string;
  transform?: (value: string) => string;
}) {
  const {
    field: { ref, value, onChange, onBlur },
  } = useController<Record<string, unknown>>({ name });
  return (
    <Input
      {...props}
      name={name}
      ref={ref}
      value={typeof value === "string" ? value : ""}
      onBlur={onBlur}
      onChange={(event) => {
        onChange(transform(event.target.value));
      }}
    />
  );
}

/** Keeps the digits of a typed value (one-time codes). */
export const digitsOnly = (value: string) => value.replace(/\D/g, "");
