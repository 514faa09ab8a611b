import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { cpuList } from "../core/pinning";
import type { ProcessUsage } from "./usage-types";

/**
 * Linux's readings, from /proc: a process's CPU time, resident memory and threads, synchronously and
 * in about 50 µs a reading (measured: harness/METHOD.md, "Platform readings"), and the process tree.
 * Used through apps/usage.ts, when the readings are "proc" (core/readings.ts).
 */

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

/**
 * The fields of /proc/<pid>/stat (or of a thread's /proc/<pid>/task/<tid>/stat, given as its folder)
 * after the command name (field 3 of proc(5) first); null when unreadable.
 */
function statFields(of: number | string): string[] | null {
  try {
    const text = fs.readFileSync(`${typeof of === "number" ? `/proc/${of}` : of}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** A process's CPU time (utime + stime, fields 14 and 15), memory and threads now; null when it is gone. */
export function procUsage(pid: number): ProcessUsage | null {
  const tick = clockTickMs();
  const fields = statFields(pid);
  if (tick === null || fields === null) return null;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
    const threads = Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
    return {
      cpuMs: (Number(fields[11]) + Number(fields[12])) * tick,
      rssMB: Number.isFinite(rssKb) ? rssKb / 1024 : null,
      threads: Number.isFinite(threads) ? threads : null,
    };
  } catch {
    return null;
  }
}

/** Every process's parent, from a scan of /proc (this kernel may lack /proc/<pid>/task/<tid>/children); null without /proc. */
export function procParents(): Map<number, number> | null {
  let pids: number[];
  try {
    pids = fs
      .readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return null;
  }
  const parents = new Map<number, number>();
  for (const p of pids) {
    const fields = statFields(p);
    if (fields) parents.set(p, Number(fields[1]));
  }
  return parents;
}

/** utime + stime of one thread's /proc/<pid>/task/<tid>/stat (fields 14 and 15), in ms; null when unreadable. */
function taskCpuMs(dir: string, tick: number): number | null {
  const fields = statFields(dir);
  return fields === null ? null : (Number(fields[11]) + Number(fields[12])) * tick;
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
export function procThreads(pid: number): ThreadsUsage | null {
  const tick = clockTickMs();
  if (tick === null) return null;
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
    const ms = taskCpuMs(dir, tick);
    if (ms === null) continue;
    const kind = kindOfThread(tid, pid, name);
    cpuMs[kind] += ms;
    count[kind]++;
  }
  return { cpuMs, count, cores };
}
