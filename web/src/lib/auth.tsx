import type { Session, User } from "@supabase/supabase-js";
import { useQueryClient } from "@tanstack/react-query";
import { createContext, use, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { gateClosedAtLoad, getConfig } from "./config";
import { freshStoredSession } from "./early";
import { afterFirstScreen } from "./idle";
import { logEvent } from "./logger";
import { previewRequested, readImpersonation } from "./modes";
import { getSupabase, onSupabaseCreated, readStoredSession, urlHasAuthTokens } from "./supabase";

export type AuthStatus = "loading" | "signed-in" | "signed-out";

export interface AuthValue {
  status: AuthStatus;
  session: Session | null;
  user: User | null;
  /** Preview mode: the visitor asked for it and the server offers it. */
  preview: boolean;
  /** The session belongs to the read-only demo organisation. */
  demo: boolean;
  /** Set when starting the session failed unexpectedly (the guard sends the user to /safe). */
  error: Error | null;
}

const DEMO_DOMAIN = "@demo.example.com";

const AuthContext = createContext<AuthValue | null>(null);

/** Whether a user is one of the demo organisation's members. */
export function isDemoUser(user: Pick<User, "email"> | null | undefined): boolean {
  return (user?.email ?? "").toLowerCase().endsWith(DEMO_DOMAIN);
}

/**
 * Asks the server for a read-only demo session as `role` and installs it.
 * Rejects when the operator has not enabled preview.
 */
export async function startDemoSession(role: string): Promise<Session> {
  const config = await getConfig();
  const response = await fetch("/api/preview/session", {
    method: "POST",
    headers: { "Content-Type": "application/json", apikey: config.anonKey },
    body: JSON.stringify({ role }),
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    throw new Error(typeof body.message === "string" ? body.message : `Preview is unavailable (HTTP ${response.status})`);
  }
  const sb = await getSupabase();
  const { data, error } = await sb.auth.setSession({
    access_token: String(body.access_token),
    refresh_token: String(body.refresh_token),
  });
  if (error || !data.session) throw error ?? new Error("Preview session could not be started");
  return data.session;
}

/** Whether `state` already holds `session` (same token, same user details: an update of the user keeps the token). */
function sameSession(state: Pick<AuthValue, "status" | "session">, session: Session | null): boolean {
  if (!session) return state.status === "signed-out" && state.session === null;
  return (
    state.status === "signed-in" &&
    state.session?.access_token === session.access_token &&
    JSON.stringify(state.session.user) === JSON.stringify(session.user)
  );
}

/**
 * Keeps the session state for the whole app. Without a stored session (and
 * no e-mail link tokens, no preview) it decides "signed out" at once, without
 * loading supabase-js, so the sign-in screen stays light.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<Omit<AuthValue, "demo">>(() => {
    const links = urlHasAuthTokens() || previewRequested();
    // A stored session valid for a while yet is taken as it is, so the first
    // screen need not wait for supabase-js; start() below confirms it (and
    // signs out if the library disagrees). Every request is still checked by
    // the server.
    const stored = links ? null : freshStoredSession();
    if (stored?.user?.id) {
      const session = stored as unknown as Session;
      return { status: "signed-in", session, user: session.user, preview: false, error: null };
    }
    const needsClient = readStoredSession() !== null || links;
    return { status: needsClient ? "loading" : "signed-out", session: null, user: null, preview: false, error: null };
  });
  const queryClient = useQueryClient();
  const startedSignedIn = useRef(state.status === "signed-in");

  useEffect(() => {
    let cancelled = false;
    let unsubscribe: (() => void) | undefined;

    const attach = onSupabaseCreated((sb) => {
      if (unsubscribe) return;
      const { data } = sb.auth.onAuthStateChange((event, session) => {
        if (cancelled) return;
        setState((s) =>
          sameSession(s, session)
            ? s
            : {
                ...s,
                status: session ? "signed-in" : "signed-out",
                session,
                user: session?.user ?? null,
              },
        );
        if (event === "SIGNED_OUT") {
          // Everything cached belonged to the member who left; the instance
          // configuration did not (keeping it spares the guard a reload).
          queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== "config" });
        } else if (event === "SIGNED_IN" && session) {
          // The spec's login event: time and user agent, in the client log.
          logEvent("info", "Signed in", {
            context: { timestamp: new Date().toISOString(), userAgent: navigator.userAgent, userId: session.user.id },
          });
        }
      });
      unsubscribe = () => {
        data.subscription.unsubscribe();
      };
    });

    async function start() {
      const wantsPreview = previewRequested();
      const needsClient = readStoredSession() !== null || urlHasAuthTokens() || wantsPreview;
      // Behind a closed gate (the guard shows it first) the server would
      // refuse renewing the session, and supabase-js would then drop it:
      // the session is checked once the gate is passed (a fresh page load).
      if (!needsClient || gateClosedAtLoad()) return;
      let preview = false;
      if (wantsPreview) {
        const config = await getConfig();
        // On /login the preview variant asks first ('Continue to Application').
        preview = config.preview && window.location.pathname !== "/login";
      }
      const sb = await getSupabase();
      let { data } = await sb.auth.getSession();
      if (preview && !isDemoUser(data.session?.user)) {
        const impersonation = readImpersonation();
        await startDemoSession(impersonation.active ? impersonation.role : "admin");
        ({ data } = await sb.auth.getSession());
      }
      if (cancelled) return;
      const confirmed = data.session;
      // Unchanged (the stored session taken at start): no new state, so the screens do not render again.
      setState((s) =>
        s.preview === preview && s.error === null && sameSession(s, confirmed)
          ? s
          : {
              status: confirmed ? "signed-in" : "signed-out",
              session: confirmed,
              user: confirmed?.user ?? null,
              preview,
              error: null,
            },
      );
    }

    const run = () => {
      start().catch((error: unknown) => {
        if (cancelled) return;
        setState((s) => ({
          ...s,
          status: "signed-out",
          error: error instanceof Error ? error : new Error(String(error)),
        }));
      });
    };
    // A stored session taken at start is confirmed once the first screen is
    // up (3 s at most): supabase-js is large, and the token stays valid for a
    // minute at least, so it need not compete with that screen.
    let cancelRun: (() => void) | undefined;
    if (startedSignedIn.current) cancelRun = afterFirstScreen(run, 3000);
    else run();

    return () => {
      cancelled = true;
      cancelRun?.();
      attach();
      unsubscribe?.();
    };
  }, [queryClient]);

  const value = useMemo<AuthValue>(() => ({ ...state, demo: isDemoUser(state.user) }), [state]);
  return <AuthContext value={value}>{children}</AuthContext>;
}

/** The session state. Must be used under {@link AuthProvider}. */
export function useAuth(): AuthValue {
  const value = use(AuthContext);
  if (!value) throw new Error("useAuth must be used within AuthProvider");
  return value;
}

/** For tests and stories: provides a fixed session state. */
export function AuthTestProvider({ value, children }: { value: Partial<AuthValue>; children: ReactNode }) {
  const full: AuthValue = {
    status: "signed-out",
    session: null,
    user: null,
    preview: false,
    demo: false,
    error: null,
    ...value,
  };
  return <AuthContext value={full}>{children}</AuthContext>;
}
