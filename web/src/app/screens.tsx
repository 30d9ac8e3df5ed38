import { lazy } from "react";

// Each screen is its own chunk, loaded the first time its route renders.
// The layout's <Suspense> shows a spinner meanwhile.

export const HealthScreen = lazy(() =>
  import("@/features/health/health-page").then((m) => ({ default: m.HealthPage })),
);

export const WelcomeScreen = lazy(() =>
  import("@/features/welcome/welcome-page").then((m) => ({ default: m.WelcomePage })),
);
