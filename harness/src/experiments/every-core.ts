import fs from "node:fs";
import path from "node:path";
import { WorkbookError } from "../core/errors";

/**
 * Notebook 07's reading of apps/every-core: the figures each of its processes writes about itself
 * (STATS_DIR/<pid>.json), and the worker counts a machine's server cores call for.
 */
export interface ProcessStats {
  mode: "single" | "cluster" | "reuseport";
  /** "single": the one process; "primary": the process that started the workers (it answers nothing). */
  role: "single" | "primary" | "worker";
  pid: number;
  /** GET /json requests it answered. */
  requests: number;
  /** CPU time over its life (user + system), ms. */
  cpuMs: number;
  rssMB: number;
}

/**
 * Every process's last figures in `dir`, the primary first (`role`: "single", "primary" or "worker").
 * `apps/every-core/server.js` runs as one process (`MODE=single`), a `node:cluster` of `WORKERS`
 * workers, or `WORKERS` processes listening with `reusePort`; with `STATS_DIR` each process writes its
 * own figures there (`<pid>.json`, every 200 ms and as it exits). A folder with none throws
 * `WB_NO_REPORT` naming the folder.
 *
 * @example
 * const spread = lesson.spreading(lesson.readProcessStats(dir));
 */
export function readProcessStats(dir: string): ProcessStats[] {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /^\d+\.json$/.test(f)) : [];
  if (files.length === 0) {
    throw new WorkbookError(
      "WB_NO_REPORT",
      `no process of apps/every-core wrote its figures to ${dir}: was the app started with STATS_DIR=${dir}, and did it run?`,
    );
  }
  const order = { primary: 0, single: 1, worker: 2 };
  return files
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as ProcessStats)
    .sort((a, b) => order[a.role] - order[b.role] || a.pid - b.pid);
}

/** How one server's work and memory spread over its processes. */
export interface Spreading {
  /** Processes that answer requests. */
  workers: number;
  /** Requests they answered together. */
  requests: number;
  /** The smallest and largest worker's share of the requests (1/workers each when even). */
  minShare: number;
  maxShare: number;
  /** The primary's share of the server's CPU time (0 without a primary). */
  primaryCpuShare: number;
  /** The primary's own CPU time, ms (0 without one). */
  primaryCpuMs: number;
  /** RSS of every process summed, of the primary (0 without one), and of the median worker, MB. */
  rssTotalMB: number;
  rssPrimaryMB: number;
  rssWorkerMB: number;
}

/**
 * The processes' figures summed up: `workers`, `requests`, the busiest and idlest worker's share
 * (`maxShare`, `minShare`), the primary's CPU and its share of the server's (`primaryCpuMs`,
 * `primaryCpuShare`), and RSS in all, of the primary and of the median worker.
 */
export function spreading(stats: readonly ProcessStats[]): Spreading {
  const workers = stats.filter((s) => s.role !== "primary");
  if (workers.length === 0) throw new WorkbookError("WB_BAD_OPTION", "spreading: no process that answers requests");
  const primary = stats.find((s) => s.role === "primary");
  const requests = workers.reduce((a, s) => a + s.requests, 0);
  const shares = workers.map((s) => (requests > 0 ? s.requests / requests : 0));
  const cpu = stats.reduce((a, s) => a + s.cpuMs, 0);
  const rss = workers.map((s) => s.rssMB).sort((a, b) => a - b);
  return {
    workers: workers.length,
    requests,
    minShare: Math.min(...shares),
    maxShare: Math.max(...shares),
    primaryCpuShare: primary && cpu > 0 ? primary.cpuMs / cpu : 0,
    primaryCpuMs: primary?.cpuMs ?? 0,
    rssTotalMB: stats.reduce((a, s) => a + s.rssMB, 0),
    rssPrimaryMB: primary?.rssMB ?? 0,
    rssWorkerMB: rss[Math.floor((rss.length - 1) / 2)],
  };
}

/**
 * The worker counts to measure on `serverCores` cores: 1, 2, 4 ... up to the cores, then twice the
 * cores (more workers than cores). One core: [1, 2]; four: [1, 2, 4, 8]; six: [1, 2, 4, 6, 12].
 */
export function workerLevels(serverCores: number): number[] {
  if (!Number.isInteger(serverCores) || serverCores < 1) {
    throw new WorkbookError(
      "WB_BAD_OPTION",
      `workerLevels: serverCores must be a whole number >= 1, got ${serverCores}`,
    );
  }
  const levels: number[] = [];
  for (let n = 1; n < serverCores; n *= 2) levels.push(n);
  levels.push(serverCores, serverCores * 2);
  return [...new Set(levels)];
}
