import type { AuditEntry, AuditMember } from "./api";
import { actorLabel } from "./actors";

/** An entry's actor: name on the first line, e-mail under it. */
export function ActorName({ entry, members }: { entry: Pick<AuditEntry, "actor_id" | "actor_email">; members: Map<string, AuditMember> }) {
  const { name, email } = actorLabel(entry, members);
  return (
    <div className="min-w-0">
      <div className="truncate font-medium" title={name}>
        {name}
      </div>
      {email ? (
        <div className="truncate text-xs text-muted-foreground" title={email}>
          {email}
        </div>
      ) : null}
    </div>
  );
}
