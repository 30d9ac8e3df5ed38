import { initials } from "@/lib/person";
import { cn } from "@/lib/utils";
import { Avatar, AvatarFallback, AvatarImage } from "./avatar";

/**
 * A member's picture, or their initials while there is none or it cannot
 * load. The initials come from the member's full name and e-mail (see
 * lib/person initials), never from a name already shortened for display,
 * so a person has the same initials on every screen. Decorative: the name
 * is always written next to it.
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
