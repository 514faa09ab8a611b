// Notebook 05's micro-benchmark runner and V8's own view, each in a child process: the notebook
// imports them as `micro`, beside its own helpers (`here`, 05-micro-optimisations.ts).
import * as wb from "@workbook/harness";

/** The last line of stdout that is a JSON object starting with `key`, parsed; else an error showing the output. */
export function reportOf(run: wb.ScriptRun<unknown>, key: string, who: string): Record<string, unknown> {
  const line = run.stdout
    .split("\n")
    .reverse()
    .find((l) => l.startsWith(`{"${key}"`));
  if (!line) {
    throw new wb.WorkbookError("WB_NO_REPORT", `${who} printed no {"${key}": ...} line`, {
      stdout: run.stdout.split("\n").slice(-10).join("\n"),
      stderr: run.stderr.split("\n").slice(-10).join("\n"),
    });
  }
  return JSON.parse(line) as Record<string, unknown>;
}

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

/**
 * Micro-benchmark tasks as bars of operations per second, on a log axis unless `meta.log` is false (the
 * tasks of one file often differ by decades): the whisker is the mean's margin of error (95 % confidence), written beside the
 * bar; a suspect task (measured as fast as an empty loop) is grey and marked.
 */
export function opsBars(
  tasks: readonly Pick<MicroTask, "name" | "opsPerSec" | "rme" | "suspect">[],
  meta: { title: string; subtitle?: string; log?: boolean },
): wb.Chart {
  const rows = tasks.map((t) => ({
    label: t.name,
    median: t.opsPerSec,
    min: t.opsPerSec * Math.max(0.01, 1 - t.rme / 100),
    max: t.opsPerSec * (1 + t.rme / 100),
    note: `±${wb.fmt(t.rme)} %${t.suspect ? ", suspect" : ""}`,
    muted: t.suspect,
  }));
  return wb.barsWithSpread(rows, { ...meta, unit: "operations per second", log: meta.log ?? true });
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
 * const lies = await here.microbench("micro/lies.js");
 * wb.show(here.opsBars(lies.tasks, { title: "Why micro-benchmarks lie", subtitle: lies.pinned }));
 */
export async function microbench(file: string, opts: MicrobenchOptions = {}): Promise<MicrobenchResult> {
  const byProfile = TIMES[wb.settings().name];
  const times = { timeMs: opts.timeMs ?? byProfile.timeMs, warmupMs: opts.warmupMs ?? byProfile.warmupMs };
  for (const k of ["timeMs", "warmupMs"] as const) {
    if (!(times[k] > 0)) throw new wb.WorkbookError("WB_BAD_OPTION", `microbench: ${k} must be > 0, got ${times[k]}`);
  }
  const processes = opts.processes ?? 1;
  if (!(Number.isInteger(processes) && processes >= 1)) {
    throw new wb.WorkbookError("WB_BAD_OPTION", `microbench: processes must be a whole number >= 1, got ${processes}`);
  }
  const who = `microbench(${file})`;
  const runs: wb.ScriptRun<unknown>[] = [];
  const reports: Record<string, unknown>[] = [];
  for (let i = 0; i < processes; i++) {
    const one = await wb.measureScript(file, {
      json: false, // the report is found by its key (reportOf)
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
    const meanNs = wb.spread(perProcessNs).median;
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
    floorNs: wb.spread(reports.map((rep) => Number(rep.floorNs))).median,
    suspectBelow: Number(r.suspectBelow),
    tasks,
  };
}

/** The task of that name; throws `WB_BAD_OPTION`, listing the tasks in `hint`, when there is none. */
export function microTask(result: MicrobenchResult, name: string): MicroTask {
  const found = result.tasks.find((t) => t.name === name);
  if (!found) {
    throw new wb.WorkbookError("WB_BAD_OPTION", `${result.file} has no task named ${JSON.stringify(name)}`, {
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
  /** Over several processes, each process's ratio (their median is `ratio`); absent for one. */
  each?: number[];
}

/**
 * `faster`'s ops/s over `slower`'s (task names of one result), with the range their margins allow; over
 * several processes, the median of each process's ratio and their range. From one process, `low` and
 * `high` are (ops - margin) / (ops + margin) and the other way round.
 *
 * @example
 * const mega = here.microGain(shapes, "literals, 1 key order", "literals, 6 key orders");
 * wb.markdown(here.microGainText(mega));
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
      ratio: wb.spread(each).median,
      low: Math.min(...each),
      high: Math.max(...each),
      processes: each.length,
      each,
    };
  }
  const lo = (t: MicroTask) => t.opsPerSec * Math.max(0, 1 - t.rme / 100);
  const hi = (t: MicroTask) => t.opsPerSec * (1 + t.rme / 100);
  return { faster, slower, ratio: f.opsPerSec / s.opsPerSec, low: lo(f) / hi(s), high: hi(f) / lo(s), processes: 1 };
}

/**
 * What V8 itself says about a script's objects and functions: a script run with natives syntax
 * (%HasFastProperties, %GetOptimizationStatus, %GetFeedback...) that prints one JSON line starting
 * {"v8view": ...}, and the --trace-deopt lines V8 prints while it runs.
 */

/** One --trace-deopt line: a function thrown out of optimised code, and why. */
export interface Deopt {
  /** The function's name, "(anonymous)" for a nameless one. */
  fn: string;
  /** "deopt-eager", "deopt-lazy"... */
  kind: string;
  /** V8's reason, e.g. "wrong map" (an object of a shape the optimised code was not built for). */
  reason: string;
  /** The optimised code thrown away: "TURBOFAN_JS", "MAGLEV". */
  code: string;
  /** The line as V8 printed it. */
  line: string;
}

export interface V8View<T> {
  file: string;
  nodeArgs: string[];
  pinned: string;
  /** The script's JSON line. */
  report: T;
  deopts: Deopt[];
}

/** The objects and read sites of apps/micro/shapes-v8.js, as V8 saw them. */
export interface ShapesReport {
  v8view: "shapes";
  v8: string;
  objects: { builtBy: string; fastProperties: boolean; sameShapeAsLiteral: boolean }[];
  sites: {
    site: string;
    shapes: number;
    /** The first property read's inline-cache state: MONOMORPHIC, POLYMORPHIC, MEGAMORPHIC. */
    inlineCache: string;
    /** Which tier runs the function: "TurboFan (optimised)", "Ignition (interpreted)"... */
    tier: string;
    /** The same after an object of a new shape reached it, or null. */
    after: { inlineCache: string; tier: string } | null;
  }[];
}

const BAILOUT =
  /^\[bailout \(kind: ([^,]+), reason: (.*?)\): begin\. deoptimizing [^<]*<JSFunction ?([^ (>][^ >]*)?[^>]*>, [^<]*<Code ([A-Z_]+)>/;

/** The --trace-deopt lines of a run's output. */
export function deoptLines(stdout: string): Deopt[] {
  return stdout.split("\n").flatMap((line) => {
    const m = BAILOUT.exec(line);
    return m ? [{ fn: m[3] || "(anonymous)", kind: m[1], reason: m[2], code: m[4], line }] : [];
  });
}

export interface V8ViewOptions {
  /** Runtime flags. Default ["--allow-natives-syntax", "--trace-deopt"]. */
  nodeArgs?: string[];
  /** Default 60,000 ms. */
  timeoutMs?: number;
  /** Run on the apps' CPU (core/pinning.ts). Default true. */
  pin?: boolean;
}

/**
 * Run a natives-syntax script of apps/ (e.g. "micro/shapes-v8.js") and return its report (its last
 * `{"v8view": ...}` line) and the deopts V8 traced (each `--trace-deopt` bailout: function, kind,
 * reason such as "wrong map", the optimised code thrown away, line). `nodeArgs` default
 * `["--allow-natives-syntax", "--trace-deopt"]`, `timeoutMs` 60000, `pin` true. Fails like `microbench`.
 *
 * @example
 * const v8 = await here.v8View<here.ShapesReport>("micro/shapes-v8.js");
 * const wrongMap = v8.deopts.filter((d) => d.reason === "wrong map");
 */
export async function v8View<T = Record<string, unknown>>(file: string, opts: V8ViewOptions = {}): Promise<V8View<T>> {
  const who = `v8View(${file})`;
  const run = await wb.measureScript(file, {
    json: false, // V8's --trace-deopt lines come with the report: reportOf finds it by its key
    nodeArgs: opts.nodeArgs ?? ["--allow-natives-syntax", "--trace-deopt"],
    timeoutMs: opts.timeoutMs ?? 60_000,
    pin: opts.pin,
  });
  const report = reportOf(run, "v8view", who) as T;
  return { file: run.file, nodeArgs: run.nodeArgs, pinned: run.pinned, report, deopts: deoptLines(run.stdout) };
}

// Sentences whose wording depends on the run (tests/unit/micro.test.js).

/**
 * How two tasks compared, in the words their evidence allows (`wb.compared`): "`a` was faster than `b`
 * by 14 %: 1.14x (their margins of error allow 1.10x–1.18x)" from one process, with the range of the
 * processes' ratios over several ("median of 5 processes, range 2.70x–3.20x, a 94 % interval"); "no
 * difference ... could see" when that interval holds 1x. The ratio is `faster`'s ops/s over `slower`'s
 * (the names it was built with), whichever way it came out.
 */
export function microGainText(g: MicroGain): string {
  const evidence: wb.RatioEvidence =
    g.processes > 1
      ? { values: g.each ?? [g.ratio], of: "processes" }
      : {
          values: [g.ratio],
          interval: { low: g.low, high: g.high, level: null, what: "their margins of error allow" },
        };
  const c = wb.compared(evidence, { a: `\`${g.faster}\``, b: `\`${g.slower}\``, more: "faster", less: "slower" });
  return `${c.text}.`;
}

/** What dropping a result did: the JIT removed the work (the dropped task ran at least 3x faster), or it did not. */
export function lieText(kept: MicroTask, dropped: MicroTask, floorNs: number): string {
  const ratio = kept.meanNs / dropped.meanNs;
  const numbers =
    `Kept, one call took ${wb.fmt(kept.meanNs)} ns; dropped, ${wb.fmt(dropped.meanNs)} ns, ${wb.times(ratio)} less, ` +
    `against ${wb.fmt(floorNs)} ns for an empty loop.`;
  if (ratio >= 3) {
    return (
      `${numbers} **The dropped result was never built**: the JIT saw that nobody read it and removed the work, ` +
      "so the benchmark timed an (almost) empty loop. A number like that measures the compiler, not the code."
    );
  }
  return `${numbers} This time the JIT kept the work (less than 3x apart): dropping a result does not always lie, but nothing promises it won't.`;
}
