import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { installGlobalLogging, logMetric } from "@/lib/logger";
import { applySafeModeQuery } from "@/lib/safe-mode";
import { Providers } from "./providers";
import { routes } from "./router";
import "./index.css";

const container = document.getElementById("root");
if (!container) {
  throw new Error("Fairbalance: #root element missing from index.html");
}

applySafeModeQuery();
installGlobalLogging();

const router = createBrowserRouter(routes);

// Time from a navigation's start to its screen having rendered: the
// performance log Diagnostics shows.
let navigationStarted = performance.now();
router.subscribe((state) => {
  if (state.navigation.state === "loading") {
    navigationStarted = performance.now();
  } else if (state.navigation.state === "idle") {
    const path = state.location.pathname;
    requestAnimationFrame(() => {
      logMetric("route_change", Math.round(performance.now() - navigationStarted), { path });
    });
  }
});

createRoot(container).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
