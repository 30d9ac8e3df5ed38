import { ShieldCheck } from "lucide-react";
import { Link } from "react-router";
import { PageHeader } from "@/components/ui/page-header";
import { ReadOnlyArea, ReadOnlyNote } from "@/components/ui/read-only-note";
import { Skeleton } from "@/components/ui/skeleton";
import { useProfile } from "@/entities/profile";
import { useReadOnly } from "@/lib/auth";
import { isAdminRole } from "@/lib/roles";
import { useDocumentTitle } from "@/lib/use-document-title";
import { NotificationSettings } from "./notification-settings";
import { ProductsSettingsCard } from "./products-settings";
import { ReviewWorkflowCard } from "./review-workflow-settings";
import { WorkspaceSettingsCard } from "./workspace-settings";

/**
 * Settings (/settings and /account/settings): every member's notification
 * preferences and the review workflow (templates and approval validity:
 * owners and admins change them, everyone else reads them); for owners and
 * admins also the workspace's security settings and Products & ISI (the
 * server refuses them to anyone else, so the sections are not shown to
 * them).
 */
export function SettingsPage() {
  useDocumentTitle("Settings");
  const profile = useProfile();
  const admin = isAdminRole(profile.data?.role);
  // The read-only demo shows the settings with every control disabled.
  const readOnly = useReadOnly();
  return (
    <ReadOnlyArea readOnly={readOnly} className="mx-auto grid w-full max-w-3xl gap-6">
      <PageHeader
        title="Settings"
        description={
          admin
            ? "Your notification e-mails, how content is reviewed, how people reach and join this workspace, and the products your content promotes."
            : "How Fairbalance keeps you informed, and how content is reviewed here."
        }
        actions={readOnly ? <ReadOnlyNote /> : null}
      />
      <NotificationSettings admin={admin} />
      {profile.isPending ? (
        <Skeleton className="h-64 w-full rounded-xl" />
      ) : (
        <ReviewWorkflowCard admin={admin} />
      )}
      {profile.isPending ? null : admin ? (
        <>
          {/* Instance-wide: the server shows them to no demo session. */}
          {readOnly ? null : <WorkspaceSettingsCard />}
          <ProductsSettingsCard />
        </>
      ) : (
        <p className="flex items-start gap-2 text-sm leading-6 text-muted-foreground">
          <ShieldCheck aria-hidden="true" className="mt-1 size-4 shrink-0" />
          <span>
            Workspace access and sign-up settings are managed by your administrators. Your password and two-step
            verification are on the{" "}
            <Link to="/security" className="font-medium text-primary underline-offset-4 hover:underline">
              Security
            </Link>{" "}
            page.
          </span>
        </p>
      )}
    </ReadOnlyArea>
  );
}
