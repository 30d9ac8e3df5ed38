import { useDocumentTitle } from "@/lib/use-document-title";
import { HealthCard } from "./health-card";

export function HealthPage() {
  useDocumentTitle("Status");
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6">
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Status</h1>
        <p className="text-sm text-muted-foreground">
          Whether this server is up, which version it runs and how its data is stored.
        </p>
      </div>
      <HealthCard />
    </div>
  );
}
