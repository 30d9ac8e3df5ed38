import { act, render, waitFor } from "@testing-library/react";
import { toast } from "sonner";
import { afterEach, describe, expect, it } from "vitest";
import { Toaster } from "./toaster";

function toaster(): HTMLElement {
  const el = document.querySelector<HTMLElement>("[data-sonner-toaster]");
  if (!el) throw new Error("no toaster");
  return el;
}

const where = () => `${toaster().dataset.yPosition ?? ""}-${toaster().dataset.xPosition ?? ""}`;

afterEach(() => {
  act(() => {
    toast.dismiss();
  });
  for (const el of document.querySelectorAll("[data-test-dialog]")) el.remove();
});

describe("Toaster", () => {
  it("shows toasts bottom-right, and at the top centre while a dialog is open, so a dialog's actions stay free", async () => {
    render(<Toaster />);
    act(() => {
      toast("Saved");
    });
    await waitFor(() => {
      expect(where()).toBe("bottom-right");
    });

    const dialog = document.createElement("div");
    dialog.setAttribute("role", "dialog");
    dialog.dataset.state = "open";
    dialog.dataset.testDialog = "";
    await act(async () => {
      document.body.append(dialog);
      await Promise.resolve();
    });
    await waitFor(() => {
      expect(where()).toBe("top-center");
    });

    // Closed while a toast is still up: it stays where it is read.
    await act(async () => {
      dialog.remove();
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(where()).toBe("top-center");
    // … and goes back once the toasts are gone.
    act(() => {
      toast.dismiss();
    });
    await waitFor(() => {
      expect(document.querySelector("[data-sonner-toast]")).toBeNull();
    });
    act(() => {
      toast("Next");
    });
    await waitFor(() => {
      expect(where()).toBe("bottom-right");
    });
  });
});
