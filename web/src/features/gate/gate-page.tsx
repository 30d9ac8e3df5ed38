import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function GatePage() {
  return <PageHeader title="Private Preview Access" />;
}
