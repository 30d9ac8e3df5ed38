import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { FunctionsHttpError } from "@supabase/supabase-js";
import { toast } from "sonner";
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

/** A refusal as supabase-js reports it: the server's JSON body inside the Response. */
function refusal(status: number, body: Record<string, unknown>) {
  const response = new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  return { data: null, error: new FunctionsHttpError(response) };
}

const updates = () => functions.invoke.mock.calls.filter(([, options]) => (options as { body: { action: string } }).body.action === "UPDATE_SETTINGS");

describe("WorkspaceSettingsCard", () => {
  beforeEach(() => {
    functions.invoke.mockReset();
    vi.mocked(toast.success).mockReset();
    vi.mocked(toast.error).mockReset();
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

  it("asks for a passcode of 6 to 128 characters before turning the gate on, and keeps this browser in", async () => {
    const gate = vi.fn(() => Promise.resolve(new Response(null, { status: 204 })));
    vi.stubGlobal("fetch", gate);
    functions.invoke
      .mockResolvedValueOnce(answer(true))
      .mockResolvedValueOnce(answer(true, { preview_passcode_enabled: true, preview_passcode_set: true }));
    renderWithQuery(<WorkspaceSettingsCard />);
    const u = userEvent.setup();
    await u.click(await screen.findByRole("switch", { name: "Passcode gate" }));
    const save = screen.getByRole("button", { name: "Save workspace settings" });
    await u.click(save);
    expect(await screen.findByText("Enter a passcode to turn the gate on")).toBeInTheDocument();
    const passcode = screen.getByLabelText("Passcode", { exact: true });
    expect(passcode).toHaveAttribute("aria-invalid", "true");
    expect(passcode).toHaveFocus();

    await u.type(passcode, "short");
    expect(await screen.findByText("The passcode must have between 6 and 128 characters")).toBeInTheDocument();
    await u.click(save);
    // Three emoji are six UTF-16 units but three characters, as the server counts them.
    await u.clear(passcode);
    await u.type(passcode, "😀😀😀");
    await u.click(save);
    expect(screen.getByText("The passcode must have between 6 and 128 characters")).toBeInTheDocument();
    await u.clear(passcode);
    await u.click(passcode);
    await u.paste("x".repeat(129));
    await u.click(save);
    expect(screen.getByText("The passcode must have between 6 and 128 characters")).toBeInTheDocument();
    expect(updates()).toHaveLength(0);

    await u.clear(passcode);
    await u.type(passcode, "open-sesame-42");
    expect(screen.queryByText("The passcode must have between 6 and 128 characters")).not.toBeInTheDocument();
    await u.click(save);
    await waitFor(() => {
      expect(toast.success).toHaveBeenCalledWith("Workspace settings saved");
    });
    expect(updates()).toEqual([
      ["security-manager", { body: { action: "UPDATE_SETTINGS", settings: { preview_passcode: "open-sesame-42", preview_passcode_enabled: true } } }],
    ]);
    expect(gate).toHaveBeenCalledWith("/api/gate", expect.objectContaining({ body: JSON.stringify({ passcode: "open-sesame-42" }) }));
    // The form starts again from the saved settings: the gate is on, the passcode optional and empty.
    expect(await screen.findByText(/A passcode is set\./)).toBeInTheDocument();
    expect(screen.getByLabelText("New passcode (optional)")).toHaveValue("");
    expect(screen.getByRole("button", { name: "Save workspace settings" })).toBeDisabled();
  });

  it("shows the server's message for a field beside that field", async () => {
    functions.invoke
      .mockResolvedValueOnce(answer(true, { preview_passcode_enabled: true, preview_passcode_set: true }))
      .mockResolvedValueOnce(
        refusal(400, {
          success: false,
          code: "validation_failed",
          message: "The settings were not saved",
          fields: { preview_passcode: "This passcode was refused", block_indexing: "block_indexing must be true or false" },
        }),
      );
    renderWithQuery(<WorkspaceSettingsCard />);
    const u = userEvent.setup();
    const passcode = await screen.findByLabelText("New passcode (optional)");
    await u.type(passcode, "open-sesame-42");
    await u.click(screen.getByRole("switch", { name: "Hide from search engines" }));
    await u.click(screen.getByRole("button", { name: "Save workspace settings" }));

    expect(await screen.findByText("This passcode was refused")).toBeInTheDocument();
    expect(passcode).toHaveAttribute("aria-invalid", "true");
    expect(passcode).toHaveAccessibleDescription(expect.stringContaining("This passcode was refused"));
    expect(passcode).toHaveFocus();
    const index = screen.getByRole("switch", { name: "Hide from search engines" });
    expect(index).toHaveAttribute("aria-invalid", "true");
    expect(index).toHaveAccessibleDescription("block_indexing must be true or false");
    // Every field took its message, so the form's own message is not repeated.
    expect(screen.queryByText("The settings were not saved")).not.toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith("Workspace settings not saved", { description: "The settings were not saved" });
    expect(updates()).toEqual([
      ["security-manager", { body: { action: "UPDATE_SETTINGS", settings: { preview_passcode: "open-sesame-42", block_indexing: true } } }],
    ]);
  });

  it("shows a refusal that names no field as the form's message", async () => {
    functions.invoke
      .mockResolvedValueOnce(answer(true))
      .mockResolvedValueOnce(refusal(403, { success: false, code: "not_operator", message: "Only the instance operator can change these settings" }));
    renderWithQuery(<WorkspaceSettingsCard />);
    const u = userEvent.setup();
    await u.click(await screen.findByRole("radio", { name: /Private/ }));
    await u.click(screen.getByRole("button", { name: "Save workspace settings" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Only the instance operator can change these settings");
    expect(toast.error).toHaveBeenCalledWith("Workspace settings not saved", {
      description: "Only the instance operator can change these settings",
    });
    expect(updates()).toEqual([["security-manager", { body: { action: "UPDATE_SETTINGS", settings: { site_access_mode: "PRIVATE" } } }]]);
    // Discarding puts the server's settings back.
    await u.click(screen.getByRole("button", { name: "Discard changes" }));
    expect(screen.getByRole("radio", { name: /Open preview/ })).toBeChecked();
    expect(screen.getByRole("button", { name: "Save workspace settings" })).toBeDisabled();
  });
});
