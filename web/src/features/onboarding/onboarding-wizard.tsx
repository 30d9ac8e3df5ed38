import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function OnboardingWizard() {
  return <PageHeader title="Create Your Organization" />;
}
