import { X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import { formatBytes } from "@/lib/content-types";
import type { UploadState } from "./use-upload";

/** The progress bar of an upload in flight: percent, bytes, and Cancel. */
export function UploadProgress({ state, fileName, onCancel }: { state: UploadState; fileName: string; onCancel: () => void }) {
  const percent = state.total > 0 ? Math.min(100, Math.round((state.loaded / state.total) * 100)) : 0;
  return (
    <div className="grid gap-2 rounded-lg border bg-muted/30 p-3" data-testid="upload-progress">
      <div className="flex items-center justify-between gap-3 text-sm">
        <span className="min-w-0 truncate font-medium">Uploading {fileName}</span>
        <Button variant="ghost" size="sm" onClick={onCancel}>
          <X aria-hidden="true" />
          Cancel upload
        </Button>
      </div>
      <Progress value={percent} aria-label={`Upload of ${fileName}`} aria-valuetext={`${percent}%`} />
      <p className="flex justify-between text-xs text-muted-foreground tabular-nums" aria-live="polite">
        <span>{percent}%</span>
        <span>
          {formatBytes(state.loaded)} of {formatBytes(state.total)}
        </span>
      </p>
    </div>
  );
}
