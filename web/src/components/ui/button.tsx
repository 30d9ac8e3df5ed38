import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";
import { buttonVariants, type ButtonVariantProps } from "./button-variants";

export type ButtonProps = ComponentProps<"button"> & ButtonVariantProps;

/**
 * A native `<button>` with the shared look. Defaults to `type="button"` so a
 * button inside a form never submits it by accident.
 */
export function Button({ className, variant, size, type = "button", ...props }: ButtonProps) {
  return (
    <button
      type={type}
      data-slot="button"
      className={cn(buttonVariants({ variant, size }), className)}
      {...props}
    />
  );
}
