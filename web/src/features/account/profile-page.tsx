import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function ProfilePage() {
  return <PageHeader title="Profile" />;
}
