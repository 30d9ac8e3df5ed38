import type { ReactNode } from "react";
import { Navigate, Outlet, type RouteObject } from "react-router";
import { useAuth } from "@/lib/auth";
import { RouteGuard } from "./guard";
import { BareLayout } from "./bare-layout";
import { ShellLayout } from "./screens";
import { NotFound } from "./not-found";
import { RouteError } from "./route-error";
import * as S from "./screens";

/**
 * Demo mode's route table differs (spec §2): /login goes to /, the
 * password-reset screens are absent, and a demo user on sign-up or forgot
 * password is sent to /demo (which goes to /).
 */
function DemoAware({ children, demo }: { children: ReactNode; demo: "home" | "demo" | "absent" }) {
  const { demo: inDemo } = useAuth();
  if (!inDemo) return children;
  if (demo === "absent") return <NotFound />;
  return <Navigate to={demo === "home" ? "/" : "/demo"} replace />;
}

/**
 * Pages wrapped in the spec's protection guard (/review, /settings, /users).
 * Its admin-only flag, as in the spec, only checks that a user is signed in;
 * what an admin may do is enforced by the server and reflected on the page.
 */
function Protected() {
  const { user } = useAuth();
  if (!user) return <Navigate to="/login" replace />;
  return <Outlet />;
}

const redirect = (to: string) => <Navigate to={to} replace />;

/** The app's route table, shared by the browser router and tests. */
export const routes: RouteObject[] = [
  // Redirects (spec §2), resolved before the guard so it remembers the target.
  { path: "/insights", element: redirect("/compliance-intel#insights") },
  { path: "/compliance-intelligent", element: redirect("/compliance-intel") },
  { path: "/audit-logs", element: redirect("/audit-log") },
  { path: "/audit-trail", element: redirect("/audit-log") },
  { path: "/audit", element: redirect("/audit-log") },
  { path: "/profile", element: redirect("/account/profile") },
  { path: "/demo/*", element: redirect("/") },
  {
    errorElement: <RouteError />,
    element: <RouteGuard />,
    children: [
      {
        element: <BareLayout />,
        children: [
          { path: "/safe", element: <S.SafeScreen /> },
          { path: "/gate", element: <S.GateScreen /> },
          { path: "/login", element: <DemoAware demo="home"><S.LoginScreen /></DemoAware> },
          { path: "/signup", element: <DemoAware demo="demo"><S.SignupScreen /></DemoAware> },
          { path: "/forgot-password", element: <DemoAware demo="demo"><S.ForgotPasswordScreen /></DemoAware> },
          { path: "/reset-password", element: <DemoAware demo="absent"><S.ResetPasswordScreen /></DemoAware> },
          { path: "/logout", element: <S.LogoutScreen /> },
        ],
      },
      {
        element: <ShellLayout />,
        children: [
          { path: "/health", element: <S.HealthScreen /> },
          { index: true, element: <S.HomeScreen /> },
          {
            element: <Protected />,
            children: [
              { path: "/review", element: <S.ReviewScreen /> },
              { path: "/settings", element: <S.SettingsScreen /> },
              { path: "/users", element: <S.UsersScreen /> },
            ],
          },
          { path: "/content", element: <S.ContentScreen /> },
          { path: "/content-hub", element: <S.ContentScreen /> },
          { path: "/content/references/:id", element: <S.ReferenceScreen /> },
          { path: "/assets/:id", element: <S.AssetScreen /> },
          { path: "/guidelines", element: <S.GuidelinesScreen /> },
          { path: "/compliance-intel", element: <S.ComplianceIntelScreen /> },
          { path: "/audit-log", element: <S.AuditLogScreen /> },
          { path: "/account", element: <S.AccountScreen /> },
          { path: "/account/profile", element: <S.ProfileScreen /> },
          { path: "/account/settings", element: <S.SettingsScreen /> },
          { path: "/security", element: <S.SecurityScreen /> },
          { path: "/diagnostics", element: <S.DiagnosticsScreen /> },
          { path: "/pilot-checklist", element: <S.PilotChecklistScreen /> },
          { path: "/pilot-runbook", element: <S.PilotRunbookScreen /> },
          { path: "*", element: <NotFound /> },
        ],
      },
    ],
  },
];
