import { badOption, WorkbookError } from "../core/errors";
import { settings } from "../core/settings";
import { median } from "../core/stats";
import { type ChildRun, reportOf, runChild } from "./script";

/** One task of a micro-benchmark, as apps/micro/lib/bench.js measured it. */
export interface MicroTask {
  name: string;
  /** The task's group in its file (what it is compared with), or null. */
  group: string | null;
  /** false: its result was dropped, not sunk (the runner's guard turned off, to show what it guards against). */
  sunk: boolean;
  /** Operations per second: 1 / the mean time of one call. */
  opsPerSec: number;
  /** Relative margin of error of the mean, in percent (95 % confidence, tinybench's `rme`). */
  rme: number;
  /** Mean time of one call, in nanoseconds. */
  meanNs: number;
  /** Timed batches (each of `batch` calls), in all processes. */
  samples: number;
  batch: number;
  /** The mean time of one call in each process, in ns (one entry unless `processes` > 1; meanNs is their median). */
  perProcessNs: number[];
  /** Measured within `suspectBelow` times the empty loop's time: the JIT probably removed the work. */
  suspect: boolean;
}

export interface MicrobenchResult {
  /** The benchmark file, relative to apps/. */
  file: string;
  /** The suite's name, as the file gave it. */
  suite: string;
  /** "Node 26.10.0", and V8's version. */
  runtime: string;
  v8: string;
  nodeArgs: string[];
  /** Where the child ran: "on CPU 1, the apps' CPU", or why it was not pinned. */
  pinned: string;
  /** Fresh processes the file ran in, one after the other (each task's figures: the median over them). */
  processes: number;
  /** Measured time and warm-up time per task, in ms. */
  timeMs: number;
  warmupMs: number;
  /** The empty loop's time per call (the runner's loop and sink alone), in ns. */
  floorNs: number;
  suspectBelow: number;
  tasks: MicroTask[];
}

export interface MicrobenchOptions {
  /** Measured time per task, in ms. Default 150 (quick profile) or 1000 (full). */
  timeMs?: number;
  /** tinybench's warm-up time per task, in ms. Default 50 (quick) or 250 (full). */
  warmupMs?: number;
  /** Runtime flags, e.g. ["--allow-natives-syntax"]. Default none. */
  nodeArgs?: string[];
  /** Time limit of the whole file. Default 300,000 ms. */
  timeoutMs?: number;
  /** Run on the apps' CPU (core/pinning.ts). Default true. */
  pin?: boolean;
  /**
   * Run the file this many times, each in a fresh process, and take each task's median over them.
   * Default 1. V8 settles differently from one process to the next, beyond what one process's margin of
   * error shows (measured on the 2-core CI machine: JSON.stringify of one product took 3.3-5.8 µs a
   * call from one process to the next, with margins under 5 % in each).
   */
  processes?: number;
}

const TIMES = { quick: { timeMs: 150, warmupMs: 50 }, full: { timeMs: 1000, warmupMs: 250 } };

/**
 * Run a micro-benchmark file of apps/ (e.g. "micro/shapes.js", built on apps/micro/lib/bench.js) in a
 * child process on the pinned Node, on the apps' CPU, and return its tasks' ops/s with their margins
 * of error. A failing file, one that prints no report, or one past `timeoutMs` throws a WorkbookError
 * with its stderr (`WB_NO_REPORT`, `WB_TIMEOUT`); bad `timeMs`, `warmupMs` or `processes`,
 * `WB_BAD_OPTION`. `timeMs` per task 150 / 1000 ms (quick / full), `warmupMs` 50 / 250, `timeoutMs`
 * 300000. The runner's guards (batches, a loop per task, sunk results, the empty-loop floor, CPU
 * time) are described in the header of `apps/micro/lib/bench.js`. `processes` (default 1): the file
 * run this many times, each in a fresh process; V8 settles differently from one process to the next,
 * by more than one process's margin shows (`JSON.stringify` of one product: 3.3-5.8 µs a call from
 * one process to the next, each within 5 %), so a gain that decides a check takes the median of a few.
 *
 * @example
 * const lies = await lesson.microbench("micro/lies.js");
 * wb.show(lesson.opsBars(lies.tasks, { title: "Why micro-benchmarks lie", subtitle: lies.pinned }));
 */
export async function microbench(file: string, opts: MicrobenchOptions = {}): Promise<MicrobenchResult> {
  const byProfile = TIMES[settings().name];
  const times = { timeMs: opts.timeMs ?? byProfile.timeMs, warmupMs: opts.warmupMs ?? byProfile.warmupMs };
  for (const k of ["timeMs", "warmupMs"] as const) {
    if (!(times[k] > 0)) throw badOption("microbench", `${k} must be > 0, got ${times[k]}`);
  }
  const processes = opts.processes ?? 1;
  if (!(Number.isInteger(processes) && processes >= 1)) {
    throw badOption("microbench", `processes must be a whole number >= 1, got ${processes}`);
  }
  const who = `microbench(${file})`;
  const runs: ChildRun[] = [];
  const reports: Record<string, unknown>[] = [];
  for (let i = 0; i < processes; i++) {
    const one = await runChild(file, {
      who,
      nodeArgs: opts.nodeArgs,
      env: { MICROBENCH_TIME_MS: String(times.timeMs), MICROBENCH_WARMUP_MS: String(times.warmupMs) },
      timeoutMs: opts.timeoutMs ?? 300_000,
      pin: opts.pin,
    });
    runs.push(one);
    reports.push(reportOf(one, "microbench", who)); // a process with no report stops the rest
  }
  const [run, r] = [runs[0], reports[0]];
  const taskLists = reports.map((rep) => rep.tasks as Omit<MicroTask, "perProcessNs">[]);
  const tasks = taskLists[0].map((first, k): MicroTask => {
    const each = taskLists.map((list) => list[k]);
    const perProcessNs = each.map((t) => t.meanNs);
    const meanNs = median(perProcessNs);
    return {
      ...first,
      opsPerSec: 1e9 / meanNs,
      meanNs,
      rme: Math.max(...each.map((t) => t.rme)),
      samples: each.reduce((sum, t) => sum + t.samples, 0),
      suspect: each.some((t) => t.suspect),
      perProcessNs,
    };
  });
  return {
    file: run.file,
    suite: String(r.microbench),
    runtime: String(r.runtime),
    v8: String(r.v8),
    nodeArgs: run.nodeArgs,
    pinned: run.pinned,
    processes,
    timeMs: Number(r.timeMs),
    warmupMs: Number(r.warmupMs),
    floorNs: median(reports.map((rep) => Number(rep.floorNs))),
    suspectBelow: Number(r.suspectBelow),
    tasks,
  };
}

/** The task of that name; throws `WB_BAD_OPTION`, listing the tasks in `hint`, when there is none. */
export function microTask(result: MicrobenchResult, name: string): MicroTask {
  const found = result.tasks.find((t) => t.name === name);
  if (!found) {
    throw new WorkbookError("WB_BAD_OPTION", `${result.file} has no task named ${JSON.stringify(name)}`, {
      hint: `one of: ${result.tasks.map((t) => JSON.stringify(t.name)).join(", ")}`,
    });
  }
  return found;
}

/** How many times faster one task ran than another, with the range their margins of error allow. */
export interface MicroGain {
  faster: string;
  slower: string;
  /** opsPerSec(faster) / opsPerSec(slower); over several processes, the median of each process's ratio. */
  ratio: number;
  /**
   * One process: the ratio at the two ends of both margins, (ops - margin) / (ops + margin) and the other
   * way round. Several: the lowest and highest of the processes' ratios.
   */
  low: number;
  high: number;
  /** The processes the ratio comes from (1: one process, its margins give low and high). */
  processes: number;
}

/**
 * `faster`'s ops/s over `slower`'s (task names of one result), with the range their margins allow; over
 * several processes, the median of each process's ratio and their range. From one process, `low` and
 * `high` are (ops - margin) / (ops + margin) and the other way round.
 *
 * @example
 * const mega = lesson.microGain(shapes, "literals, 1 key order", "literals, 6 key orders");
 * wb.markdown(lesson.microGainText(mega));
 */
export function microGain(result: MicrobenchResult, faster: string, slower: string): MicroGain {
  const [f, s] = [microTask(result, faster), microTask(result, slower)];
  const perF = f.perProcessNs ?? [f.meanNs];
  const perS = s.perProcessNs ?? [s.meanNs];
  if (perF.length > 1) {
    const each = perF.map((ns, i) => perS[i] / ns);
    return {
      faster,
      slower,
      ratio: median(each),
      low: Math.min(...each),
      high: Math.max(...each),
      processes: each.length,
    };
  }
  const lo = (t: MicroTask) => t.opsPerSec * Math.max(0, 1 - t.rme / 100);
  const hi = (t: MicroTask) => t.opsPerSec * (1 + t.rme / 100);
  return { faster, slower, ratio: f.opsPerSec / s.opsPerSec, low: lo(f) / hi(s), high: hi(f) / lo(s), processes: 1 };
}
