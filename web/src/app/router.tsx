import { lazy } from "react";
import type { RouteObject } from "react-router";
import { AppLayout } from "./layout";
import { RouteError } from "./route-error";

// Each screen is its own chunk, loaded when first visited.
const HealthPage = lazy(() =>
  import("@/features/health/health-page").then((m) => ({ default: m.HealthPage })),
);
const WelcomePage = lazy(() =>
  import("@/features/welcome/welcome-page").then((m) => ({ default: m.WelcomePage })),
);

/** The app's route table, shared by the browser router and tests. */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: [
      { path: "/health", element: <HealthPage /> },
      { path: "*", element: <WelcomePage /> },
    ],
  },
];
