import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { User } from "@supabase/supabase-js";
import { AuthTestProvider } from "@/lib/auth";
import { createTestQueryClient } from "@/test/utils";
import { PasswordCard } from "./password-card";

// A stand-in for supabase-js's auth client: the answers the server gives.
const auth = {
  updateUser: vi.fn(),
  reauthenticate: vi.fn(),
};

vi.mock("@/lib/supabase", () => ({
  getSupabase: () => Promise.resolve({ auth }),
}));

vi.mock("sonner", () => ({ toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }));

const user = { id: "u1", email: "ada@example.com" } as User;

function renderCard() {
  return render(
    <QueryClientProvider client={createTestQueryClient()}>
      <AuthTestProvider value={{ status: "signed-in", user }}>
        <PasswordCard />
      </AuthTestProvider>
    </QueryClientProvider>,
  );
}

const NEW = "Brand-New-Secret-7";

async function fillAndSubmit() {
  const u = userEvent.setup();
  await u.type(screen.getByLabelText("New password"), NEW);
  await u.type(screen.getByLabelText("Confirm new password"), NEW);
  await u.click(screen.getByRole("button", { name: "Update password" }));
  return u;
}

describe("PasswordCard", () => {
  beforeEach(() => {
    auth.updateUser.mockReset();
    auth.reauthenticate.mockReset();
  });

  it("checks the spec's rules before calling the server", async () => {
    renderCard();
    const u = userEvent.setup();
    await u.type(screen.getByLabelText("New password"), "short");
    await u.click(screen.getByRole("button", { name: "Update password" }));
    expect(await screen.findByText("Password must be at least 8 characters long")).toBeInTheDocument();
    expect(screen.getByText("Passwords do not match")).toBeInTheDocument();
    expect(auth.updateUser).not.toHaveBeenCalled();
  });

  it("changes the password in one step for a recent session", async () => {
    auth.updateUser.mockResolvedValue({ data: { user }, error: null });
    renderCard();
    await fillAndSubmit();
    await waitFor(() => {
      expect(auth.updateUser).toHaveBeenCalledWith({ password: NEW });
    });
    await waitFor(() => {
      expect(screen.getByLabelText("New password")).toHaveValue("");
    });
    expect(auth.reauthenticate).not.toHaveBeenCalled();
  });

  it("asks for the e-mailed code when the server needs reauthentication, then sends it along", async () => {
    auth.updateUser
      .mockResolvedValueOnce({ data: { user: null }, error: { code: "reauthentication_needed", message: "Password update requires reauthentication" } })
      .mockResolvedValueOnce({ data: { user: null }, error: { code: "reauthentication_not_valid", message: "Nonce has expired or is invalid" } })
      .mockResolvedValueOnce({ data: { user }, error: null });
    auth.reauthenticate.mockResolvedValue({ data: {}, error: null });
    renderCard();
    const u = await fillAndSubmit();

    expect(await screen.findByText(/we sent a 6-digit code to ada@example.com/)).toBeInTheDocument();
    expect(auth.reauthenticate).toHaveBeenCalledTimes(1);
    const code = screen.getByLabelText("Verification code");

    await u.click(screen.getByRole("button", { name: "Update password" }));
    expect(await screen.findByText("Enter the 6-digit code from the e-mail")).toBeInTheDocument();

    await u.type(code, "12a3456");
    expect(code).toHaveValue("123456");
    await u.click(screen.getByRole("button", { name: "Update password" }));
    expect(await screen.findByText("Nonce has expired or is invalid")).toBeInTheDocument();
    expect(auth.updateUser).toHaveBeenLastCalledWith({ password: NEW, nonce: "123456" });

    await u.click(screen.getByRole("button", { name: "Update password" }));
    await waitFor(() => {
      expect(screen.queryByLabelText("Verification code")).not.toBeInTheDocument();
    });
    expect(auth.updateUser).toHaveBeenCalledTimes(3);
  });

  it("points to the authenticator code when the session is not AAL2", async () => {
    auth.updateUser.mockResolvedValue({
      data: { user: null },
      error: { code: "insufficient_aal", message: "AAL2 session is required to update email or password when MFA is enabled." },
    });
    renderCard();
    await fillAndSubmit();
    expect(await screen.findByText(/Confirm it is you with a code from your authenticator app first/)).toBeInTheDocument();
  });

  it("shows the server's reason for a weak or reused password on the field", async () => {
    auth.updateUser.mockResolvedValue({
      data: { user: null },
      error: { code: "same_password", message: "New password should be different from the old password." },
    });
    renderCard();
    await fillAndSubmit();
    expect(await screen.findByText("New password should be different from the old password.")).toBeInTheDocument();
  });
});
