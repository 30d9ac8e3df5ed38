import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function AuditLogPage() {
  return <PageHeader title="Audit Log" />;
}
