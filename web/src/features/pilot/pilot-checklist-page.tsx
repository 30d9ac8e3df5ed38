import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function PilotChecklistPage() {
  return <PageHeader title="Pilot checklist" />;
}
