import { PanelLeft, Scale } from "lucide-react";
import { Link, useLocation } from "react-router";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { cn } from "@/lib/utils";
import { isActive, NAV_GROUPS } from "./nav";
import { SIDEBAR_WIDTH, SIDEBAR_WIDTH_ICON, SIDEBAR_WIDTH_MOBILE, useSidebar } from "./sidebar-state";

function NavList({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Primary" className="flex flex-1 flex-col gap-5 overflow-y-auto px-2 py-3">
      {NAV_GROUPS.map((group) => (
        <div key={group.label} role="group" aria-labelledby={`nav-${group.label}`}>
          <p
            id={`nav-${group.label}`}
            className={cn(
              "mb-1 px-2 text-xs font-medium tracking-wide text-muted-foreground uppercase",
              collapsed && "sr-only",
            )}
          >
            {group.label}
          </p>
          <ul className="grid gap-0.5">
            {group.items.map((item) => {
              const active = isActive(item, pathname);
              const link = (
                <Link
                  to={item.to}
                  onClick={onNavigate}
                  aria-current={active ? "page" : undefined}
                  data-active={active || undefined}
                  className={cn(
                    "flex h-9 items-center gap-3 rounded-md px-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-foreground",
                    active && "bg-primary/10 text-foreground hover:bg-primary/15",
                    collapsed && "justify-center px-0",
                  )}
                >
                  <item.icon aria-hidden="true" className={cn("size-4 shrink-0", active && "text-primary")} />
                  <span className={cn("truncate", collapsed && "sr-only")}>{item.label}</span>
                </Link>
              );
              return (
                <li key={item.to}>
                  {collapsed ? (
                    <Tooltip>
                      <TooltipTrigger asChild>{link}</TooltipTrigger>
                      <TooltipContent side="right">{item.label}</TooltipContent>
                    </Tooltip>
                  ) : (
                    link
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}

function Brand({ collapsed }: { collapsed: boolean }) {
  return (
    <Link
      to="/"
      className={cn("flex h-14 shrink-0 items-center gap-2 border-b px-4 font-semibold tracking-tight", collapsed && "justify-center px-0")}
    >
      <span className="inline-flex size-7 shrink-0 items-center justify-center rounded-md bg-primary text-primary-foreground">
        <Scale aria-hidden="true" className="size-4" />
      </span>
      <span className={cn(collapsed && "sr-only")}>Fairbalance</span>
    </Link>
  );
}

/**
 * The app's sidebar: a column of 16rem that collapses to 3rem of icons on
 * desktop, and a slide-in sheet of 18rem under 768 px.
 */
export function AppSidebar() {
  const { open, isMobile, openMobile, setOpenMobile } = useSidebar();

  if (isMobile) {
    return (
      <Sheet open={openMobile} onOpenChange={setOpenMobile}>
        <SheetContent side="left" data-testid="sidebar-sheet" style={{ width: SIDEBAR_WIDTH_MOBILE }}>
          <SheetTitle className="sr-only">Navigation</SheetTitle>
          <SheetDescription className="sr-only">Go to another area of Fairbalance.</SheetDescription>
          <Brand collapsed={false} />
          <NavList
            collapsed={false}
            onNavigate={() => {
              setOpenMobile(false);
            }}
          />
        </SheetContent>
      </Sheet>
    );
  }

  const collapsed = !open;
  return (
    <aside
      data-testid="sidebar"
      data-state={collapsed ? "collapsed" : "expanded"}
      style={{ width: collapsed ? SIDEBAR_WIDTH_ICON : SIDEBAR_WIDTH }}
      className="sticky top-0 hidden h-dvh shrink-0 flex-col border-r bg-card transition-[width] duration-200 ease-out motion-reduce:transition-none md:flex"
    >
      <Brand collapsed={collapsed} />
      <NavList collapsed={collapsed} />
    </aside>
  );
}

/** The button that collapses the sidebar (desktop) or opens the sheet (mobile). */
export function SidebarTrigger() {
  const { toggle, open, isMobile, openMobile } = useSidebar();
  const expanded = isMobile ? openMobile : open;
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <button
          type="button"
          onClick={toggle}
          aria-label="Toggle sidebar"
          aria-expanded={expanded}
          className="inline-flex size-9 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-foreground"
        >
          <PanelLeft aria-hidden="true" className="size-4" />
        </button>
      </TooltipTrigger>
      <TooltipContent>
        Toggle sidebar <kbd className="ml-1 font-mono">Ctrl/⌘ B</kbd>
      </TooltipContent>
    </Tooltip>
  );
}
