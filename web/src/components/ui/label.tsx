import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/** A form label. */
export function Label({ className, ...props }: ComponentProps<"label">) {
  return (
    <label
      data-slot="label"
      className={cn("text-sm leading-5 font-medium select-none peer-disabled:opacity-60", className)}
      {...props}
    />
  );
}
