import { generateHTML, generateJSON, type JSONContent } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ModuleNode, RichTextEditor } from "./rich-text-editor";

const extensions = [StarterKit, ModuleNode];
const doc = {
  type: "doc",
  content: [
    {
      type: "paragraph",
      content: [
        { type: "text", text: "Before " },
        { type: "module", attrs: { id: "m-1", kind: "isi", title: "Core ISI", text: "Serious infections may occur." } },
      ],
    },
  ],
};

describe("ModuleNode", () => {
  it("saves module text as a marked span the server's sanitiser keeps", () => {
    const html = generateHTML(doc, extensions);
    expect(html).toContain('<span data-module-id="m-1" data-module-kind="isi"');
    expect(html).toContain(">Serious infections may occur.</span>");
  });

  it("reads the span back into a module node", () => {
    const json = generateJSON('<p>x <span data-module-id="m-2" data-module-kind="claim">Claim text</span></p>', extensions) as JSONContent;
    const node = (json.content?.[0]?.content ?? []).find((n) => n.type === "module");
    expect(node?.attrs).toMatchObject({ id: "m-2", kind: "claim", text: "Claim text" });
  });
});

describe("RichTextEditor", () => {
  it("renders a labelled textbox and an accessible toolbar", () => {
    render(<RichTextEditor ariaLabel="Asset content" value={doc} />);
    expect(screen.getByRole("textbox", { name: "Asset content" })).toBeInTheDocument();
    expect(screen.getByRole("toolbar", { name: "Formatting" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Bold" })).toHaveAttribute("aria-pressed", "false");
    expect(screen.getByRole("button", { name: "Insert module" })).toBeInTheDocument();
    expect(screen.getByText("Serious infections may occur.")).toBeInTheDocument();
  });
});
