import { Check, Circle } from "lucide-react";
import { PASSWORD_RULES } from "@/lib/password";
import { cn } from "@/lib/utils";

/**
 * The live list of password rules (lib/password): each turns green with a
 * check as the typed password meets it. Screen readers hear "met" or "not
 * met" after each rule.
 */
export function PasswordRequirements({ password, id }: { password: string; id?: string }) {
  return (
    <div id={id} className="rounded-lg border bg-muted/40 px-4 py-3">
      <p className="mb-2 text-xs font-medium tracking-wide text-muted-foreground uppercase">Password requirements</p>
      <ul className="grid gap-1.5 text-sm sm:grid-cols-2" data-testid="password-requirements">
        {PASSWORD_RULES.map((rule) => {
          const met = rule.test(password);
          return (
            <li key={rule.id} data-met={met} className={cn("flex items-center gap-2", met ? "text-foreground" : "text-muted-foreground")}>
              {met ? (
                <Check aria-hidden="true" className="size-4 shrink-0 text-success" />
              ) : (
                <Circle aria-hidden="true" className="size-4 shrink-0 opacity-60" />
              )}
              <span>
                {rule.label}
                <span className="sr-only">{met ? " (met)" : " (not met)"}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
