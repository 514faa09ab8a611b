// Notebook 02's own helpers (the shared harness, `wb`, keeps what two notebooks use).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import * as wb from "@workbook/harness";

const median = (xs: number[]) => (xs.length ? wb.spread(xs).median : null);

/** Per row of a remedies table: where the time went, medians over the measured runs. */
export interface RowFigures {
  /** The app's own event-loop delay at p99, above the monitor's resolution, ms. */
  loopDelayP99Ms: number | null;
  /** How late the generator (this process) sent /cheap at p99, ms: part of every /cheap latency. */
  generatorLateP99Ms: number;
  /** CPU time per answered request on the main thread, and on every other thread of the process, µs. */
  mainThreadUs: number | null;
  otherThreadsUs: number | null;
}

export function rowFigures(r: wb.ContentionResult): RowFigures {
  const delays: number[] = [];
  const main: number[] = [];
  const other: number[] = [];
  for (const run of r.runs) {
    const m = run.metrics;
    const answers = run.cheap.totalRequests + (run.background?.totalRequests ?? 0);
    if (m && m.histogram.p99 !== null) delays.push(Math.max(0, m.histogram.p99 - m.resolutionMs));
    if (m?.cpu && m.cpu.mainThreadMs !== null && answers > 0) {
      main.push((m.cpu.mainThreadMs * 1000) / answers);
      other.push(((m.cpu.processMs - m.cpu.mainThreadMs) * 1000) / answers);
    }
  }
  return {
    loopDelayP99Ms: median(delays),
    generatorLateP99Ms: median(r.runs.map((run) => run.cheap.sendLagMs.p99)) ?? 0,
    mainThreadUs: median(main),
    otherThreadsUs: median(other),
  };
}

/**
 * Why threads cannot be moved one by one here, or null when they can: it takes Linux (each thread's
 * name in /proc/<pid>/task/<tid>/comm), `taskset`, and the workbook's pinning on (a core to move to).
 */
export function threadMoveUnavailable(): string | null {
  if (process.platform !== "linux" || !fs.existsSync("/proc/self/task")) return "it needs Linux's /proc";
  if (!wb.pinning().enabled) return `apps are not pinned here (${wb.pinning().reason})`;
  return null;
}

/** The ids of a process's threads named `name` (e.g. "WorkerThread": a worker_threads thread on Node). */
export function threadIds(pid: number, name: string): number[] {
  const dir = `/proc/${pid}/task`;
  return fs
    .readdirSync(dir)
    .filter((tid) => fs.readFileSync(`${dir}/${tid}/comm`, "utf8").trim() === name)
    .map(Number);
}

/**
 * Move an app's threads named `name` to `cpus` (taskset's syntax), leaving its other threads where
 * they are; returns the command lines that did it. Throws when there is no such thread.
 */
export function moveThreads(app: wb.AppHandle, name: string, cpus: string): string[] {
  const tids = threadIds(app.pid, name);
  if (tids.length === 0) throw new Error(`${app.name} (pid ${app.pid}) has no thread named ${name}`);
  return tids.map((tid) => {
    execFileSync("taskset", ["-p", "-c", cpus, String(tid)], { stdio: "ignore" });
    return `taskset -p -c ${cpus} ${tid}   # ${name} of pid ${app.pid}`;
  });
}
