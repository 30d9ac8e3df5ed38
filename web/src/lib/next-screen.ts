/**
 * Getting the next screen's code ready before going to it, so that it
 * renders at once instead of showing a spinner for each part that is still
 * loading (the shell, then the screen). Features may not import the app's
 * screens, so the app registers how to load them, and a screen that is about
 * to hand over — the sign-in screen once the account is signed in — asks for
 * what comes next.
 */

/** Where the app goes next, and what decides which screens that shows. */
export interface NextScreen {
  /** The path about to be opened. */
  path: string;
  /**
   * The member's profile when known: without an organisation the shell
   * shows onboarding (an admin) or the no-workspace page instead of `path`.
   */
  profile?: { org_id: string | null; role: string } | null;
}

type Preparer = (next: NextScreen) => Promise<unknown>;

let preparer: Preparer | undefined;

/** Registers how the app loads the code of its screens (the app's entry does, once). */
export function setScreenPreparer(fn: Preparer): void {
  preparer = fn;
}

/**
 * Loads the code of the screens `next` shows (once it is known, when a
 * promise). Never rejects — what fails to load is reported when its screen
 * renders — and stops waiting after `timeoutMs`, so a slow network delays
 * the hand-over by that much at most.
 */
export function prepareNextScreen(next: NextScreen | Promise<NextScreen>, timeoutMs = 5000): Promise<void> {
  const work = Promise.resolve(next)
    .then((n) => preparer?.(n))
    .then(
      () => undefined,
      () => undefined,
    );
  let timer: number | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = window.setTimeout(resolve, timeoutMs);
  });
  return Promise.race([work, timeout]).finally(() => {
    window.clearTimeout(timer);
  });
}
