import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function UsersPage() {
  return <PageHeader title="Users" />;
}
