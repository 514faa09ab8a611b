// Notebook 07's own helpers (the shared harness, `wb`, keeps what two notebooks use).
import fs from "node:fs";
import path from "node:path";
import * as wb from "@workbook/harness";

/**
 * An empty folder for one configuration's process counts, under build/07-every-core/ (working files the
 * next cell reads, as notebook 03's compiled apps are; what the notebook keeps goes to its results), as a
 * path from the workbook's folder (the apps run there): the commands printed under a cell then name a
 * folder that is still there, and can be pasted as they are. Whatever an earlier run left in it is removed.
 */
export function statsDir(name: string): string {
  const dir = path.join(wb.repoRoot, "build", "07-every-core", name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return path.relative(wb.repoRoot, dir);
}

/** What an app's processes wrote to a statsDir() folder (a path from the workbook's folder). */
export function readStats(dir: string): ProcessStats[] {
  return readProcessStats(path.resolve(wb.repoRoot, dir));
}

// The published studies that turn on threads (tests/unit/published.test.js, tests/unit/every-core.test.js).

const osgood = (label: string) => wb.published.osgood.rows.find((r) => r.label === label)!.reqPerSec;
const bare = (label: string) => wb.published.elysiaEncore.rows.find((r) => r.label === label)!.bare;
const swift = (name: string) => wb.published.swiftNode.servers.find((r) => r.server === name)!.threads!;

/**
 * The studies that turn on how many threads serve the requests (notebook 07): what each server ran
 * its requests on, and its published req/s where the study gave one, with its machine and where its
 * load generator ran, as each study states them. Only the Elysia-vs-Encore post names its machine's
 * CPU (the Swift study names a 2012 Mac mini, a model sold with two or four cores), and none says how
 * many cores its server had, so no published figure can be divided per core: `perCore` says so
 * rather than guess.
 */
export interface PublishedThreadingRow {
  study: string;
  server: string;
  /** How the server spreads its requests over threads and processes, as the study describes it. */
  threads: string;
  /** The published req/s, null where the study's figure is not quoted in the workbook's sources. */
  reqPerSec: number | null;
  /** The machine it ran on, as the study gives it. */
  machine: string;
  /** Where the load generator ran, as the study states it. */
  generatorRan: string;
  /** True: on the machine it measured; false: on another; null: the study does not say. */
  generatorOnServer: boolean | null;
  /** The cores the server had; null: not published. */
  cores: number | null;
}

const ELYSIA_MACHINE = wb.published.elysiaEncore.machine.split(";")[0]; // the machine, without the versions
const ELYSIA = {
  study: `Elysia vs Encore 2025 (oha -c ${wb.published.elysiaEncore.connections}, bare GET /hello)`,
  machine: ELYSIA_MACHINE,
  generatorRan: wb.published.elysiaEncore.generatorRan,
  generatorOnServer: true,
};
const SWIFT_ROUTES = wb.published.swiftNode.tests.find((t) => t.kind === "routes")!;
const OSGOOD = {
  study: `Osgood 0.2, 2019 (${wb.published.osgood.command})`,
  machine: wb.published.osgood.machine,
  generatorRan: wb.published.osgood.generatorRan,
  generatorOnServer: true,
};

/**
 * The studies that turn on how many threads serve the requests (notebook 07): Elysia on Bun and
 * Encore.ts (2025), Perfect and Zewo (2016), Osgood 0.2 against Node 12.7 (2019). `generatorOnServer`
 * is true, false or null (not stated): Elysia's oha and Osgood's wrk ran on the machine they measured,
 * the Swift study's wrk on a second one. None gives the cores its server had, so `cores` is null
 * throughout and `perCore` returns null for them rather than guess.
 */
export const publishedThreading: readonly PublishedThreadingRow[] = [
  {
    ...ELYSIA,
    server: "Elysia on Bun",
    threads: "JavaScript on one thread, in one process",
    reqPerSec: bare("Elysia"),
    cores: null,
  },
  {
    ...ELYSIA,
    server: "Encore.ts",
    threads: "HTTP handled by a multi-threaded Rust runtime; the handlers' JavaScript in Node",
    reqPerSec: bare("Encore.ts"),
    cores: null,
  },
  ...["Perfect", "Zewo"].map((name) => ({
    study: `${wb.published.swiftNode.title} (${SWIFT_ROUTES.loads[0].command.split(" http")[0]}, /blog and /json)`,
    server: name,
    threads: swift(name),
    reqPerSec: null,
    machine: wb.published.swiftNode.machine,
    generatorRan: SWIFT_ROUTES.generatorRan!,
    generatorOnServer: SWIFT_ROUTES.generatorOnServer,
    cores: null,
  })),
  {
    ...OSGOOD,
    server: "Osgood",
    threads: "JavaScript in V8 isolates inside a Rust server; its req/s rose with the connections",
    reqPerSec: osgood("Osgood 0.2"),
    cores: null,
  },
  {
    ...OSGOOD,
    server: "Node 12.7",
    threads: "JavaScript on one thread, in one process",
    reqPerSec: osgood("Node 12.7"),
    cores: null,
  },
];

/** req/s per core, or null where either is unknown (a study that did not publish its cores). */
export function perCore(reqPerSec: number | null, cores: number | null): number | null {
  if (reqPerSec === null || cores === null || !(cores > 0)) return null;
  return reqPerSec / cores;
}

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
 * const spread = here.spreading(here.readProcessStats(dir));
 */
export function readProcessStats(dir: string): ProcessStats[] {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /^\d+\.json$/.test(f)) : [];
  if (files.length === 0) {
    throw new wb.WorkbookError(
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
  if (workers.length === 0) throw new wb.WorkbookError("WB_BAD_OPTION", "spreading: no process that answers requests");
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
    throw new wb.WorkbookError(
      "WB_BAD_OPTION",
      `workerLevels: serverCores must be a whole number >= 1, got ${serverCores}`,
    );
  }
  const levels: number[] = [];
  for (let n = 1; n < serverCores; n *= 2) levels.push(n);
  levels.push(serverCores, serverCores * 2);
  return [...new Set(levels)];
}

/** "1 core", "3 workers": a count with its noun, for the cells and the sentences here. */
export const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * What this machine's cores let notebook 07 show, said before it runs: the server's and the load
 * generator's cores, whether they overlap (contended numbers), and whether a curve over cores can
 * be drawn (two or more server cores) or only "more workers than cores".
 */
export function coresPlanText(p: wb.Pinning, levels: readonly number[]): string {
  if (!p.enabled) {
    return (
      `Pinning is off (${p.reason}): the server's workers and the load generator share every core, so each ` +
      "figure below is contended, and more workers can look faster only by taking CPU from the generator."
    );
  }
  const [server, generator, shared] = [p.serverCpus, p.generatorCpus, p.sharedCpus];
  const where = `The server gets ${count(server.length, "core")} (CPU ${p.server}) and the load generator ${count(generator.length, "core")} (CPU ${p.generator})`;
  const contended = shared.length
    ? ` They share CPU ${shared.join(", ")}: every figure below is contended, the generator taking time from the workers.`
    : "";
  const more = levels.filter((n) => n > server.length);
  const curve =
    server.length >= 2
      ? ` Up to ${count(server.length, "worker")} each has a core${shared.length ? " (one the generator also uses)" : " of its own"}, so req/s should climb with the workers${shared.length ? ", less than the cores alone would give" : ""}; ${more.join(" and ")} workers share the cores (more workers than cores).`
      : ` With one server core there is no curve to draw: ${levels.filter((n) => n > 1).join(" and ")} workers take turns on that core, which is the lesson "more workers than cores". On a machine with four cores or more, set WORKBOOK_SERVER_CPUS and WORKBOOK_GENERATOR_CPUS (for example 1-3 and 0) to see the curve.`;
  return `${where}.${contended}${curve}`;
}
