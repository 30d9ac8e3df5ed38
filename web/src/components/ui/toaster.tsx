import type { CSSProperties } from "react";
import { Toaster as Sonner } from "sonner";

/** The spec's toast constants: 5 s, 3 visible, 356 px wide, bottom-right. */
export const TOAST_DURATION_MS = 5000;
export const TOAST_VISIBLE = 3;
export const TOAST_WIDTH_PX = 356;

// sonner's rich-colour texts fall short of WCAG AA (4.5:1) on their own
// backgrounds (success about 4.2:1, warning about 3.3:1); these darker
// shades of the same hues pass.
const RICH_TEXT = {
  "--success-text": "hsl(140, 100%, 22%)",
  "--info-text": "hsl(210, 92%, 36%)",
  "--warning-text": "hsl(31, 92%, 28%)",
  "--error-text": "hsl(360, 100%, 38%)",
};

/** Where toasts appear. Mount once, near the root. */
export function Toaster() {
  return (
    <Sonner
      position="bottom-right"
      visibleToasts={TOAST_VISIBLE}
      duration={TOAST_DURATION_MS}
      closeButton
      richColors
      style={{ "--width": `${TOAST_WIDTH_PX}px`, ...RICH_TEXT } as CSSProperties}
      toastOptions={{ classNames: { toast: "font-sans" } }}
    />
  );
}
