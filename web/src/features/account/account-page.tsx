import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function AccountPage() {
  return <PageHeader title="Account" />;
}
