import type { Session, User } from "@supabase/supabase-js";
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AuthTestProvider, type AuthValue } from "@/lib/auth";
import { createTestQueryClient } from "@/test/utils";
import { LoginPage } from "./login-page";

// A stand-in for supabase-js's auth client: the answers the server gives.
const auth = {
  signInWithPassword: vi.fn(),
  signOut: vi.fn(),
  refreshSession: vi.fn(),
  mfa: {
    getAuthenticatorAssuranceLevel: vi.fn(),
    listFactors: vi.fn(),
    challengeAndVerify: vi.fn(),
  },
};

vi.mock("@/lib/supabase", () => ({ getSupabase: () => Promise.resolve({ auth }) }));
vi.mock("@/lib/config", () => ({ getConfig: () => Promise.resolve({ preview: false, gate: false, gatePassed: true, anonKey: "anon" }) }));
vi.mock("@/lib/functions", () => ({ invokeFunction: () => Promise.resolve({ count: 3 }) }));
vi.mock("./notify", () => ({ notify: vi.fn() }));

const user = { id: "u1", email: "ada@example.com", user_metadata: {}, app_metadata: {} } as unknown as User;
const factor = { id: "f1", friendly_name: "Phone", factor_type: "totp", status: "verified" };

/** An unsigned token with the given aal (the app reads, never verifies, its claims). */
function token(aal: string): string {
  const b64url = (s: string) => btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${b64url("{}")}.${b64url(JSON.stringify({ sub: "u1", aal }))}.sig`;
}

function renderLogin(value: Partial<AuthValue> = { status: "signed-out" }) {
  const router = createMemoryRouter(
    [
      { path: "/login", element: <LoginPage /> },
      { path: "/audit-log", element: <p>Audit log page</p> },
    ],
    { initialEntries: [{ pathname: "/login", state: { from: "/audit-log" } }] },
  );
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <AuthTestProvider value={value}>
        <RouterProvider router={router} />
      </AuthTestProvider>
    </QueryClientProvider>,
  );
  return router;
}

async function signInWithPassword() {
  const u = userEvent.setup();
  await u.type(await screen.findByLabelText("Email"), "ada@example.com");
  await u.type(screen.getByLabelText("Password", { exact: true }), "Secret-Passw0rd");
  await u.click(screen.getByRole("button", { name: "Sign In" }));
  return u;
}

describe("LoginPage two-step verification", () => {
  beforeEach(() => {
    vi.clearAllMocks();
    auth.signInWithPassword.mockResolvedValue({ data: { user, session: {} }, error: null });
    auth.signOut.mockResolvedValue({ error: null });
    auth.mfa.listFactors.mockResolvedValue({ data: { all: [factor], totp: [factor], phone: [], webauthn: [] }, error: null });
  });

  it("asks for the authenticator code after the password, refuses a wrong one, and continues where the user was going", async () => {
    auth.mfa.getAuthenticatorAssuranceLevel.mockResolvedValue({ data: { currentLevel: "aal1", nextLevel: "aal2", currentAuthenticationMethods: [] }, error: null });
    auth.mfa.challengeAndVerify
      .mockResolvedValueOnce({ data: null, error: { code: "mfa_verification_failed", message: "Invalid TOTP code entered" } })
      .mockResolvedValueOnce({ data: { user, access_token: token("aal2") }, error: null });
    const router = renderLogin();
    const u = await signInWithPassword();

    expect(await screen.findByRole("heading", { name: "Two-step verification" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
    const code = await screen.findByLabelText("6-digit code");
    expect(code).toHaveAttribute("autocomplete", "one-time-code");
    expect(code).toHaveAttribute("inputmode", "numeric");
    expect(code).toHaveAccessibleDescription("The code changes every 30 seconds.");

    // Not six digits: said so, nothing sent.
    await u.type(code, "12a");
    expect(code).toHaveValue("12");
    await u.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText("Enter the 6-digit code from your authenticator app")).toBeInTheDocument();
    expect(auth.mfa.challengeAndVerify).not.toHaveBeenCalled();

    // A wrong code: the server refuses it, the field says so and empties.
    await u.clear(code);
    await u.type(code, "000000");
    await u.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText("That code is not valid. Enter the code your authenticator app shows now.")).toBeInTheDocument();
    expect(code).toHaveValue("");
    expect(code).toHaveAttribute("aria-invalid", "true");

    // The right one: verified, and on to the remembered page.
    await u.type(code, "123456");
    await u.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe("/audit-log");
    });
    expect(auth.mfa.challengeAndVerify).toHaveBeenLastCalledWith({ factorId: "f1", code: "123456" });
    expect(auth.signOut).not.toHaveBeenCalled();
  });

  it("signs in without a code step when the account has no authenticator", async () => {
    auth.mfa.getAuthenticatorAssuranceLevel.mockResolvedValue({ data: { currentLevel: "aal1", nextLevel: "aal1", currentAuthenticationMethods: [] }, error: null });
    const router = renderLogin();
    await signInWithPassword();
    await waitFor(() => {
      expect(router.state.location.pathname).toBe("/audit-log");
    });
    expect(auth.mfa.listFactors).not.toHaveBeenCalled();
    expect(auth.mfa.challengeAndVerify).not.toHaveBeenCalled();
  });

  it("cancels by signing this session out and returns to the password step", async () => {
    auth.mfa.getAuthenticatorAssuranceLevel.mockResolvedValue({ data: { currentLevel: "aal1", nextLevel: "aal2", currentAuthenticationMethods: [] }, error: null });
    const router = renderLogin();
    const u = await signInWithPassword();
    await screen.findByLabelText("6-digit code");
    await u.click(screen.getByRole("button", { name: "Cancel and sign out" }));
    expect(await screen.findByRole("button", { name: "Sign In" })).toBeInTheDocument();
    expect(auth.signOut).toHaveBeenCalledWith({ scope: "local" });
    expect(screen.queryByLabelText("6-digit code")).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
  });

  it("asks a password-only session the guard sent back for its code, instead of letting it through", async () => {
    const session = { access_token: token("aal1"), user: { ...user, factors: [factor] } } as unknown as Session;
    const router = renderLogin({ status: "signed-in", session, user: session.user });
    expect(await screen.findByLabelText("6-digit code")).toBeInTheDocument();
    expect(screen.getByText("ada@example.com")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
    expect(auth.signInWithPassword).not.toHaveBeenCalled();
  });

  it("lets a verified (aal2) session through to the remembered page", async () => {
    const session = { access_token: token("aal2"), user: { ...user, factors: [factor] } } as unknown as Session;
    const router = renderLogin({ status: "signed-in", session, user: session.user });
    await waitFor(() => {
      expect(router.state.location.pathname).toBe("/audit-log");
    });
  });
});
