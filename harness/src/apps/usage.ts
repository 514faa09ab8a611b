import { execFileSync } from "node:child_process";
import fs from "node:fs";

/**
 * What a process has used, from its own counters: CPU time (user + system, all threads, since it
 * started), resident memory and threads. On Linux these are read from /proc, synchronously and in
 * microseconds of cost, so a load test reads them at the edges of every second. Elsewhere the
 * figures are null and the harness says so instead of guessing.
 */
export interface ProcessUsage {
  /** CPU time used since the process started, in ms (clock-tick resolution: 10 ms on most Linux). */
  cpuMs: number;
  rssMB: number;
  threads: number;
}

let tickMs: number | null | undefined;

/** Milliseconds per clock tick (the unit of /proc/<pid>/stat's CPU times), or null where there is no /proc. */
export function clockTickMs(): number | null {
  if (tickMs !== undefined) return tickMs;
  try {
    tickMs = 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
    if (!Number.isFinite(tickMs) || !fs.existsSync("/proc/self/stat")) tickMs = null;
  } catch {
    tickMs = null;
  }
  return tickMs;
}

/** utime + stime of /proc/<pid>/stat (or of one thread's task/<tid>/stat), in ms; null when unreadable. */
function statCpuMs(file: string): number | null {
  const tick = clockTickMs();
  if (tick === null) return null;
  try {
    const text = fs.readFileSync(file, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * tick; // fields 14 and 15 of proc(5)
  } catch {
    return null;
  }
}

/** A process's CPU time, memory and threads now; null when it is gone or the platform has no /proc. */
export function readUsage(pid: number): ProcessUsage | null {
  const cpuMs = statCpuMs(`/proc/${pid}/stat`);
  if (cpuMs === null) return null;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
    const threads = Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
    return { cpuMs, rssMB: rssKb / 1024, threads };
  } catch {
    return null;
  }
}

/**
 * CPU time of this process's main thread, in ms: the load generator's own share (autocannon and the
 * paced loads run on it), without the live chart's renderer thread. Falls back to the whole process
 * (process.cpuUsage) where there is no /proc.
 */
export function generatorCpuMs(): number {
  const own = statCpuMs(`/proc/${process.pid}/task/${process.pid}/stat`);
  if (own !== null) return own;
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** The parent pid of a process (field 4 of /proc/<pid>/stat); null when unreadable. */
function parentOf(pid: number): number | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(text.slice(text.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return null;
  }
}

/**
 * A process and its descendants, from a scan of /proc (this kernel may lack /proc/<pid>/task/<tid>/children):
 * a server that forks workers (node:cluster, a process per core) is all of them. Just [pid] where
 * there is no /proc.
 */
export function processTree(pid: number): number[] {
  let pids: number[];
  try {
    pids = fs
      .readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [pid];
  }
  const children = new Map<number, number[]>();
  for (const p of pids) {
    const parent = parentOf(p);
    if (parent === null) continue;
    const siblings = children.get(parent);
    if (siblings) siblings.push(p);
    else children.set(parent, [p]);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/**
 * What a set of processes (processTree) has used together: CPU time, resident memory and threads
 * summed (RSS counts a page shared by two processes twice, as `ps` does); null when none is readable.
 */
export function readTreeUsage(pids: readonly number[]): ProcessUsage | null {
  const each = pids.map(readUsage).filter((u): u is ProcessUsage => u !== null);
  if (each.length === 0) return null;
  return {
    cpuMs: each.reduce((a, u) => a + u.cpuMs, 0),
    rssMB: each.reduce((a, u) => a + u.rssMB, 0),
    threads: each.reduce((a, u) => a + u.threads, 0),
  };
}
