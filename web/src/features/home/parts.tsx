import { ArrowRight, History } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { errorMessage } from "@/lib/errors";
import { cn } from "@/lib/utils";

/** A card whose data failed to load: the server's message and a retry. */
export function LoadError({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  return (
    <Alert variant="destructive">
      <History />
      <AlertTitle>Could not load {what}</AlertTitle>
      <AlertDescription className="grid gap-2">
        <span>{errorMessage(error, "Please try again.")}</span>
        <span>
          <Button variant="outline" size="sm" onClick={onRetry}>
            Try again
          </Button>
        </span>
      </AlertDescription>
    </Alert>
  );
}

/** A card's title with a link to the screen that holds the rest, and what the card shows. */
export function SectionHeader({ title, description, to, linkLabel }: { title: string; description: ReactNode; to: string; linkLabel: ReactNode }) {
  return (
    <CardHeader>
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
        <CardTitle>{title}</CardTitle>
        <Link to={to} className={cn(buttonVariants({ variant: "link", size: "sm" }), "h-auto shrink-0 px-0")}>
          {linkLabel}
          <ArrowRight aria-hidden="true" />
        </Link>
      </div>
      <CardDescription>{description}</CardDescription>
    </CardHeader>
  );
}
