import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function ResetPasswordPage() {
  return <PageHeader title="Set New Password" />;
}
