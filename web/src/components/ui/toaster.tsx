import type { CSSProperties } from "react";
import { Toaster as Sonner } from "sonner";

/** The spec's toast constants: 5 s, 3 visible, 356 px wide, bottom-right. */
export const TOAST_DURATION_MS = 5000;
export const TOAST_VISIBLE = 3;
export const TOAST_WIDTH_PX = 356;

/** Where toasts appear. Mount once, near the root. */
export function Toaster() {
  return (
    <Sonner
      position="bottom-right"
      visibleToasts={TOAST_VISIBLE}
      duration={TOAST_DURATION_MS}
      closeButton
      richColors
      style={{ "--width": `${TOAST_WIDTH_PX}px` } as CSSProperties}
      toastOptions={{ classNames: { toast: "font-sans" } }}
    />
  );
}
