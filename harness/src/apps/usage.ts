import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { cpuList } from "../core/pinning";

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

/**
 * What a process's threads do, by the names Node gives them (/proc/<pid>/task/<tid>/comm, Node 26):
 *   main     the main thread (tid = pid): the event loop, the app's JavaScript;
 *   pool     libuv's thread pool ("libuv-worker"): async fs, crypto (pbkdf2, scrypt...), zlib, dns.lookup;
 *   workers  worker_threads ("WorkerThread");
 *   v8       V8's helper threads ("node-V8Worker"): parallel and concurrent GC, background compilers;
 *   other    the rest (the inspector's, the delayed-task scheduler...).
 */
export type ThreadKind = "main" | "pool" | "workers" | "v8" | "other";
export const THREAD_KINDS: readonly ThreadKind[] = ["main", "pool", "workers", "v8", "other"];

export interface ThreadsUsage {
  /** CPU time each kind of thread has used since it started, ms (clock-tick resolution), summed. */
  cpuMs: Record<ThreadKind, number>;
  /** How many threads of each kind are alive (libuv's pool starts its threads on its first use). */
  count: Record<ThreadKind, number>;
  /** The CPUs the process may run on (Cpus_allowed_list of /proc/<pid>/status): what its threads share. */
  cores: number;
}

const kindOfThread = (tid: number, pid: number, name: string): ThreadKind => {
  if (tid === pid) return "main";
  if (name === "libuv-worker") return "pool";
  if (name === "WorkerThread") return "workers";
  if (name.startsWith("node-V8Worker") || name.startsWith("V8 ")) return "v8";
  return "other";
};

/** A process's threads' CPU by kind, and its cores, now; null where there is no /proc or the process is gone. */
export function readThreads(pid: number): ThreadsUsage | null {
  if (clockTickMs() === null) return null;
  const zero = () => Object.fromEntries(THREAD_KINDS.map((k) => [k, 0])) as Record<ThreadKind, number>;
  const cpuMs = zero();
  const count = zero();
  let tids: number[];
  let cores: number;
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`).map(Number);
    const list = /^Cpus_allowed_list:\s*(\S+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    cores = (list && cpuList(list)?.length) || NaN;
  } catch {
    return null;
  }
  for (const tid of tids) {
    const dir = `/proc/${pid}/task/${tid}`;
    let name: string;
    try {
      name = fs.readFileSync(`${dir}/comm`, "utf8").trim();
    } catch {
      continue; // the thread ended meanwhile
    }
    const ms = statCpuMs(`${dir}/stat`);
    if (ms === null) continue;
    const kind = kindOfThread(tid, pid, name);
    cpuMs[kind] += ms;
    count[kind]++;
  }
  return { cpuMs, count, cores };
}
