import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function LoginPage() {
  return <PageHeader title="Sign in" />;
}
