import { AlertTriangle } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { archiveAsset, type Asset } from "@/entities/assets";
import { describeServerError, type ServerProblem } from "@/lib/server-error";

function ProblemAlert({ problem }: { problem: ServerProblem | null }) {
  if (!problem) return null;
  return (
    <Alert variant="destructive">
      <AlertTriangle aria-hidden="true" />
      <AlertTitle>{problem.message}</AlertTitle>
      {problem.detail ? <AlertDescription>{problem.detail}</AlertDescription> : null}
    </Alert>
  );
}

/** Asks before archiving: an archived asset cannot change any more. */
export function ArchiveDialog({
  asset,
  open,
  onOpenChange,
  onArchived,
}: {
  asset: Asset;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onArchived: () => void | Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ServerProblem | null>(null);
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!o) setProblem(null);
        onOpenChange(o);
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Archive “{asset.title}”?</DialogTitle>
          <DialogDescription>
            An archived asset keeps its versions and history for the record, but nobody can add versions or change it any more.
          </DialogDescription>
        </DialogHeader>
        <ProblemAlert problem={problem} />
        <DialogFooter>
          <Button
            variant="outline"
            onClick={() => {
              onOpenChange(false);
            }}
          >
            Cancel
          </Button>
          <Button
            variant="destructive"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              setProblem(null);
              archiveAsset(asset.id)
                .then(async () => {
                  toast.success("Asset archived");
                  await onArchived();
                  onOpenChange(false);
                })
                .catch((error: unknown) => {
                  setProblem(describeServerError(error, "The asset could not be archived."));
                })
                .finally(() => {
                  setBusy(false);
                });
            }}
          >
            {busy ? "Archiving…" : "Archive asset"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
