/**
 * The kinds of a loop's busy time (busy.ts counts them) and how a verdict names them.
 */
export type BusyKind = "gc" | "regex" | "syncIo" | "native" | "app" | "dependency" | "framework" | "node";
export const BUSY_KINDS: readonly BusyKind[] = [
  "gc",
  "regex",
  "syncIo",
  "native",
  "app",
  "dependency",
  "framework",
  "node",
];
/** The kinds that are the cost of serving a request: set against the reference's (yardstick.ts), not a problem in themselves. */
export const HANDLING: readonly BusyKind[] = ["framework", "node"];
/** The kinds that block a saturated loop past BLOCKING_SHARE: all but request handling and GC (GC_SHARE's). */
export const BLOCKING: readonly BusyKind[] = BUSY_KINDS.filter((k) => k !== "gc" && !HANDLING.includes(k));

/** How each kind reads in a verdict. */
export const BUSY_NAMES: Record<BusyKind, string> = {
  gc: "garbage collection",
  regex: "a regular expression",
  syncIo: "synchronous I/O",
  native: "Node's crypto and zlib calls",
  app: "the app's own code",
  dependency: "a dependency's code",
  framework: "the web framework's request handling",
  node: "Node's own request handling",
};
