import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function SecurityPage() {
  return <PageHeader title="Security" />;
}
