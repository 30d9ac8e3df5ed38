import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function SafePage() {
  return <PageHeader title="Safe mode" />;
}
