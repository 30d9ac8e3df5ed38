import { cva, type VariantProps } from "class-variance-authority";
import { LoaderCircle } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

const spinnerVariants = cva("animate-spin text-muted-foreground motion-reduce:animate-none", {
  variants: {
    size: {
      sm: "size-4",
      default: "size-6",
      lg: "size-8",
    },
  },
  defaultVariants: {
    size: "default",
  },
});

export type SpinnerProps = Omit<ComponentProps<"svg">, "ref"> &
  VariantProps<typeof spinnerVariants> & {
    /** Announced to assistive technology; pass `null` when a visible label is next to it. */
    label?: string | null;
  };

/**
 * An indeterminate progress indicator. With a label (the default) it is a
 * polite `role="status"` region; with `label={null}` it is decorative.
 */
export function Spinner({ className, size, label = "Loading", ...props }: SpinnerProps) {
  const icon = (
    <LoaderCircle
      aria-hidden="true"
      data-slot="spinner"
      className={cn(spinnerVariants({ size }), className)}
      {...props}
    />
  );
  if (label === null) {
    return icon;
  }
  return (
    <span role="status" className="inline-flex">
      {icon}
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** A spinner centred in the space available, used while a screen loads. */
export function PageSpinner({ label = "Loading" }: { label?: string }) {
  return (
    <div className="flex min-h-[50vh] flex-1 items-center justify-center">
      <Spinner size="lg" label={label} />
    </div>
  );
}
