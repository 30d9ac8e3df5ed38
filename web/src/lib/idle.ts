/**
 * Runs `fn` when the browser is next idle, or after `timeoutMs` at the
 * latest; where requestIdleCallback is missing, after a short delay.
 * Returns a function that cancels it.
 */
export function whenIdle(fn: () => void, timeoutMs: number): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const id = window.requestIdleCallback(fn, { timeout: timeoutMs });
    return () => {
      window.cancelIdleCallback(id);
    };
  }
  const id = window.setTimeout(fn, Math.min(timeoutMs, 200));
  return () => {
    window.clearTimeout(id);
  };
}

let firstShown = false;
const waiting = new Set<() => void>();

/**
 * Called by a screen once its main content is on screen (Asset detail: page
 * 1 of the PDF). Work deferred with {@link afterFirstScreen} starts then.
 */
export function firstScreenShown(): void {
  if (firstShown) return;
  firstShown = true;
  const ready = [...waiting];
  waiting.clear();
  for (const fn of ready) fn();
}

/**
 * Runs `fn` once the first screen has said it is shown and the browser is
 * idle, or after `timeoutMs` in any case (screens that never say so).
 * Returns a function that cancels it.
 */
export function afterFirstScreen(fn: () => void, timeoutMs: number): () => void {
  let done = false;
  let cancelIdle: (() => void) | undefined;
  const once = () => {
    if (done) return;
    done = true;
    window.clearTimeout(timer);
    waiting.delete(onShown);
    cancelIdle?.();
    fn();
  };
  const onShown = () => {
    cancelIdle = whenIdle(once, 500);
  };
  const timer = window.setTimeout(once, timeoutMs);
  if (firstShown) onShown();
  else waiting.add(onShown);
  return () => {
    done = true;
    window.clearTimeout(timer);
    waiting.delete(onShown);
    cancelIdle?.();
  };
}

/**
 * Runs `fn` once the browser has produced the next frame: an animation-frame
 * callback runs just before a frame is rendered, and a task it posts runs
 * after that rendering is done. What a screen changed before this call is
 * then on screen, and work started in `fn` no longer holds that frame back.
 */
export function afterNextFrame(fn: () => void): void {
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      fn();
    };
    channel.port2.postMessage(null);
  });
}
