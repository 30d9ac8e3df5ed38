import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function LogoutPage() {
  return <PageHeader title="Signed Out" />;
}
