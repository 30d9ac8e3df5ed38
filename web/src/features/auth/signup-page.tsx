import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function SignupPage() {
  return <PageHeader title="Sign up" />;
}
