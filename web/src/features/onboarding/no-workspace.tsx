import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function NoWorkspace() {
  return <PageHeader title="No workspace yet" />;
}
