/** Waiting, the one way the harness does it. */

/** Resolves after `ms` milliseconds (at once for 0 or less). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** `promise`'s value, or `fallback` once `ms` have passed first. The timer never keeps the process alive. */
export function within<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), Math.max(0, ms));
    timer.unref();
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
