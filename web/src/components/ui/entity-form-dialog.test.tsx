import { zodResolver } from "@hookform/resolvers/zod";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useForm } from "react-hook-form";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { DataError } from "@/lib/data";
import { oneOfRule, textRule } from "@/lib/field-rules";
import { EntityFormDialog } from "./entity-form-dialog";
import { FormField, FormSelect } from "./form";
import { Input, Textarea } from "./input";

// A module-like form: the rules (and so the words) are the server's.
const schema = z.object({
  title: textRule("The title", 1, 200),
  body: textRule("The body", 0, 50000),
  status: oneOfRule("The status", ["draft", "approved", "retired"]),
});
type Values = z.input<typeof schema>;
type Output = z.output<typeof schema>;

function Harness({ onSubmit, readOnly = false, onClose = vi.fn() }: { onSubmit: (values: Output) => Promise<unknown>; readOnly?: boolean; onClose?: () => void }) {
  const form = useForm<Values, unknown, Output>({ resolver: zodResolver(schema), defaultValues: { title: "", body: "", status: "draft" } });
  return (
    <EntityFormDialog
      form={form}
      title="New module"
      description="Approved modules can be inserted into assets."
      onSubmit={onSubmit}
      onClose={onClose}
      readOnly={readOnly}
      submitLabel="Create module"
      errorFallback="The module could not be saved."
    >
      <FormField name="title" label="Title">
        <Input readOnly={readOnly} {...form.register("title")} />
      </FormField>
      <FormField name="body" label="Text">
        <Textarea readOnly={readOnly} {...form.register("body")} />
      </FormField>
      <FormField name="status" label="Status">
        <FormSelect name="status" disabled={readOnly}>
          <option value="draft">Draft</option>
          <option value="approved">Approved</option>
        </FormSelect>
      </FormField>
    </EntityFormDialog>
  );
}

/** The message an input is described by (its field's error), if any. */
function describedError(input: HTMLElement): string | undefined {
  const ids = (input.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
  return ids.map((id) => document.getElementById(id)).find((el) => el?.getAttribute("role") === "alert")?.textContent ?? undefined;
}

describe("EntityFormDialog", () => {
  it("checks the fields in the server's words before sending", async () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    render(<Harness onSubmit={onSubmit} />);
    const u = userEvent.setup();
    await u.click(screen.getByRole("button", { name: "Create module" }));
    const title = screen.getByLabelText("Title");
    await waitFor(() => {
      expect(describedError(title)).toBe("The title is required.");
    });
    expect(title).toHaveAttribute("aria-invalid", "true");
    expect(onSubmit).not.toHaveBeenCalled();

    await u.type(title, "  Boxed warning  ");
    await u.click(screen.getByRole("button", { name: "Create module" }));
    await waitFor(() => {
      expect(onSubmit).toHaveBeenCalledWith({ title: "Boxed warning", body: "", status: "draft" });
    });
  });

  it("shows each of the server's field messages beside its field, and no second copy for the form", async () => {
    const refusal = new DataError("The title must be 1 to 200 characters long.", 400, "23514", null, {
      title: "A module titled “Boxed warning” already exists.",
      status: "The status must be one of: draft, approved, retired.",
    });
    render(<Harness onSubmit={() => Promise.reject(refusal)} />);
    const u = userEvent.setup();
    await u.type(screen.getByLabelText("Title"), "Boxed warning");
    await u.click(screen.getByRole("button", { name: "Create module" }));

    const title = screen.getByLabelText("Title");
    await waitFor(() => {
      expect(describedError(title)).toBe("A module titled “Boxed warning” already exists.");
    });
    expect(describedError(screen.getByLabelText("Status"))).toBe("The status must be one of: draft, approved, retired.");
    expect(describedError(screen.getByLabelText("Text"))).toBeUndefined();
    expect(title).toHaveFocus();
    // Two messages, both at their fields: nothing repeated above the buttons.
    expect(within(screen.getByRole("dialog")).getAllByRole("alert")).toHaveLength(2);
    expect(screen.queryByText("The title must be 1 to 200 characters long.")).not.toBeInTheDocument();
  });

  it("reads field messages from `details` when the server sends no `fields`", async () => {
    const refusal = new DataError("Check the module.", 400, "23514", "body: The body must be 0 to 50000 characters long.");
    render(<Harness onSubmit={() => Promise.reject(refusal)} />);
    const u = userEvent.setup();
    await u.type(screen.getByLabelText("Title"), "Boxed warning");
    await u.click(screen.getByRole("button", { name: "Create module" }));
    await waitFor(() => {
      expect(describedError(screen.getByLabelText("Text"))).toBe("The body must be 0 to 50000 characters long.");
    });
  });

  it("shows a refusal without field messages once, for the form", async () => {
    render(<Harness onSubmit={() => Promise.reject(new DataError("Demo mode: writes disabled. This is a read-only preview.", 403, "42501"))} />);
    const u = userEvent.setup();
    await u.type(screen.getByLabelText("Title"), "Boxed warning");
    await u.click(screen.getByRole("button", { name: "Create module" }));
    const alert = await within(screen.getByRole("dialog")).findByRole("alert");
    expect(alert).toHaveTextContent("Demo mode: writes disabled. This is a read-only preview.");
    expect(describedError(screen.getByLabelText("Title"))).toBeUndefined();
    // A new attempt clears it.
    await u.click(screen.getByRole("button", { name: "Create module" }));
    await waitFor(() => {
      expect(within(screen.getByRole("dialog")).getAllByRole("alert")).toHaveLength(1);
    });
  });

  it("offers only Close to someone who may not write", async () => {
    const onClose = vi.fn();
    render(<Harness onSubmit={() => Promise.resolve()} readOnly onClose={onClose} />);
    expect(screen.queryByRole("button", { name: "Create module" })).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getAllByRole("button", { name: "Close" })[0] ?? document.body);
    expect(onClose).toHaveBeenCalled();
  });
});
