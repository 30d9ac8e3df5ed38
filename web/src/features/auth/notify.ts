import type { ExternalToast } from "sonner";

/**
 * Shows a toast without making sonner part of the sign-in screen's static
 * imports: the screen renders without waiting for it (the app's Toaster
 * loads it in parallel, so by the time anyone submits it is there).
 */
export function notify(kind: "success" | "error" | "warning", title: string, options?: ExternalToast): void {
  void import("sonner").then(({ toast }) => toast[kind](title, options));
}
