import { lazy } from "react";

// Each screen is its own chunk, loaded the first time its route renders;
// the layout's <Suspense> shows a spinner meanwhile.

/** The signed-in frame (sidebar, top bar, menus): its own chunk, so sign-in stays light. */
const loadShell = () => import("./layout");
export const ShellLayout = lazy(() => loadShell().then((m) => ({ default: m.ShellLayout })));

export const HealthScreen = lazy(() => import("@/features/health/health-page").then((m) => ({ default: m.HealthPage })));

export const LoginScreen = lazy(() => import("@/features/auth/login-page").then((m) => ({ default: m.LoginPage })));
export const SignupScreen = lazy(() => import("@/features/auth/signup-page").then((m) => ({ default: m.SignupPage })));
export const ForgotPasswordScreen = lazy(() =>
  import("@/features/auth/forgot-password-page").then((m) => ({ default: m.ForgotPasswordPage })),
);
export const ResetPasswordScreen = lazy(() =>
  import("@/features/auth/reset-password-page").then((m) => ({ default: m.ResetPasswordPage })),
);
export const LogoutScreen = lazy(() => import("@/features/auth/logout-page").then((m) => ({ default: m.LogoutPage })));
export const GateScreen = lazy(() => import("@/features/gate/gate-page").then((m) => ({ default: m.GatePage })));
export const SafeScreen = lazy(() => import("@/features/safe/safe-page").then((m) => ({ default: m.SafePage })));

export const OnboardingScreen = lazy(() =>
  import("@/features/onboarding/onboarding-wizard").then((m) => ({ default: m.OnboardingWizard })),
);
export const NoWorkspaceScreen = lazy(() =>
  import("@/features/onboarding/no-workspace").then((m) => ({ default: m.NoWorkspace })),
);

const loadHome = () => import("@/features/home/home-page");
export const HomeScreen = lazy(() => loadHome().then((m) => ({ default: m.HomePage })));
export const PilotChecklistScreen = lazy(() =>
  import("@/features/pilot/pilot-checklist-page").then((m) => ({ default: m.PilotChecklistPage })),
);
export const PilotRunbookScreen = lazy(() =>
  import("@/features/pilot/pilot-runbook-page").then((m) => ({ default: m.PilotRunbookPage })),
);

export const AccountScreen = lazy(() => import("@/features/account/account-page").then((m) => ({ default: m.AccountPage })));
export const ProfileScreen = lazy(() => import("@/features/account/profile-page").then((m) => ({ default: m.ProfilePage })));
export const SettingsScreen = lazy(() => import("@/features/account/settings-page").then((m) => ({ default: m.SettingsPage })));
export const SecurityScreen = lazy(() => import("@/features/account/security-page").then((m) => ({ default: m.SecurityPage })));
export const UsersScreen = lazy(() => import("@/features/users/users-page").then((m) => ({ default: m.UsersPage })));

export const AuditLogScreen = lazy(() => import("@/features/audit/audit-log-page").then((m) => ({ default: m.AuditLogPage })));
export const DiagnosticsScreen = lazy(() =>
  import("@/features/diagnostics/diagnostics-page").then((m) => ({ default: m.DiagnosticsPage })),
);

export const ReviewScreen = lazy(() => import("@/features/roadmap/area-pages").then((m) => ({ default: m.ReviewPage })));
const loadContent = () => import("@/features/content/content-page");
const loadAsset = () => import("@/features/asset/asset-page");
export const ContentScreen = lazy(() => loadContent().then((m) => ({ default: m.ContentPage })));
export const AssetScreen = lazy(() => loadAsset().then((m) => ({ default: m.AssetPage })));
export const GuidelinesScreen = lazy(() =>
  import("@/features/roadmap/area-pages").then((m) => ({ default: m.GuidelinesPage })),
);
export const ComplianceIntelScreen = lazy(() =>
  import("@/features/roadmap/area-pages").then((m) => ({ default: m.ComplianceIntelPage })),
);

/**
 * Starts fetching the chunks a signed-in visitor's first screen needs — the
 * shell and, for the busiest entry points, the screen itself — at boot, in
 * parallel with the session and config checks, instead of one after the
 * other as each lazy boundary renders. Only a warm-up: the lazy components
 * above still decide what renders, and an unknown path preloads nothing.
 */
export function preloadFirstScreen(pathname: string): void {
  void loadShell();
  if (pathname.startsWith("/assets/")) void loadAsset();
  else if (pathname === "/content" || pathname === "/content-hub") void loadContent();
  else if (pathname === "/") void loadHome();
}
