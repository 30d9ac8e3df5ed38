import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithQuery } from "@/test/utils";
import { WorkspaceSettingsCard } from "./workspace-settings";

// A stand-in for supabase-js's functions client: the security manager's answers.
const functions = { invoke: vi.fn() };

vi.mock("@/lib/supabase", () => ({
  getSupabase: () => Promise.resolve({ functions }),
}));
vi.mock("@/lib/config", () => ({
  getConfig: () => Promise.resolve({ preview: false }),
  resetConfig: vi.fn(),
}));
vi.mock("sonner", () => ({ toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }));

const settings = {
  preview_passcode_enabled: false,
  preview_passcode_set: false,
  site_access_mode: "PUBLIC",
  disable_signup: true,
  block_indexing: false,
  updated_by: null,
  updated_at: "2026-01-05T10:00:00Z",
};

function answer(editable: boolean, changed: Partial<typeof settings> = {}) {
  return { data: { success: true, editable, settings: { ...settings, ...changed } }, error: null };
}

describe("WorkspaceSettingsCard", () => {
  beforeEach(() => {
    functions.invoke.mockReset();
    // Radix's switch measures itself; jsdom has no ResizeObserver.
    vi.stubGlobal(
      "ResizeObserver",
      class {
        observe = vi.fn();
        unobserve = vi.fn();
        disconnect = vi.fn();
      },
    );
  });

  it("shows an organisation admin the instance's settings read-only", async () => {
    functions.invoke.mockResolvedValue(answer(false));
    renderWithQuery(<WorkspaceSettingsCard />);
    expect(await screen.findByText("Instance settings are managed by the instance operator")).toBeInTheDocument();
    for (const name of ["Passcode gate", "Invitation-only sign-up", "Hide from search engines"]) {
      expect(screen.getByRole("switch", { name })).toBeDisabled();
    }
    expect(screen.getByRole("switch", { name: "Invitation-only sign-up" })).toBeChecked();
    expect(screen.getByRole("radio", { name: /Private/ })).toBeDisabled();
    expect(screen.getByRole("radio", { name: /Open preview/ })).toBeChecked();
    expect(screen.queryByRole("button", { name: "Save workspace settings" })).not.toBeInTheDocument();
    expect(functions.invoke).toHaveBeenCalledTimes(1);
    expect(functions.invoke).toHaveBeenCalledWith("security-manager", { body: { action: "GET_SETTINGS" } });
  });

  it("lets the operator change them", async () => {
    functions.invoke.mockResolvedValueOnce(answer(true)).mockResolvedValueOnce(answer(true, { block_indexing: true }));
    renderWithQuery(<WorkspaceSettingsCard />);
    const index = await screen.findByRole("switch", { name: "Hide from search engines" });
    expect(screen.queryByText("Instance settings are managed by the instance operator")).not.toBeInTheDocument();
    expect(index).toBeEnabled();
    const u = userEvent.setup();
    await u.click(index);
    await u.click(screen.getByRole("button", { name: "Save workspace settings" }));
    await waitFor(() => {
      expect(functions.invoke).toHaveBeenLastCalledWith("security-manager", {
        body: { action: "UPDATE_SETTINGS", settings: { block_indexing: true } },
      });
    });
  });
});
