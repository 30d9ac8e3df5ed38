import { Activity, ArrowRight, Scale } from "lucide-react";
import { Link } from "react-router";
import { buttonVariants } from "@/components/ui/button-variants";
import { Card, CardContent, CardFooter, CardHeader } from "@/components/ui/card";
import { useDocumentTitle } from "@/lib/use-document-title";
import { cn } from "@/lib/utils";

/** The landing screen, shown for every path that has no screen of its own yet. */
export function WelcomePage() {
  useDocumentTitle();
  return (
    <div className="flex flex-1 items-center justify-center">
      <Card className="w-full max-w-lg">
        <CardHeader className="items-start gap-4 pb-4">
          <span className="inline-flex size-11 items-center justify-center rounded-lg bg-primary/10 text-primary">
            <Scale aria-hidden="true" className="size-6" />
          </span>
          <div className="flex flex-col gap-1.5">
            <h1 className="text-2xl font-semibold tracking-tight">Welcome to Fairbalance</h1>
            <p className="text-base leading-7 text-muted-foreground">
              Your compliance review workspace is being set up. Reviews, evidence and sign-offs
              will appear here as soon as they are ready.
            </p>
          </div>
        </CardHeader>
        <CardContent>
          <p className="text-sm leading-6 text-muted-foreground">
            In the meantime you can confirm that this instance is running and see which version
            and database it uses.
          </p>
        </CardContent>
        <CardFooter>
          <Link to="/health" className={cn(buttonVariants(), "group")}>
            <Activity aria-hidden="true" />
            View instance status
            <ArrowRight
              aria-hidden="true"
              className="transition-transform group-hover:translate-x-0.5 motion-reduce:transition-none"
            />
          </Link>
        </CardFooter>
      </Card>
    </div>
  );
}
