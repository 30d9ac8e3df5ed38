import { Badge } from "@/components/ui/badge";
import { NotificationBell } from "@/features/notifications/notification-bell";
import { useAuth } from "@/lib/auth";
import { cn } from "@/lib/utils";
import { DemoRoleSwitcher } from "./demo-switcher";
import { SidebarTrigger } from "./sidebar";
import { UserMenu } from "./user-menu";

/**
 * The bar above every screen: sidebar toggle, product name, mode badges,
 * the notification bell and the user menu.
 */
export function TopBar() {
  const { preview, demo, user } = useAuth();
  return (
    <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center gap-2 border-b bg-card/90 px-3 backdrop-blur supports-[backdrop-filter]:bg-card/75 sm:px-4">
      <SidebarTrigger />
      {/* With the preview's two badges a phone has no room for the name too; the banner above says what this is. */}
      <span className={cn("text-sm font-semibold tracking-tight", preview && demo && "max-[419px]:sr-only")}>Fairbalance</span>
      {preview ? (
        <Badge variant="amber" data-testid="preview-badge">
          PREVIEW
        </Badge>
      ) : null}
      {demo ? (
        <Badge variant="blue" data-testid="demo-badge">
          Demo Mode
        </Badge>
      ) : null}
      <div className="ml-auto flex items-center gap-2">
        {demo ? <DemoRoleSwitcher /> : null}
        {user ? <NotificationBell /> : null}
        {user ? <UserMenu /> : null}
      </div>
    </header>
  );
}

/** The preview banner and the small corner badge (spec: preview mode). */
export function PreviewBanner() {
  return (
    <div
      role="status"
      className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-center text-sm font-medium text-amber-950 dark:border-amber-900 dark:bg-amber-950/60 dark:text-amber-100"
    >
      Preview Mode — authentication disabled; data is demo
    </div>
  );
}

export function PreviewCornerBadge() {
  return (
    <div className="pointer-events-none fixed right-3 bottom-3 z-40 rounded-full bg-amber-500 px-3 py-1 text-xs font-semibold text-amber-950 shadow-lg">
      Preview Mode
    </div>
  );
}
