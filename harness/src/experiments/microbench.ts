import { badOption, WorkbookError } from "../core/errors";
import { settings } from "../core/settings";
import { reportOf, runChild } from "./script";

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
  /** Timed batches (each of `batch` calls). */
  samples: number;
  batch: number;
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
}

const TIMES = { quick: { timeMs: 150, warmupMs: 50 }, full: { timeMs: 1000, warmupMs: 250 } };

/**
 * Run a micro-benchmark file of apps/ (e.g. "micro/shapes.js", built on apps/micro/lib/bench.js) in a
 * child process on the pinned Node, on the apps' CPU, and return its tasks' ops/s with their margins
 * of error. A failing file, one that prints no report, or one past `timeoutMs` throws a WorkbookError
 * with its stderr.
 */
export async function microbench(file: string, opts: MicrobenchOptions = {}): Promise<MicrobenchResult> {
  const byProfile = TIMES[settings().name];
  const times = { timeMs: opts.timeMs ?? byProfile.timeMs, warmupMs: opts.warmupMs ?? byProfile.warmupMs };
  for (const k of ["timeMs", "warmupMs"] as const) {
    if (!(times[k] > 0)) throw badOption("microbench", `${k} must be > 0, got ${times[k]}`);
  }
  const who = `microbench(${file})`;
  const run = await runChild(file, {
    who,
    nodeArgs: opts.nodeArgs,
    env: { MICROBENCH_TIME_MS: String(times.timeMs), MICROBENCH_WARMUP_MS: String(times.warmupMs) },
    timeoutMs: opts.timeoutMs ?? 300_000,
    pin: opts.pin,
  });
  const r = reportOf(run, "microbench", who);
  return {
    file: run.file,
    suite: String(r.microbench),
    runtime: String(r.runtime),
    v8: String(r.v8),
    nodeArgs: run.nodeArgs,
    pinned: run.pinned,
    timeMs: Number(r.timeMs),
    warmupMs: Number(r.warmupMs),
    floorNs: Number(r.floorNs),
    suspectBelow: Number(r.suspectBelow),
    tasks: r.tasks as MicroTask[],
  };
}

/** The task of that name; throws, listing the tasks, when there is none. */
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
  /** opsPerSec(faster) / opsPerSec(slower). */
  ratio: number;
  /** The ratio at the two ends of both margins: (ops - margin) / (ops + margin) and the other way round. */
  low: number;
  high: number;
}

/** `faster`'s ops/s over `slower`'s (task names of one result), with the range their margins allow. */
export function microGain(result: MicrobenchResult, faster: string, slower: string): MicroGain {
  const [f, s] = [microTask(result, faster), microTask(result, slower)];
  const lo = (t: MicroTask) => t.opsPerSec * Math.max(0, 1 - t.rme / 100);
  const hi = (t: MicroTask) => t.opsPerSec * (1 + t.rme / 100);
  return { faster, slower, ratio: f.opsPerSec / s.opsPerSec, low: lo(f) / hi(s), high: hi(f) / lo(s) };
}
