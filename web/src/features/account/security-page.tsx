import { PageHeader } from "@/components/ui/page-header";
import { ReadOnlyArea, ReadOnlyNote } from "@/components/ui/read-only-note";
import { useReadOnly } from "@/lib/auth";
import { useDocumentTitle } from "@/lib/use-document-title";
import { MfaCard, StepUpPrompt } from "./mfa-card";
import { PasswordCard } from "./password-card";
import { useSecurityStatus } from "@/entities/session";
import { SessionsCard } from "./sessions-card";

/**
 * Security (/security): change the password, set up or remove two-step
 * verification (TOTP) and see this session's assurance level, and review
 * and sign out active sessions.
 */
export function SecurityPage() {
  useDocumentTitle("Security");
  const status = useSecurityStatus();
  // The read-only demo's shared account is shown with every control disabled.
  const readOnly = useReadOnly();
  return (
    <ReadOnlyArea readOnly={readOnly} className="mx-auto grid w-full max-w-3xl gap-6">
      <PageHeader
        title="Security"
        description="Your password, two-step verification and where you are signed in."
        actions={readOnly ? <ReadOnlyNote /> : null}
      />
      {status.data ? <StepUpPrompt status={status.data} /> : null}
      <PasswordCard />
      <MfaCard />
      <SessionsCard />
    </ReadOnlyArea>
  );
}
