// The daemon's one way to wait: a timer that a stop (SIGTERM) ends at once.

/**
 * Sleeps, or returns early when the daemon is told to stop, including before the pause began (a SIGTERM
 * during an apply must not wait out a 30-second backoff). The listener goes with the pause: the daemon's
 * one signal outlives every pause.
 */
export function pause(ms, signal) {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(undefined);
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve(undefined);
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
