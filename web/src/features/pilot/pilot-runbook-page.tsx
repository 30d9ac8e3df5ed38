import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function PilotRunbookPage() {
  return <PageHeader title="Pilot runbook" />;
}
