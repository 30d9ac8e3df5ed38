import { LifeBuoy } from "lucide-react";
import { Link } from "react-router";
import { useDocumentTitle } from "@/lib/use-document-title";
import { HealthCard } from "./health-card";

/** /health: open without sign-in; the server's own report and the way to safe mode. */
export function HealthPage() {
  useDocumentTitle("Health");
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-10 sm:px-0">
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Health status</h1>
        <p className="text-sm text-muted-foreground">
          Whether this server is up, which version it runs and how its data is stored.
        </p>
      </div>
      <HealthCard />
      <p className="text-sm text-muted-foreground">
        Something wrong?{" "}
        <Link to="/safe" className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline">
          <LifeBuoy aria-hidden="true" className="size-4" />
          Open safe mode
        </Link>{" "}
        to check the database and run repairs.
      </p>
    </div>
  );
}
