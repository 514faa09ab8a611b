import { execFileSync } from "node:child_process";
import fs from "node:fs";
import type { ProcessUsage } from "./usage-types";

/**
 * Linux's readings, from /proc: a process's CPU time, resident memory and threads, synchronously and
 * in about 50 µs a reading (measured: harness README, "Platform readings"), and the process tree.
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

/** The fields of /proc/<pid>/stat after the command name (field 3 of proc(5) first); null when unreadable. */
function statFields(pid: number): string[] | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
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
