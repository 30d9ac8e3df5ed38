import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function ForgotPasswordPage() {
  return <PageHeader title="Forgot password" />;
}
