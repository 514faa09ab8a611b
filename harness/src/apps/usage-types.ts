/**
 * What a process has used, from its own counters (apps/usage.ts reads it from the source each
 * platform has). A reading is null as a whole when its CPU time cannot be read; memory and threads
 * are null on their own where the source cannot give them.
 */
export interface ProcessUsage {
  /** CPU time (user + system, all threads) since the process started, ms. Resolution: 10 ms from /proc, 1 µs from the probe, 1 s from Linux's ps, 10 ms from macOS's. */
  cpuMs: number;
  /** Resident memory, MB (MiB); null where the source has none. */
  rssMB: number | null;
  /** Threads; null where the source has none (the probe: Node cannot count its own threads). */
  threads: number | null;
}

/** The parent of every process, to find a server's workers (pid -> parent pid). */
export type ParentMap = Map<number, number>;

/** Descendants of `pid` (itself first) in a map of parents. */
export function treeOf(pid: number, parents: ParentMap): number[] {
  const children = new Map<number, number[]>();
  for (const [p, parent] of parents) {
    const siblings = children.get(parent);
    if (siblings) siblings.push(p);
    else children.set(parent, [p]);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/** Several processes' readings added up (RSS counts a page two processes share twice, as `ps` does); null when none has one. */
export function sumUsage(each: readonly (ProcessUsage | null)[]): ProcessUsage | null {
  const read = each.filter((u): u is ProcessUsage => u !== null);
  if (read.length === 0) return null;
  const sum = (f: (u: ProcessUsage) => number | null) =>
    read.every((u) => f(u) !== null) ? read.reduce((a, u) => a + f(u)!, 0) : null;
  return { cpuMs: sum((u) => u.cpuMs)!, rssMB: sum((u) => u.rssMB), threads: sum((u) => u.threads) };
}
