import { initials } from "@/lib/roles";
import { cn } from "@/lib/utils";
import { Avatar, AvatarFallback, AvatarImage } from "./avatar";

/**
 * A member's picture, or their initials (up to two letters of the name, or
 * of the e-mail's local part) while there is none or it cannot load.
 * Decorative: the name is always written next to it.
 */
export function MemberAvatar({
  name,
  email,
  src,
  className,
  fallbackClassName,
}: {
  name?: string | null;
  email?: string | null;
  src?: string | null;
  className?: string;
  fallbackClassName?: string;
}) {
  return (
    <Avatar className={cn("size-9", className)}>
      {src ? <AvatarImage src={src} alt="" /> : null}
      <AvatarFallback className={fallbackClassName}>{initials(name, email)}</AvatarFallback>
    </Avatar>
  );
}
