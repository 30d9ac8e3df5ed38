import { createContext, use, useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import { readCookie, writeCookie } from "@/lib/cookies";

/** The spec's sidebar constants. */
export const SIDEBAR_COOKIE = "sidebar:state";
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7;
export const SIDEBAR_WIDTH = "16rem";
export const SIDEBAR_WIDTH_ICON = "3rem";
export const SIDEBAR_WIDTH_MOBILE = "18rem";
export const MOBILE_BREAKPOINT = 768;
export const SIDEBAR_SHORTCUT = "b";

interface SidebarState {
  /** Desktop: expanded (true) or collapsed to icons. */
  open: boolean;
  setOpen: (open: boolean) => void;
  /** Under 768 px the sidebar is a sheet; this is whether it is showing. */
  openMobile: boolean;
  setOpenMobile: (open: boolean) => void;
  isMobile: boolean;
  toggle: () => void;
}

const SidebarContext = createContext<SidebarState | null>(null);

function useIsMobile(): boolean {
  const query = `(max-width: ${MOBILE_BREAKPOINT - 1}px)`;
  const [mobile, setMobile] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const onChange = () => {
      setMobile(list.matches);
    };
    list.addEventListener("change", onChange);
    onChange();
    return () => {
      list.removeEventListener("change", onChange);
    };
  }, [query]);
  return mobile;
}

/**
 * Holds the sidebar's state: collapsed or not (kept in the `sidebar:state`
 * cookie for 7 days), the mobile sheet, and the Ctrl/Cmd+B shortcut.
 */
export function SidebarProvider({ children }: { children: ReactNode }) {
  const isMobile = useIsMobile();
  const [open, setOpenState] = useState(() => readCookie(SIDEBAR_COOKIE) !== "false");
  const [openMobile, setOpenMobile] = useState(false);

  const setOpen = useCallback((value: boolean) => {
    setOpenState(value);
    writeCookie(SIDEBAR_COOKIE, String(value), SIDEBAR_COOKIE_MAX_AGE);
  }, []);

  const toggle = useCallback(() => {
    if (isMobile) setOpenMobile((v) => !v);
    else setOpen(!open);
  }, [isMobile, open, setOpen]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === SIDEBAR_SHORTCUT && (event.metaKey || event.ctrlKey) && !event.altKey) {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
    };
  }, [toggle]);

  const value = useMemo(
    () => ({ open, setOpen, openMobile, setOpenMobile, isMobile, toggle }),
    [open, setOpen, openMobile, isMobile, toggle],
  );
  return <SidebarContext value={value}>{children}</SidebarContext>;
}

export function useSidebar(): SidebarState {
  const value = use(SidebarContext);
  if (!value) throw new Error("useSidebar must be used within SidebarProvider");
  return value;
}
