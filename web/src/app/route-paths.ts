/**
 * Every path of the route table in router.tsx (the index route as "/"), in
 * its order. The narrow-screen end-to-end test visits each of them; a unit
 * test checks this list against the router, so a new route cannot be added
 * without being visited there.
 */
export const ROUTE_PATHS = [
  "/insights",
  "/compliance-intelligent",
  "/audit-logs",
  "/audit-trail",
  "/audit",
  "/profile",
  "/demo/*",
  "/safe",
  "/gate",
  "/login",
  "/signup",
  "/forgot-password",
  "/reset-password",
  "/logout",
  "/health",
  "/",
  "/review",
  "/settings",
  "/users",
  "/content",
  "/content-hub",
  "/content/references/:id",
  "/assets/:id",
  "/guidelines",
  "/compliance-intel",
  "/audit-log",
  "/account",
  "/account/profile",
  "/account/settings",
  "/security",
  "/diagnostics",
  "/pilot-checklist",
  "/pilot-runbook",
  "*",
] as const;

/** A path of the route table. */
export type RoutePath = (typeof ROUTE_PATHS)[number];
