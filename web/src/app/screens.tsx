import { createElement, lazy, type ComponentType } from "react";
import type { NextScreen } from "@/lib/next-screen";

// Each screen is its own chunk, loaded the first time its route renders;
// the layout's <Suspense> shows a spinner meanwhile.

/** A screen component loaded on demand; `preload` starts fetching its chunk. */
export type LazyScreen = ComponentType & { preload: () => Promise<unknown> };

/**
 * Like React.lazy, except that once the chunk has arrived (preloaded at boot,
 * or shown before) the screen renders at once instead of suspending. React
 * holds back revealing suspended content for up to 300 ms after a fallback
 * was shown; a chunk that is already here should not pay that on a cold
 * start, where the shell and the screen would otherwise each suspend in turn.
 */
export function lazyScreen(load: () => Promise<ComponentType>): LazyScreen {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (c) => (loaded = c),
      (error: unknown) => {
        // A failed chunk is not cached: the next render (Retry) fetches it again.
        loading = undefined;
        throw error;
      },
    ));
  const Suspending = lazy(() => preload().then((c) => ({ default: c })));
  function Screen() {
    return createElement(loaded ?? Suspending);
  }
  return Object.assign(Screen, { preload });
}

/** The signed-in frame (sidebar, top bar, menus): its own chunk, so sign-in stays light. */
export const ShellLayout = lazyScreen(() => import("./layout").then((m) => m.ShellLayout));

export const HealthScreen = lazyScreen(() => import("@/features/health/health-page").then((m) => m.HealthPage));

export const LoginScreen = lazyScreen(() => import("@/features/auth/login-page").then((m) => m.LoginPage));
export const SignupScreen = lazyScreen(() => import("@/features/auth/signup-page").then((m) => m.SignupPage));
export const ForgotPasswordScreen = lazyScreen(() => import("@/features/auth/forgot-password-page").then((m) => m.ForgotPasswordPage));
export const ResetPasswordScreen = lazyScreen(() => import("@/features/auth/reset-password-page").then((m) => m.ResetPasswordPage));
export const LogoutScreen = lazyScreen(() => import("@/features/auth/logout-page").then((m) => m.LogoutPage));
export const GateScreen = lazyScreen(() => import("@/features/gate/gate-page").then((m) => m.GatePage));
export const SafeScreen = lazyScreen(() => import("@/features/safe/safe-page").then((m) => m.SafePage));

export const OnboardingScreen = lazyScreen(() => import("@/features/onboarding/onboarding-wizard").then((m) => m.OnboardingWizard));
export const NoWorkspaceScreen = lazyScreen(() => import("@/features/onboarding/no-workspace").then((m) => m.NoWorkspace));

export const HomeScreen = lazyScreen(() => import("@/features/home/home-page").then((m) => m.HomePage));
export const PilotChecklistScreen = lazyScreen(() => import("@/features/pilot/pilot-checklist-page").then((m) => m.PilotChecklistPage));
export const PilotRunbookScreen = lazyScreen(() => import("@/features/pilot/pilot-runbook-page").then((m) => m.PilotRunbookPage));

export const AccountScreen = lazyScreen(() => import("@/features/account/account-page").then((m) => m.AccountPage));
export const ProfileScreen = lazyScreen(() => import("@/features/account/profile-page").then((m) => m.ProfilePage));
export const SettingsScreen = lazyScreen(() => import("@/features/account/settings-page").then((m) => m.SettingsPage));
export const SecurityScreen = lazyScreen(() => import("@/features/account/security-page").then((m) => m.SecurityPage));
export const UsersScreen = lazyScreen(() => import("@/features/users/users-page").then((m) => m.UsersPage));

export const AuditLogScreen = lazyScreen(() => import("@/features/audit/audit-log-page").then((m) => m.AuditLogPage));
export const DiagnosticsScreen = lazyScreen(() => import("@/features/diagnostics/diagnostics-page").then((m) => m.DiagnosticsPage));

export const ReviewScreen = lazyScreen(() => import("@/features/review/review-page").then((m) => m.ReviewPage));
export const ContentScreen = lazyScreen(() => import("@/features/content/content-page").then((m) => m.ContentPage));
export const ReferenceScreen = lazyScreen(() => import("@/features/content/reference-page").then((m) => m.ReferencePage));
export const AssetScreen = lazyScreen(() => import("@/features/asset/asset-page").then((m) => m.AssetPage));
export const GuidelinesScreen = lazyScreen(() => import("@/features/guidelines/guidelines-page").then((m) => m.GuidelinesPage));
export const ComplianceIntelScreen = lazyScreen(() => import("@/features/insights/insights-page").then((m) => m.InsightsPage));

/** The screen a path of the shell opens, for the entry points worth loading ahead. */
function screenFor(pathname: string): LazyScreen | undefined {
  if (pathname.startsWith("/assets/")) return AssetScreen;
  if (pathname === "/content" || pathname === "/content-hub") return ContentScreen;
  if (pathname.startsWith("/content/references/")) return ReferenceScreen;
  if (pathname === "/") return HomeScreen;
  if (pathname === "/review") return ReviewScreen;
  return undefined;
}

/**
 * Starts fetching the chunks a signed-in visitor's first screen needs — the
 * shell and, for the busiest entry points, the screen itself — at boot, in
 * parallel with the session and config checks, instead of one after the
 * other as each lazy boundary renders. Only a warm-up: the lazy components
 * above still decide what renders, and an unknown path preloads nothing.
 */
export function preloadFirstScreen(pathname: string): void {
  const first: LazyScreen[] = [ShellLayout];
  const screen = screenFor(pathname);
  if (screen) first.push(screen);
  // A failure here is not the visitor's concern yet: the screen's own render retries and reports it.
  for (const s of first) void s.preload().catch(() => undefined);
}

/**
 * Loads the chunks of the screen `next` opens (lib/next-screen): the shell
 * and, for a member without an organisation, onboarding or the
 * no-workspace page, else the path's screen — so the sign-in screen can
 * hand over to a screen that renders at once.
 */
export function preloadScreensFor(next: NextScreen): Promise<unknown> {
  const list: LazyScreen[] = [ShellLayout];
  const { profile } = next;
  if (profile && !profile.org_id) list.push(profile.role === "admin" ? OnboardingScreen : NoWorkspaceScreen);
  else {
    const screen = screenFor(next.path);
    if (screen) list.push(screen);
  }
  return Promise.all(list.map((s) => s.preload()));
}
