import { useId, type ReactElement, type ReactNode, cloneElement, isValidElement } from "react";
import { cn } from "@/lib/utils";
import { Label } from "./label";

export interface FieldProps {
  label: ReactNode;
  /** The validation message; when set the control is marked invalid and described by it. */
  error?: string | undefined;
  /** Help text under the control. */
  hint?: ReactNode;
  className?: string;
  /** Shown beside the label, e.g. a "Forgot password?" link. */
  aside?: ReactNode;
  /** The single control (input, select trigger, …); it receives id and aria attributes. */
  children: ReactElement<Record<string, unknown>>;
}

/**
 * A labelled form control with its hint and error message wired up for
 * assistive technology (`aria-describedby`, `aria-invalid`).
 */
export function Field({ label, error, hint, className, aside, children }: FieldProps) {
  const id = useId();
  const controlId = (children.props.id as string | undefined) ?? `${id}-control`;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  const control = isValidElement(children)
    ? cloneElement(children, {
        id: controlId,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy,
      })
    : children;
  return (
    <div data-slot="field" className={cn("grid gap-1.5", className)}>
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={controlId}>{label}</Label>
        {aside}
      </div>
      {control}
      {hint ? (
        <p id={hintId} className="text-xs leading-5 text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" className="text-sm leading-5 font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
