/**
 * The tslab kernel, when the harness runs inside one. tslab keeps two things private that the
 * harness needs: the writer of the running cell (to send one output with several MIME types and
 * update it in place) and the execute handler (to stop what a failing cell started). Both are
 * reached here only, and both are absent outside a kernel (tests, scripts).
 */
// biome-ignore lint/suspicious/noExplicitAny: tslab's internal module has no types; only two members are read
type TslabJupyter = any;

let cached: TslabJupyter | null | undefined;

/**
 * tslab's jupyter module, or null outside a tslab kernel. A kernel has loaded it already; it is only
 * looked up here, never loaded: loading it outside a kernel would load tslab's TypeScript (0.3 s) for
 * nothing (its writer is unset there anyway).
 */
export function tslabJupyter(): TslabJupyter | null {
  if (cached !== undefined) return cached;
  try {
    cached = require.cache[require.resolve("tslab/dist/jupyter")]?.exports ?? null;
  } catch {
    cached = null;
  }
  return cached;
}

/** The writer tslab keeps for the running cell, or null outside a kernel. */
export function cellWriter(): ((data: unknown, update: boolean) => void) | null {
  const writer = tslabJupyter()?.lastWriteDisplayData;
  return typeof writer === "function" ? writer : null;
}

/** True inside a running tslab kernel. */
export function inKernel(): boolean {
  return cellWriter() !== null;
}
