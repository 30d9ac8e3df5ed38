import { Lock } from "lucide-react";
import type { ReactNode } from "react";
import { READ_ONLY_NOTE } from "@/lib/modes";
import { cn } from "@/lib/utils";

/**
 * Stands where a screen's write actions would be in a read-only (demo)
 * session, saying why they are not there. Its text defaults to the app's
 * one sentence for it; a screen may say more.
 */
export function ReadOnlyNote({ children = READ_ONLY_NOTE, className }: { children?: ReactNode; className?: string }) {
  return (
    <p
      data-testid="read-only-note"
      className={cn(
        "inline-flex max-w-full items-start gap-1.5 rounded-md border border-dashed px-2.5 py-1.5 text-xs leading-5 text-muted-foreground",
        className,
      )}
    >
      <Lock aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
      <span className="min-w-0">{children}</span>
    </p>
  );
}

/**
 * Disables every control inside it while `readOnly` (a disabled fieldset),
 * for screens whose forms a read-only session may see but not use; pair it
 * with a {@link ReadOnlyNote} that says why.
 */
export function ReadOnlyArea({ readOnly, className, children }: { readOnly: boolean; className?: string; children: ReactNode }) {
  return (
    <fieldset disabled={readOnly} className={cn("m-0 min-w-0 border-0 p-0", className)}>
      {children}
    </fieldset>
  );
}
