// First, so the first screen's requests start before the rest of the app evaluates.
import "./boot";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { installGlobalLogging, logMetric, mayAuditClientError } from "@/lib/logger";
import { gateClosedAtLoad } from "@/lib/config";
import { freshStoredSession } from "@/lib/early";
import { afterFirstScreen } from "@/lib/idle";
import { applySafeModeQuery } from "@/lib/safe-mode";
import { getSupabase, readStoredSession } from "@/lib/supabase";
import { Providers } from "./providers";
import { routes } from "./router";
import { setScreenPreparer } from "@/lib/next-screen";
import { preloadFirstScreen, preloadScreensFor } from "./screens";
import "./index.css";

const container = document.getElementById("root");
if (!container) {
  throw new Error("Fairbalance: #root element missing from index.html");
}

applySafeModeQuery();
// Uncaught errors are kept in the client log and, for a signed-in member,
// recorded as an audit event (throttled; a failure is only logged).
installGlobalLogging((entry) => {
  if (!readStoredSession() || !mayAuditClientError()) return;
  void getSupabase()
    .then((sb) =>
      sb.from("audit_logs_v2").insert({
        action: "client_error",
        object_type: "client",
        object_id: entry.sessionId,
        meta: { message: entry.message.slice(0, 500), path: window.location.pathname, log_id: entry.id },
      }),
    )
    .then((res) => {
      if (res.error) console.error("Audit entry for a client error failed:", res.error.message);
    })
    .catch((error: unknown) => {
      console.error("Audit entry for a client error failed:", error);
    });
});

// A visitor with a session goes straight to a screen of the shell: fetch
// its chunks now rather than after the guard has checked the session.
// The session check needs supabase-js (the instance config is in the page).
// Behind a closed passcode gate the first screen is the gate, and the
// client would only try to renew the session and be refused.
if (readStoredSession() && !gateClosedAtLoad()) {
  preloadFirstScreen(window.location.pathname);
  const load = () => void getSupabase().catch(() => undefined);
  // A fresh session is taken as stored, and the first screen's data comes
  // from the boot script: supabase-js then loads once that screen is up.
  if (freshStoredSession()) afterFirstScreen(load, 3000);
  else load();
}

// The sign-in screen loads the screen it hands over to before it does.
setScreenPreparer(preloadScreensFor);

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
