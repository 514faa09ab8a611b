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

/** The share (0-1) of a load's answers that had `status`, e.g. 503 for the answers a shedding app refused. Takes a LoadResult, a PacedResult or ContentionTotals. */
export function statusShare(o: { statusCodes: Record<string, number>; totalRequests: number }, status: number): number {
  return (o.statusCodes[String(status)] ?? 0) / Math.max(1, o.totalRequests);
}

// Reading contention results (wb.contentionRounds): figures run by run, the generator, the loop.

/**
 * p50, p90 and p99 of one load, computed run by run and summarised as the median run with the best
 * and worst, for any subset of answers. `load`: "cheap" (default) or "background"; `status`: "any"
 * answer (default), "2xx", or one HTTP status (e.g. 503). Runs without a matching answer are left
 * out; `count` sums the answers. Each run's figures are the paced load's own (`latencyMs`,
 * `okLatencyMs`, `statusLatencyMs`), so charts built from it agree with prose that quotes
 * `cheap.p99.median`, which pooled percentiles (`cheap.latencyMs`) do not always.
 */
export function runPercentiles(
  r: wb.ContentionResult,
  opts: { load?: "cheap" | "background"; status?: "any" | "2xx" | number } = {},
): { count: number; p50: wb.Spread; p90: wb.Spread; p99: wb.Spread } {
  const status = opts.status ?? "any";
  const pick = (p: wb.PacedResult | null): wb.LatencySummary | undefined => {
    if (p === null) return undefined;
    if (status === "any") return p.latencyMs;
    return status === "2xx" ? p.okLatencyMs : p.statusLatencyMs[status];
  };
  const perRun = r.runs
    .map((run) => pick(opts.load === "background" ? run.background : run.cheap))
    .filter((l): l is wb.LatencySummary => l !== undefined && l.count > 0);
  return {
    count: perRun.reduce((a, l) => a + l.count, 0),
    p50: wb.spread(perRun.map((l) => l.p50)),
    p90: wb.spread(perRun.map((l) => l.p90)),
    p99: wb.spread(perRun.map((l) => l.p99)),
  };
}

export interface GeneratorLag {
  /** The worst run's p99 and max send lag, in ms (pacedLoad's sendLagMs), and the load it came from. */
  p99: number;
  max: number;
  worst: string;
  /** Measured loads looked at. */
  loads: number;
}

/**
 * How far behind its schedule the paced generator fell in the measured load (`cheap`) of many
 * contention results: the worst run's p99 send lag. Every latency is counted from when a request was
 * due, so this lag is part of every latency of that load; a p99 above the gap between two of its
 * requests means the generator was saturated. The background load's lag is left out: it is not part
 * of the measured latencies, and its few requests make its p99 a maximum.
 */
export function generatorLag(results: Iterable<wb.ContentionResult>): GeneratorLag {
  let out: GeneratorLag = { p99: 0, max: 0, worst: "-", loads: 0 };
  for (const { cheap: t } of results) {
    out = {
      p99: Math.max(out.p99, t.sendLagMs.p99),
      max: Math.max(out.max, t.sendLagMs.max),
      worst: t.sendLagMs.p99 > out.p99 ? t.label : out.worst,
      loads: out.loads + 1,
    };
  }
  return out;
}

/** The median, over the runs, of the event-loop utilisation the app reported (/__metrics, read with `metrics: true`). */
export function loopUtilisation(r: wb.ContentionResult): number {
  const elus = r.runs.map((x) => x.metrics?.histogram.elu).filter((e): e is number => typeof e === "number");
  return wb.spread(elus).median;
}

/** A stretch of time in which the loop took no delay sample at all: it was blocked. */
export interface BlockedStretch {
  /** Seconds since the app started or was reset (the series' clock): when the stretch began and ended. */
  from: number;
  to: number;
  /** Its length, in ms: the raw delay sample that ended it. */
  ms: number;
  /** The real length of the row it ended (the tick was overdue too), in ms, against the series' nominal interval. */
  intervalMs: number;
  /** The whole seconds [k, k+1) of that clock inside the stretch: a monitor counting samples second by second would read zero in each. */
  emptySeconds: number[];
}

/**
 * The blocks longer than the series' interval, found from the series of a `/__metrics` report
 * (apps/lib/loop-metrics.js) and its unfinished interval: the tick that writes a row is itself a timer, so
 * after such a block it is overdue and runs right after it, in the same timers phase as the delay
 * timer that records the block as one sample. The block therefore ends at the row's `t` and lasted
 * its `delayMaxMs` (raw: no sample was taken in between). `emptySeconds` lists the whole seconds
 * inside a stretch, where a monitor counting samples second by second reads zero.
 */
export function blockedStretches(snapshot: wb.LoopMetricsSnapshot): BlockedStretch[] {
  return [...snapshot.series, snapshot.current]
    .filter((r) => r.delayMaxMs !== null && r.delayMaxMs > snapshot.intervalMs)
    .map((r) => {
      const ms = r.delayMaxMs as number;
      const from = r.t - ms / 1000;
      const emptySeconds: number[] = [];
      for (let k = Math.ceil(from); k + 1 <= r.t; k++) emptySeconds.push(k);
      return { from: Math.round(from * 1000) / 1000, to: r.t, ms: ms, intervalMs: r.intervalMs, emptySeconds };
    });
}

// Sentences whose wording depends on the run (tests/unit/notebook-helpers.test.js).

/**
 * Where blocks hurt: the share of the loop they took (ELU with them minus ELU without). Below half,
 * most requests never meet one and the blocks decide the tail; above, they reach the median too.
 */
export function blockShareText(eluWith: number, eluWithout: number): string {
  const share = eluWith - eluWithout;
  if (share <= 0)
    return `The loop was busy ${wb.pct(eluWith)} of the time (ELU, read inside the app), against ${wb.pct(eluWithout)} without the blocks: no more with them, so the blocks were too short or too rare to measure here.`;
  const head = `The loop was busy ${wb.pct(eluWith)} of the time (ELU, read inside the app), against ${wb.pct(eluWithout)} without the blocks: they took about ${wb.pct(share)} of it`;
  if (share < 0.5)
    return `${head}, less than half, so most cheap requests never meet a block: the blocks decide p90 and p99 far more than the median.`;
  return `${head}, more than half, so most cheap requests meet a block: the blocks reach the median too.`;
}

/** Whether the paced load generator kept its schedule: its worst p99 send lag against the gap between two requests. */
export function scheduleText(lag: { p99: number; worst: string }, gapMs: number): string {
  const head = `The load generator sent each request at most ${wb.fmt(lag.p99)} ms late at p99 (worst: ${lag.worst})`;
  if (lag.p99 > gapMs)
    return `${head}: more than the ${wb.fmt(gapMs)} ms between two requests, so it was saturated, and that lag is part of the latencies above.`;
  return `${head}, below the ${wb.fmt(gapMs)} ms between two requests: it kept its schedule, and the latencies are the apps'.`;
}
