import { useEffect, useState, type CSSProperties } from "react";
import { Toaster as Sonner, useSonner, type ToasterProps } from "sonner";

/**
 * The spec's toast constants: 5 s, 3 visible, 356 px wide, bottom-right by
 * default. While a dialog is open they show at the top centre instead
 * (TOAST_POSITION_OVER_DIALOG): a dialog's actions are at its bottom, and on
 * a wide dialog, or on a phone where a toast spans the width, a toast in
 * the bottom corner would cover them.
 */
export const TOAST_DURATION_MS = 5000;
export const TOAST_VISIBLE = 3;
export const TOAST_WIDTH_PX = 356;
export const TOAST_POSITION: ToasterProps["position"] = "bottom-right";
export const TOAST_POSITION_OVER_DIALOG: ToasterProps["position"] = "top-center";

// sonner's rich-colour texts fall short of WCAG AA (4.5:1) on their own
// backgrounds (success about 4.2:1, warning about 3.3:1); these darker
// shades of the same hues pass.
const RICH_TEXT = {
  "--success-text": "hsl(140, 100%, 22%)",
  "--info-text": "hsl(210, 92%, 36%)",
  "--warning-text": "hsl(31, 92%, 28%)",
  "--error-text": "hsl(360, 100%, 38%)",
};

const OPEN_DIALOG = '[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]';

function dialogIsOpen(): boolean {
  return document.querySelector(OPEN_DIALOG) !== null;
}

/**
 * Whether a modal dialog (a dialog, alert dialog or sheet) is open. They
 * are portalled into <body> as its children, open, and removed from it
 * once closed, so only <body>'s own children are watched.
 */
function useDialogOpen(): boolean {
  const [open, setOpen] = useState(dialogIsOpen);
  useEffect(() => {
    const update = () => {
      setOpen(dialogIsOpen());
    };
    const observer = new MutationObserver(update);
    observer.observe(document.body, { childList: true });
    update();
    return () => {
      observer.disconnect();
    };
  }, []);
  return open;
}

/** Where toasts appear. Mount once, near the root. */
export function Toaster() {
  const dialogOpen = useDialogOpen();
  const { toasts } = useSonner();
  // Up when a dialog opens; back down once the toasts shown up there are
  // gone, so a toast raised as a dialog closes ("Asset created") does not
  // jump across the screen while it is read.
  const [overDialog, setOverDialog] = useState(dialogOpen);
  if (dialogOpen && !overDialog) setOverDialog(true);
  if (!dialogOpen && overDialog && toasts.length === 0) setOverDialog(false);
  return (
    <Sonner
      position={overDialog ? TOAST_POSITION_OVER_DIALOG : TOAST_POSITION}
      visibleToasts={TOAST_VISIBLE}
      duration={TOAST_DURATION_MS}
      closeButton
      richColors
      style={{ "--width": `${TOAST_WIDTH_PX}px`, ...RICH_TEXT } as CSSProperties}
      toastOptions={{ classNames: { toast: "font-sans" } }}
    />
  );
}
