import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function HomePage() {
  return <PageHeader title="Command Center" />;
}
