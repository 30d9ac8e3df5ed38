import type { RouteObject } from "react-router";
import { AppLayout } from "./layout";
import { RouteError } from "./route-error";
import { HealthScreen, WelcomeScreen } from "./screens";

/** The app's route table, shared by the browser router and tests. */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: [
      { path: "/health", element: <HealthScreen /> },
      { path: "*", element: <WelcomeScreen /> },
    ],
  },
];
