import type { Session, User } from "@supabase/supabase-js";
import { useQueryClient } from "@tanstack/react-query";
import { createContext, use, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { gateClosedAtLoad, getConfig } from "./config";
import { freshStoredSession } from "./early";
import { afterFirstScreen } from "./idle";
import { logEvent } from "./logger";
import { OPEN_PATHS } from "./guard";
import { previewRequested, readImpersonation, setPreviewFlag } from "./modes";
import {
  CREDENTIAL_REFUSED_EVENT,
  SESSION_ENDED_DESCRIPTION,
  SESSION_ENDED_TITLE,
  SESSION_ENDED_TOAST_ID,
  sessionEndedBy,
} from "./session-end";
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
  /**
   * The session ended without this browser signing out (signed out
   * elsewhere, revoked, deactivated, its refresh refused) and the member
   * has not been sent to sign in yet; the route guard does that, from
   * every screen, and then calls {@link AuthValue.acknowledgeSessionEnd}.
   */
  sessionEnded: boolean;
  acknowledgeSessionEnd: () => void;
}

type AuthState = Omit<AuthValue, "demo" | "acknowledgeSessionEnd">;

const DEMO_DOMAIN = "@demo.example.com";

const AuthContext = createContext<AuthValue | null>(null);

/** Whether a user is one of the demo organisation's members. */
export function isDemoUser(user: Pick<User, "email"> | null | undefined): boolean {
  return (user?.email ?? "").toLowerCase().endsWith(DEMO_DOMAIN);
}

/**
 * Whether preview is wanted: asked for (lib/modes), or this browser holds a
 * demo session, which only preview issues — so a reload anywhere keeps the
 * preview for as long as its session lasts.
 */
function previewWanted(): boolean {
  return previewRequested() || isDemoUser(readStoredSession()?.user);
}

/** Whether the visitor is on a screen where signing out is what they asked for (sign-in, sign-out, password reset…). */
function onOpenScreen(): boolean {
  const path = window.location.pathname;
  return OPEN_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
}

/** The ended session's one notice; it stays until dismissed or the member signs in again. */
function showSessionEnded(): void {
  void import("sonner").then(({ toast }) =>
    toast.warning(SESSION_ENDED_TITLE, { id: SESSION_ENDED_TOAST_ID, description: SESSION_ENDED_DESCRIPTION, duration: Infinity }),
  );
}

function dismissSessionEnded(): void {
  void import("sonner").then(({ toast }) => toast.dismiss(SESSION_ENDED_TOAST_ID));
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
function sameSession(state: Pick<AuthState, "status" | "session">, session: Session | null): boolean {
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
  const [state, setState] = useState<AuthState>(() => {
    const links = urlHasAuthTokens() || previewWanted();
    // A stored session valid for a while yet is taken as it is, so the first
    // screen need not wait for supabase-js; start() below confirms it (and
    // signs out if the library disagrees). Every request is still checked by
    // the server.
    const stored = links ? null : freshStoredSession();
    if (stored?.user?.id) {
      const session = stored as unknown as Session;
      return { status: "signed-in", session, user: session.user, preview: false, error: null, sessionEnded: false };
    }
    const needsClient = readStoredSession() !== null || links;
    return { status: needsClient ? "loading" : "signed-out", session: null, user: null, preview: false, error: null, sessionEnded: false };
  });
  const queryClient = useQueryClient();
  const startedSignedIn = useRef(state.status === "signed-in");
  // Whether there is a session that could end (one held, or one stored and being confirmed).
  const holding = useRef(state.status !== "signed-out");
  useEffect(() => {
    holding.current = state.status !== "signed-out";
  }, [state.status]);
  // Set once the current session's end was handled: one notice, one redirect.
  const ended = useRef(false);

  // Ending a session that ended elsewhere: this browser forgets it and
  // everything read with it, says so once, and the guard sends the member
  // to sign in.
  const endSession = useCallback(() => {
    if (ended.current) return;
    ended.current = true;
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== "config" });
    setState((s) => ({ ...s, status: "signed-out", session: null, user: null, sessionEnded: true }));
    showSessionEnded();
    logEvent("warning", "Session ended", { context: { path: window.location.pathname } });
    // Drops the stored session (the server's refusal of the sign-out is ignored by supabase-js).
    void getSupabase()
      .then((sb) => sb.auth.signOut({ scope: "local" }))
      .catch(() => undefined);
  }, [queryClient]);

  // A data surface refused the member's token: ask the identity server,
  // once at a time, whether the session is gone (a 403 may be a mere
  // permission; an expired token is refreshed by supabase-js first).
  useEffect(() => {
    let checking = false;
    const onRefused = () => {
      if (checking || ended.current || !holding.current) return;
      checking = true;
      void (async () => {
        try {
          const sb = await getSupabase();
          const { data } = await sb.auth.getSession();
          if (!data.session) {
            endSession();
            return;
          }
          const { error } = await sb.auth.getUser();
          if (error && sessionEndedBy(error)) endSession();
        } catch {
          // Unreachable server: nothing is known about the session.
        } finally {
          checking = false;
        }
      })();
    };
    window.addEventListener(CREDENTIAL_REFUSED_EVENT, onRefused);
    return () => {
      window.removeEventListener(CREDENTIAL_REFUSED_EVENT, onRefused);
    };
  }, [endSession]);

  useEffect(() => {
    let cancelled = false;
    let unsubscribe: (() => void) | undefined;

    const attach = onSupabaseCreated((sb) => {
      if (unsubscribe) return;
      const { data } = sb.auth.onAuthStateChange((event, session) => {
        if (cancelled) return;
        if (event === "SIGNED_OUT" && holding.current && !onOpenScreen()) {
          // Not asked for here (the sign-out, sign-in and password screens
          // sign out on purpose): the session ended elsewhere, or its
          // refresh was refused.
          endSession();
          return;
        }
        if (event === "SIGNED_IN" && session && ended.current) {
          // Signed in again: a new session, and the old one's notice goes.
          ended.current = false;
          dismissSessionEnded();
        }
        setState((s) =>
          sameSession(s, session)
            ? s
            : {
                ...s,
                status: session ? "signed-in" : "signed-out",
                session,
                user: session?.user ?? null,
                sessionEnded: session ? false : s.sessionEnded,
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
      const wantsPreview = previewWanted();
      const needsClient = readStoredSession() !== null || urlHasAuthTokens() || wantsPreview;
      // Behind a closed gate (the guard shows it first) the server would
      // refuse renewing the session, and supabase-js would then drop it:
      // the session is checked once the gate is passed (a fresh page load).
      if (!needsClient || gateClosedAtLoad()) return;
      const hadStored = readStoredSession() !== null;
      let preview = false;
      if (wantsPreview) {
        const config = await getConfig();
        // On /login the preview variant asks first ('Continue to Application'),
        // unless a preview session is on already (/login then leads home, in preview).
        const inPreview = isDemoUser(readStoredSession()?.user);
        preview = config.preview && (inPreview || window.location.pathname !== "/login");
        // Kept for the whole preview session: a reload of any address, without ?preview, stays in preview.
        if (preview) setPreviewFlag(true);
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
      if (!confirmed && hadStored && !onOpenScreen()) {
        // The stored session could not be renewed: it ended while the app was closed.
        endSession();
        return;
      }
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
              sessionEnded: s.sessionEnded,
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
  }, [queryClient, endSession]);

  const acknowledgeSessionEnd = useCallback(() => {
    setState((s) => (s.sessionEnded ? { ...s, sessionEnded: false } : s));
  }, []);
  const value = useMemo<AuthValue>(
    () => ({ ...state, demo: isDemoUser(state.user), acknowledgeSessionEnd }),
    [state, acknowledgeSessionEnd],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}

/** The session state. Must be used under {@link AuthProvider}. */
export function useAuth(): AuthValue {
  const value = use(AuthContext);
  if (!value) throw new Error("useAuth must be used within AuthProvider");
  return value;
}

/**
 * Whether this session may only read: the demo workspace, whose every
 * write the server refuses. Screens then hide or disable their write
 * actions and say why (components/ui/read-only-note).
 */
export function useReadOnly(): boolean {
  // Outside the provider (a component rendered on its own) there is no session, so nothing is read-only.
  return use(AuthContext)?.demo ?? false;
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
    sessionEnded: false,
    acknowledgeSessionEnd: () => undefined,
    ...value,
  };
  return <AuthContext value={full}>{children}</AuthContext>;
}
