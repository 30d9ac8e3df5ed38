import { LogOut, Settings, UserRound } from "lucide-react";
import { useNavigate } from "react-router";
import { Badge } from "@/components/ui/badge";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { useProfile } from "@/entities/profile";
import { useAuth } from "@/lib/auth";
import { MemberAvatar } from "@/components/ui/member-avatar";
import { roleBadgeVariant, roleLabel } from "@/lib/roles";

/** Avatar button with the member's name, e-mail and role, and Profile / Settings / Sign out. */
export function UserMenu() {
  const { user } = useAuth();
  const { data: profile } = useProfile();
  const navigate = useNavigate();
  const email = user?.email ?? "";
  const metaName = typeof user?.user_metadata.full_name === "string" ? user.user_metadata.full_name : "";
  const name = [profile?.full_name.trim(), metaName.trim(), email].find((n) => n) ?? "";
  const role = profile?.role ?? "viewer";

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="inline-flex items-center gap-2 rounded-full p-0.5 hover:bg-accent focus-visible:outline-2"
        aria-label={`Account menu for ${name}`}
      >
        <MemberAvatar name={profile?.full_name} email={email} src={profile?.avatar_url} className="size-8" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel className="grid gap-1 py-2">
          <span className="truncate font-semibold" data-testid="user-menu-name" title={name}>
            {name}
          </span>
          <span className="truncate text-xs font-normal text-muted-foreground" title={email}>{email}</span>
          <Badge variant={roleBadgeVariant(role)} className="mt-1 w-fit" data-testid="user-menu-role">
            {roleLabel(role)}
          </Badge>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          onSelect={() => {
            void navigate("/account/profile");
          }}
        >
          <UserRound aria-hidden="true" /> Profile
        </DropdownMenuItem>
        <DropdownMenuItem
          onSelect={() => {
            void navigate("/settings");
          }}
        >
          <Settings aria-hidden="true" /> Settings
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          onSelect={() => {
            void navigate("/logout");
          }}
        >
          <LogOut aria-hidden="true" /> Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
