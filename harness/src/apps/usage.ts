import { readings } from "../core/readings";
import type { AppChannel } from "./channel";
import { procParents, procThreads, procUsage, type ThreadsUsage } from "./usage-proc";
import { psParents, psUsage } from "./usage-ps";
import { type ProcessUsage, sumUsage, treeOf } from "./usage-types";

export { clockTickMs, THREAD_KINDS, type ThreadKind, type ThreadsUsage } from "./usage-proc";
export type { ProcessUsage } from "./usage-types";

/**
 * The seam: what a process has used (CPU time, resident memory, threads), its worker processes, and
 * the load generator's own CPU, from the source this platform has (core/readings.ts decides):
 *   - "proc" (Linux): /proc, synchronously, about 50 µs a reading;
 *   - "portable" (macOS, or WORKBOOK_READINGS=portable): a Node app's own counters through its
 *     probe (process.cpuUsage, RSS: the same figures as /proc to 0.1 %), `ps` for threads, for a
 *     server's workers and for processes without the probe (apps/usage-ps.ts);
 *   - "none": nothing (every reading null).
 * Every reading is async (the probe and ps answer later), and null when it cannot be taken; never 0.
 */

/** A process to read: its pid, and, for a Node app, its probe (the portable source of its CPU time and memory). */
export interface Measured {
  pid: number;
  /** OPTIONAL: the app's probe channel (apps/channel.ts); without it, ps is read. */
  channel?: AppChannel | null;
}

/** Options of a reading. */
export interface ReadOptions {
  /** Count threads too. OPTIONAL, default true; false saves a `ps` (portable readings) where threads are not wanted. */
  threads?: boolean;
}

const asMeasured = (p: number | Measured): Measured => (typeof p === "number" ? { pid: p } : p);

/** A process's CPU time, memory and threads now; null when it is gone or this platform cannot tell. */
export async function readUsage(p: number | Measured, opts: ReadOptions = {}): Promise<ProcessUsage | null> {
  const m = asMeasured(p);
  return readTreeUsage(m, [m.pid], opts);
}

/**
 * A process and its descendants (a server that forks workers, node:cluster, is all of them), from a
 * scan of /proc or from `ps -A`. Just [pid] where neither can be read.
 */
export async function processTree(pid: number): Promise<number[]> {
  const mode = readings().mode;
  if (mode === "none") return [pid];
  const parents = mode === "proc" ? procParents() : await psParents();
  return parents ? treeOf(pid, parents) : [pid];
}

/** What the app's probe says it has used, or null when it has none or does not answer. */
async function probeUsage(m: Measured): Promise<ProcessUsage | null> {
  const channel = m.channel;
  if (!channel?.socket || (channel.pid !== null && channel.pid !== m.pid)) return null;
  const v = await channel.request<{ cpuUs: number; rssBytes: number }>("usage", {}, 2000).catch(() => null);
  return v ? { cpuMs: v.cpuUs / 1000, rssMB: v.rssBytes / 2 ** 20, threads: null } : null;
}

/**
 * What a set of processes (processTree of `app`) has used together: CPU time, resident memory and
 * threads summed; null when none is readable. With portable readings, one process with a probe is
 * read through it (threads from ps), and several (workers have no probe) through one `ps`.
 */
export async function readTreeUsage(
  app: number | Measured,
  pids: readonly number[],
  opts: ReadOptions = {},
): Promise<ProcessUsage | null> {
  const mode = readings().mode;
  if (mode === "none" || pids.length === 0) return null;
  if (mode === "proc") return sumUsage(pids.map(procUsage));
  const m = asMeasured(app);
  const alone = pids.length === 1 && pids[0] === m.pid;
  const probed = alone ? await probeUsage(m) : null;
  if (probed && opts.threads === false) return probed;
  const listed = await psUsage(pids, { threads: opts.threads });
  if (probed) return { ...probed, threads: listed?.get(m.pid)?.threads ?? null };
  return listed ? sumUsage(pids.map((p) => listed.get(p) ?? null)) : null;
}

/**
 * CPU time of this process's main thread, ms: the load generator's own share (autocannon and the
 * paced loads run on it), without the live chart's renderer thread. Node's own counter
 * (process.threadCpuUsage: 1 µs resolution, agrees with /proc's task stat to its 10 ms tick), so
 * every platform has it; null with WORKBOOK_READINGS=none.
 */
export function generatorCpuMs(): number | null {
  if (readings().mode === "none") return null;
  const u = process.threadCpuUsage ? process.threadCpuUsage() : process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * A process's threads' CPU by kind (main, libuv's pool, worker_threads, V8's helpers, the rest), and
 * the cores it may use, now: Linux's /proc names each thread; null with any other readings (a
 * platform without /proc cannot tell one thread's CPU from another's) or when the process is gone.
 */
export function readThreads(pid: number): ThreadsUsage | null {
  return readings().mode === "proc" ? procThreads(pid) : null;
}
