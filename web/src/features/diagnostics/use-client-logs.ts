import { useMemo, useSyncExternalStore } from "react";
import { errorLog, performanceLog, subscribeLogs } from "@/lib/logger";

// A change counter is the snapshot: errorLog() and performanceLog() parse
// local storage into new arrays on every call, which useSyncExternalStore
// would take for a change on every render.
let version = 0;
function subscribe(onChange: () => void): () => void {
  return subscribeLogs(() => {
    version++;
    onChange();
  });
}
function snapshot(): number {
  return version;
}

/** The client error log and performance log, newest first, kept up to date as entries are logged. */
export function useClientLogs() {
  const v = useSyncExternalStore(subscribe, snapshot, snapshot);
  // v is the dependency that tells the logs changed.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const errors = useMemo(() => errorLog(), [v]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const performance = useMemo(() => performanceLog(), [v]);
  return { errors, performance };
}
