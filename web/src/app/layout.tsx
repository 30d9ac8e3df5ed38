import { Suspense } from "react";
import { Outlet, useLocation } from "react-router";
import { PageSpinner } from "@/components/ui/spinner";
import { useProfile } from "@/entities/profile";
import { useOnboarding } from "@/features/onboarding/progress";
import { useAuth } from "@/lib/auth";
import { ErrorBoundary } from "./error-boundary";
import { NoWorkspaceScreen, OnboardingScreen } from "./screens";
import { AppSidebar } from "./shell/sidebar";
import { SidebarProvider } from "./shell/sidebar-state";
import { TooltipProvider } from "@/components/ui/tooltip";
import { PreviewBanner, PreviewCornerBadge, TopBar } from "./shell/top-bar";

function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only rounded-md bg-card px-4 py-2 text-sm font-medium shadow-md focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50"
    >
      Skip to main content
    </a>
  );
}

export function Screen() {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary resetKey={pathname}>
      <Suspense fallback={<PageSpinner />}>
        <Outlet />
      </Suspense>
    </ErrorBoundary>
  );
}

/**
 * The frame of the signed-in app: sidebar, top bar, preview banner. It is
 * skipped (spec) when there is neither a signed-in user nor preview; an admin
 * without an organisation sees the onboarding wizard instead, and a member
 * without one a screen explaining how to join. An admin whose onboarding
 * has begun in this browser (the organisation exists) but not finished sees
 * the wizard too, where it was.
 */
export function ShellLayout() {
  const { user, preview, demo } = useAuth();
  const profile = useProfile();
  const onboarding = useOnboarding(user?.id, profile.data?.role === "admin" ? profile.data.org_id : null);

  if (!user && !preview) {
    return (
      <main id="main" tabIndex={-1} className="flex min-h-dvh flex-col outline-none">
        <Screen />
      </main>
    );
  }

  if (user && profile.isPending) return <PageSpinner label="Loading your workspace" />;
  if (user && !demo && profile.data && (!profile.data.org_id || onboarding)) {
    return (
      <Suspense fallback={<PageSpinner />}>
        {profile.data.role === "admin" ? <OnboardingScreen /> : <NoWorkspaceScreen />}
      </Suspense>
    );
  }

  return (
    <TooltipProvider>
      <SidebarProvider>
        <SkipLink />
        <div className="flex min-h-dvh bg-background">
          <AppSidebar />
          <div className="flex min-w-0 flex-1 flex-col">
            {preview ? <PreviewBanner /> : null}
            <TopBar />
            <main id="main" tabIndex={-1} className="mx-auto flex w-full max-w-7xl flex-1 flex-col px-4 py-6 outline-none sm:px-6 lg:px-8 lg:py-8">
              <Screen />
            </main>
          </div>
        </div>
        {preview ? <PreviewCornerBadge /> : null}
      </SidebarProvider>
    </TooltipProvider>
  );
}

