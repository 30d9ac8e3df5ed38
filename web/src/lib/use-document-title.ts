import { useEffect } from "react";

const APP_NAME = "Fairbalance";

/** Sets the browser tab title to "`title` · Fairbalance" (or just the app name). */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);
}
