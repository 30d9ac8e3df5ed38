import { PageHeader } from "@/components/ui/page-header";

/** Being built. */
export function SettingsPage() {
  return <PageHeader title="Settings" />;
}
