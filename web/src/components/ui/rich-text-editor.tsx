import { EditorContent, mergeAttributes, Node, useEditor, useEditorState, type Editor, type JSONContent } from "@tiptap/react";
import Placeholder from "@tiptap/extension-placeholder";
import StarterKit from "@tiptap/starter-kit";
import {
  Bold,
  Heading2,
  Heading3,
  Italic,
  List,
  ListOrdered,
  type LucideIcon,
  PackagePlus,
  Quote,
  Redo2,
  Undo2,
} from "lucide-react";
import { useEffect, useMemo, useRef } from "react";
import { moduleKindLabel } from "@/lib/content-types";
import { cn } from "@/lib/utils";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "./dropdown-menu";

/** A module the author may insert (the caller passes only approved, unexpired ones). */
export interface InsertableModule {
  id: string;
  /** claim, isi, disclaimer, copy or image. */
  kind: string;
  title: string;
  /** The text inserted into the document. */
  body: string;
}

/** What the editor reports on every change. */
export interface RichTextValue {
  /** The TipTap document (stored as the version's `content_json`). */
  json: JSONContent;
  /** The document as HTML (the server sanitises it into `content_html`). */
  html: string;
  /** The plain text (blocks separated by blank lines); empty for an empty document. */
  text: string;
}

export interface RichTextEditorProps {
  /** The initial document (TipTap JSON). Read once when the editor is created; later changes are ignored. */
  value?: JSONContent | null;
  /** Called after every edit with the document as JSON, HTML and plain text. */
  onChange?: (value: RichTextValue) => void;
  /** Modules offered by “Insert module”; without any the button says there are none. */
  modules?: readonly InsertableModule[];
  /** The accessible name of the editing area, e.g. "Asset body". */
  ariaLabel: string;
  /** Shown in the empty document. */
  placeholder?: string;
  /** Ids of elements describing the editing area (hint, error). */
  ariaDescribedBy?: string;
  /** Marks the editing area invalid (red border). */
  invalid?: boolean;
  className?: string;
}

/** Tailwind classes for a module's inline span (shared by the editor and read-only renderers). */
export const MODULE_SPAN_CLASS =
  "rounded-sm bg-violet-50 px-0.5 text-violet-950 ring-1 ring-violet-200 box-decoration-clone dark:bg-violet-950/60 dark:text-violet-100 dark:ring-violet-800";

/**
 * Module text inside a document: an inline, atomic node (the author cannot
 * edit it in place, only delete it whole), saved in HTML as
 * `<span data-module-id="…" data-module-kind="…">body</span>` — the markup
 * the server's sanitiser keeps so reviewers and the pre-screen can tell
 * module text from free text.
 */
export const ModuleNode = Node.create({
  name: "module",
  group: "inline",
  inline: true,
  atom: true,
  selectable: true,
  draggable: false,

  addAttributes() {
    return {
      id: {
        default: null,
        parseHTML: (el) => el.getAttribute("data-module-id"),
        renderHTML: (attrs) => ({ "data-module-id": attrs.id as string }),
      },
      kind: {
        default: "copy",
        parseHTML: (el) => el.getAttribute("data-module-kind") ?? "copy",
        renderHTML: (attrs) => ({ "data-module-kind": attrs.kind as string }),
      },
      title: {
        default: "",
        parseHTML: (el) => el.getAttribute("data-module-title") ?? "",
        renderHTML: (attrs) => ({ "data-module-title": attrs.title as string }),
      },
      text: {
        default: "",
        parseHTML: (el) => el.textContent,
        // The body is the span's content, not an attribute.
        renderHTML: () => ({}),
      },
    };
  },

  parseHTML() {
    return [{ tag: "span[data-module-id]" }];
  },

  renderHTML({ node, HTMLAttributes }) {
    return ["span", mergeAttributes(HTMLAttributes), String(node.attrs.text ?? "")];
  },

  renderText({ node }) {
    return String(node.attrs.text ?? "");
  },

  // In the editor the module carries a label chip so authors see what it is;
  // the chip is not part of the saved HTML or text.
  addNodeView() {
    return ({ node }) => {
      const dom = document.createElement("span");
      dom.dataset.moduleId = String(node.attrs.id ?? "");
      dom.dataset.moduleKind = String(node.attrs.kind ?? "");
      dom.className = cn(MODULE_SPAN_CLASS, "whitespace-pre-wrap");
      const chip = document.createElement("span");
      chip.className =
        "mr-1 inline-block rounded bg-violet-600 px-1 align-[1px] text-[10px] leading-4 font-semibold tracking-wide text-white uppercase select-none dark:bg-violet-400 dark:text-violet-950";
      const title = String(node.attrs.title ?? "");
      chip.textContent = `${moduleKindLabel(String(node.attrs.kind ?? ""))} module${title ? ` · ${title}` : ""}`;
      const text = document.createElement("span");
      text.textContent = String(node.attrs.text ?? "");
      dom.append(chip, text);
      return { dom };
    };
  },
});

const TOOLBAR_BUTTON =
  "inline-flex size-8 items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none disabled:pointer-events-none disabled:opacity-40 aria-pressed:bg-accent aria-pressed:text-foreground [&_svg]:size-4";

function ToolbarButton({
  icon: Icon,
  label,
  pressed,
  disabled,
  onClick,
}: {
  icon: LucideIcon;
  label: string;
  pressed?: boolean;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={TOOLBAR_BUTTON}
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      // Keep the selection in the document while clicking.
      onMouseDown={(e) => {
        e.preventDefault();
      }}
      onClick={onClick}
    >
      <Icon aria-hidden="true" />
    </button>
  );
}

function Toolbar({ editor, modules }: { editor: Editor; modules: readonly InsertableModule[] }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive("bold"),
      italic: e.isActive("italic"),
      h2: e.isActive("heading", { level: 2 }),
      h3: e.isActive("heading", { level: 3 }),
      bullet: e.isActive("bulletList"),
      ordered: e.isActive("orderedList"),
      quote: e.isActive("blockquote"),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();
  const groups = useMemo(() => {
    const byKind = new Map<string, InsertableModule[]>();
    for (const m of modules) byKind.set(m.kind, [...(byKind.get(m.kind) ?? []), m]);
    return [...byKind.entries()];
  }, [modules]);

  return (
    <div role="toolbar" aria-label="Formatting" className="flex flex-wrap items-center gap-0.5 border-b bg-muted/40 px-1.5 py-1">
      <ToolbarButton icon={Bold} label="Bold" pressed={state.bold} onClick={() => chain().toggleBold().run()} />
      <ToolbarButton icon={Italic} label="Italic" pressed={state.italic} onClick={() => chain().toggleItalic().run()} />
      <span aria-hidden="true" className="mx-1 h-5 w-px bg-border" />
      <ToolbarButton icon={Heading2} label="Heading" pressed={state.h2} onClick={() => chain().toggleHeading({ level: 2 }).run()} />
      <ToolbarButton icon={Heading3} label="Subheading" pressed={state.h3} onClick={() => chain().toggleHeading({ level: 3 }).run()} />
      <ToolbarButton icon={List} label="Bulleted list" pressed={state.bullet} onClick={() => chain().toggleBulletList().run()} />
      <ToolbarButton icon={ListOrdered} label="Numbered list" pressed={state.ordered} onClick={() => chain().toggleOrderedList().run()} />
      <ToolbarButton icon={Quote} label="Quote" pressed={state.quote} onClick={() => chain().toggleBlockquote().run()} />
      <span aria-hidden="true" className="mx-1 h-5 w-px bg-border" />
      <ToolbarButton icon={Undo2} label="Undo" disabled={!state.canUndo} onClick={() => chain().undo().run()} />
      <ToolbarButton icon={Redo2} label="Redo" disabled={!state.canRedo} onClick={() => chain().redo().run()} />
      <span className="ml-auto" />
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <button
            type="button"
            className="inline-flex h-8 items-center gap-1.5 rounded-md px-2.5 text-xs font-medium text-foreground transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none [&_svg]:size-4"
          >
            <PackagePlus aria-hidden="true" />
            Insert module
          </button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="max-h-80 w-80 overflow-y-auto">
          {groups.length === 0 ? (
            <p className="px-2 py-3 text-sm text-muted-foreground">
              No approved modules yet. Approve a module on the Modules tab to reuse it here.
            </p>
          ) : (
            groups.map(([kind, items], index) => (
              <div key={kind}>
                {index > 0 ? <DropdownMenuSeparator /> : null}
                <DropdownMenuLabel>{moduleKindLabel(kind)}</DropdownMenuLabel>
                {items.map((m) => (
                  <DropdownMenuItem
                    key={m.id}
                    onSelect={() => {
                      chain()
                        .insertContent([
                          { type: "module", attrs: { id: m.id, kind: m.kind, title: m.title, text: m.body } },
                          { type: "text", text: " " },
                        ])
                        .run();
                    }}
                  >
                    <span className="grid min-w-0 gap-0.5">
                      <span className="truncate font-medium">{m.title}</span>
                      <span className="line-clamp-2 text-xs text-muted-foreground">{m.body}</span>
                    </span>
                  </DropdownMenuItem>
                ))}
              </div>
            ))
          )}
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}

/** Classes giving the document readable typography without a typography plugin. */
export const RICH_TEXT_CLASS = cn(
  "text-sm leading-6",
  "[&_h2]:mt-4 [&_h2]:mb-2 [&_h2]:text-lg [&_h2]:font-semibold [&_h2]:first:mt-0",
  "[&_h3]:mt-3 [&_h3]:mb-1.5 [&_h3]:text-base [&_h3]:font-semibold [&_h3]:first:mt-0",
  "[&_p]:my-2 [&_p]:first:mt-0 [&_p]:last:mb-0",
  "[&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-6 [&_li_p]:my-0.5",
  "[&_blockquote]:my-2 [&_blockquote]:border-l-2 [&_blockquote]:pl-3 [&_blockquote]:text-muted-foreground",
  "[&_span[data-module-id]]:rounded-sm [&_span[data-module-id]]:bg-violet-50 [&_span[data-module-id]]:ring-1 [&_span[data-module-id]]:ring-violet-200",
  "dark:[&_span[data-module-id]]:bg-violet-950/60 dark:[&_span[data-module-id]]:ring-violet-800",
);

/**
 * The rich-text editor for authored versions (TipTap): bold, italic,
 * headings, lists, quotes, undo/redo, and “Insert module”, which puts a
 * module's body into the document as marked, non-editable module text
 * (see {@link ModuleNode}). Uncontrolled: `value` seeds the document and
 * `onChange` reports {json, html, text} after each edit. Heavy (ProseMirror):
 * import it with `React.lazy` so screens that do not edit stay small.
 */
export function RichTextEditor({
  value,
  onChange,
  modules = [],
  ariaLabel,
  placeholder = "Start writing…",
  ariaDescribedBy,
  invalid,
  className,
}: RichTextEditorProps) {
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({ heading: { levels: [2, 3] }, code: false, codeBlock: false, horizontalRule: false, link: false }),
      Placeholder.configure({ placeholder }),
      ModuleNode,
    ],
    content: value ?? "",
    immediatelyRender: true,
    editorProps: {
      attributes: {
        role: "textbox",
        "aria-multiline": "true",
        "aria-label": ariaLabel,
        ...(ariaDescribedBy ? { "aria-describedby": ariaDescribedBy } : {}),
        ...(invalid ? { "aria-invalid": "true" } : {}),
        class: cn(
          RICH_TEXT_CLASS,
          "min-h-48 px-3 py-2.5 outline-none",
          "[&_p.is-editor-empty:first-child]:before:pointer-events-none [&_p.is-editor-empty:first-child]:before:float-left [&_p.is-editor-empty:first-child]:before:h-0 [&_p.is-editor-empty:first-child]:before:text-muted-foreground/80 [&_p.is-editor-empty:first-child]:before:content-[attr(data-placeholder)]",
          "[&_.ProseMirror-selectednode]:ring-2 [&_.ProseMirror-selectednode]:ring-ring",
        ),
      },
    },
    onUpdate: ({ editor: e }) => {
      onChangeRef.current?.({
        json: e.getJSON(),
        html: e.getHTML(),
        text: e.isEmpty ? "" : e.getText({ blockSeparator: "\n\n" }),
      });
    },
  });

  return (
    <div
      data-slot="rich-text-editor"
      className={cn(
        "overflow-hidden rounded-md border border-input bg-card shadow-xs focus-within:border-ring focus-within:ring-2 focus-within:ring-ring/30",
        invalid && "border-destructive",
        className,
      )}
    >
      <Toolbar editor={editor} modules={modules} />
      <EditorContent editor={editor} />
    </div>
  );
}
