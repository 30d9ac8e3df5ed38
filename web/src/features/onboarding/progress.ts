import { useSyncExternalStore } from "react";

/**
 * How far an admin has come through onboarding, kept in this browser so a
 * reload resumes the wizard where it was: once step 1 has created and
 * joined the organisation the member's profile has an organisation, which
 * alone would open the app and skip the Team step. Cleared when the wizard
 * finishes (or is skipped).
 */
export interface OnboardingProgress {
  /** The organisation step 1 created. */
  orgId: string;
  /** "team": step 2 is next; "done": its invitations were recorded (their links are shown once). */
  step: "team" | "done";
}

const PREFIX = "fairbalance.onboarding.";
const listeners = new Set<() => void>();
// useSyncExternalStore compares snapshots by identity: the raw stored text is the snapshot.
const readRaw = (userId: string): string | null => {
  try {
    return window.localStorage.getItem(PREFIX + userId);
  } catch {
    return null;
  }
};

function parse(raw: string | null): OnboardingProgress | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<OnboardingProgress> | null;
    if (typeof value?.orgId === "string" && value.orgId !== "" && (value.step === "team" || value.step === "done")) {
      return { orgId: value.orgId, step: value.step };
    }
  } catch {
    // unreadable: as if none
  }
  return null;
}

function notify() {
  for (const l of listeners) l();
}

/** The onboarding of `userId` in progress in the organisation `orgId`, or null. */
export function readOnboarding(userId: string, orgId: string | null | undefined): OnboardingProgress | null {
  const progress = parse(readRaw(userId));
  return progress && orgId && progress.orgId === orgId ? progress : null;
}

/** Records how far `userId` has come. */
export function saveOnboarding(userId: string, progress: OnboardingProgress): void {
  try {
    window.localStorage.setItem(PREFIX + userId, JSON.stringify(progress));
  } catch {
    // storage refused: a reload then opens the app, as without this record
  }
  notify();
}

/** Forgets it: onboarding is finished. */
export function clearOnboarding(userId: string): void {
  try {
    window.localStorage.removeItem(PREFIX + userId);
  } catch {
    // nothing to forget
  }
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** {@link readOnboarding}, kept current for the screens that show it. */
export function useOnboarding(userId: string | undefined, orgId: string | null | undefined): OnboardingProgress | null {
  const raw = useSyncExternalStore(subscribe, () => (userId ? readRaw(userId) : null));
  const progress = parse(raw);
  return progress && orgId && progress.orgId === orgId ? progress : null;
}
