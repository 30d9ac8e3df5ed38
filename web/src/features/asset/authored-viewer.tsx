import type { ReactNode, Ref } from "react";
import { cn } from "@/lib/utils";

/**
 * Reading styles for authored content (there is no typography plugin): the
 * elements the editor produces, plus module text — spans carrying
 * data-module-id — tinted and preceded by a small chip naming the module's
 * kind, so reviewers see at a glance which words came from a pre-approved
 * module.
 */
const PROSE = cn(
  "max-w-none text-[0.95rem] leading-7 text-foreground break-words",
  "[&_p]:my-3 [&_h1]:mt-6 [&_h1]:mb-3 [&_h1]:text-2xl [&_h1]:font-semibold [&_h2]:mt-6 [&_h2]:mb-2 [&_h2]:text-xl [&_h2]:font-semibold",
  "[&_h3]:mt-5 [&_h3]:mb-2 [&_h3]:text-lg [&_h3]:font-semibold [&_ul]:my-3 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-3 [&_ol]:list-decimal [&_ol]:pl-6",
  "[&_li]:my-1 [&_blockquote]:my-4 [&_blockquote]:border-l-4 [&_blockquote]:pl-4 [&_blockquote]:text-muted-foreground",
  "[&_a]:text-primary [&_a]:underline [&_strong]:font-semibold [&_hr]:my-6 [&_code]:rounded [&_code]:bg-muted [&_code]:px-1",
  "[&_table]:my-4 [&_table]:w-full [&_td]:border [&_td]:p-2 [&_th]:border [&_th]:p-2 [&_th]:text-left",
  "[&_>*:first-child]:mt-0",
  // Module text.
  "[&_[data-module-id]]:rounded-sm [&_[data-module-id]]:bg-violet-50 [&_[data-module-id]]:px-0.5 [&_[data-module-id]]:shadow-[inset_0_-2px_0_0_var(--color-violet-400)]",
  "dark:[&_[data-module-id]]:bg-violet-950/60 dark:[&_[data-module-id]]:shadow-[inset_0_-2px_0_0_var(--color-violet-500)]",
  "[&_[data-module-id]]:before:mr-1 [&_[data-module-id]]:before:inline-block [&_[data-module-id]]:before:rounded [&_[data-module-id]]:before:bg-violet-700 [&_[data-module-id]]:before:px-1",
  "[&_[data-module-id]]:before:align-[0.1em] [&_[data-module-id]]:before:text-[0.625rem] [&_[data-module-id]]:before:leading-4 [&_[data-module-id]]:before:font-semibold [&_[data-module-id]]:before:tracking-wide [&_[data-module-id]]:before:text-white [&_[data-module-id]]:before:uppercase",
  "[&_[data-module-id]]:before:content-['module'] [&_[data-module-kind]]:before:content-[attr(data-module-kind)]",
);

/**
 * An authored version. The HTML was sanitised by the server (bluemonday)
 * when the version was saved; it is shown as a page of text. `overlay` is
 * drawn over the page (annotations), whose element is `frameRef`; the text
 * itself is `articleRef`.
 */
export function AuthoredViewer({
  html,
  title,
  overlay,
  frameRef,
  articleRef,
  toolbar,
}: {
  html: string;
  title: string;
  overlay?: ReactNode;
  frameRef?: Ref<HTMLDivElement>;
  articleRef?: Ref<HTMLElement>;
  /** Controls above the page (annotations' own). */
  toolbar?: ReactNode;
}) {
  return (
    <div className="flex min-h-0 flex-col">
      {toolbar ? <div className="flex flex-wrap items-center justify-end gap-2 border-b bg-card px-3 py-2">{toolbar}</div> : null}
      <div role="region" aria-label={title} tabIndex={0} className="max-h-[min(78dvh,60rem)] min-h-64 overflow-auto bg-muted/70 p-3 sm:p-6 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none focus-visible:ring-inset">
        <div ref={frameRef} className="relative mx-auto max-w-3xl">
          <article
            ref={articleRef}
            className={cn("rounded-md bg-card p-6 shadow-sm ring-1 ring-black/5 sm:p-10", PROSE)}
            data-testid="authored-content"
            // Sanitised server-side (bluemonday) before it was stored.
            dangerouslySetInnerHTML={{ __html: html || "<p><em>This version has no text.</em></p>" }}
          />
          {overlay}
        </div>
      </div>
    </div>
  );
}
