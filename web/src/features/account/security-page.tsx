import { PageHeader } from "@/components/ui/page-header";
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
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6">
      <PageHeader title="Security" description="Your password, two-step verification and where you are signed in." />
      {status.data ? <StepUpPrompt status={status.data} /> : null}
      <PasswordCard />
      <MfaCard />
      <SessionsCard />
    </div>
  );
}
