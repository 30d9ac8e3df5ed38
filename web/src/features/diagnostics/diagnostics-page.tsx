import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function DiagnosticsPage() {
  return <PageHeader title="Diagnostics" />;
}
