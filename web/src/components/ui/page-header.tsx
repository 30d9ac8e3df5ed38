import type { ReactNode } from "react";
import { cn } from "@/lib/utils";

/** The title block at the top of a screen, with optional actions on the right. */
export function PageHeader({
  title,
  description,
  actions,
  className,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between", className)}>
      <div className="grid min-w-0 gap-1">
        <h1 className="text-2xl leading-8 font-semibold tracking-tight wrap-anywhere">{title}</h1>
        {description ? <p className="max-w-2xl text-sm leading-6 text-muted-foreground wrap-anywhere">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}
