// Notebook 05's own helpers (the shared harness, `wb`, keeps what two notebooks use).
import * as wb from "@workbook/harness";

/** wrk's summary of one run, as it prints it: the lines the Osgood post printed for each of its rows. */
export interface WrkPrinted {
  /** "Latency": Avg, Stdev, Max (ms) and "+/- Stdev" (%), after wrk's own correction. */
  latency: { meanMs: number; stdevMs: number; maxMs: number; withinStdevPct: number };
  /** "Req/Sec": each thread's requests per second, Avg, Stdev, Max. */
  perThread: { mean: number; stdev: number; max: number };
  /** "Requests/sec". */
  reqPerSec: number;
}

const TIME_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const METRIC: Record<string, number> = { "": 1, k: 1e3, M: 1e6, G: 1e9 };

/** One figure of wrk's report with its unit ("1.87ms", "140.86us", "12.69k"), in ms or in units. */
function figure(text: string, units: Record<string, number>): number {
  const m = /^([\d.]+)([a-zA-Z]*)$/.exec(text);
  const scale = m ? units[m[2]] : undefined;
  if (!m || scale === undefined) throw new Error(`not a figure wrk prints: ${JSON.stringify(text)}`);
  return Number(m[1]) * scale;
}

/** The line of wrk's report that starts with `name`, split into its figures. */
function line(report: string, name: string): string[] {
  const found = report.split("\n").find((l) => l.trim().startsWith(name));
  if (!found) throw new Error(`wrk's report has no ${name} line:\n${report}`);
  return found.trim().slice(name.length).trim().split(/\s+/);
}

/** Reads wrk's own summary out of the report it printed (a LoadResult's `generator.report`). */
export function wrkPrinted(report: string): WrkPrinted {
  const [mean, stdev, max, within] = line(report, "Latency");
  const [tMean, tStdev, tMax] = line(report, "Req/Sec");
  return {
    latency: {
      meanMs: figure(mean, TIME_MS),
      stdevMs: figure(stdev, TIME_MS),
      maxMs: figure(max, TIME_MS),
      withinStdevPct: Number.parseFloat(within),
    },
    perThread: { mean: figure(tMean, METRIC), stdev: figure(tStdev, METRIC), max: figure(tMax, METRIC) },
    reqPerSec: Number(line(report, "Requests/sec:")[0]),
  };
}

/** A time in ms as wrk prints it, two decimals in its unit: 0.14086 ms is "140.86us", 123.57 ms "123.57ms". */
export function wrkTime(ms: number): string {
  if (ms < 1) return `${(ms * 1000).toFixed(2)}us`;
  if (ms < 1000) return `${ms.toFixed(2)}ms`;
  return `${(ms / 1000).toFixed(2)}s`;
}

/** A count as wrk prints it: 12690 is "12.69k". */
export function wrkMetric(n: number): string {
  return n < 1000 ? n.toFixed(2) : `${(n / 1000).toFixed(2)}k`;
}

/** Little's law's mean latency, ms: `connections` always waiting, answered `reqPerSec` times a second. */
export const littleMs = (connections: number, reqPerSec: number): number => (1000 * connections) / reqPerSec;

// The Osgood post's claims, read from its own rows and measured on Node's side (tests/unit/osgood-claims.test.js).

type OsgoodRow = wb.PublishedHelloRow;
const osgoodRow = (label: string): OsgoodRow => wb.published.osgood.rows.find((r) => r.label === label)!;

/** What the post's own rows say of its claims: 0.2 over 0.1 in req/s and in latency's stdev, and 0.2.1's mean and max against Node's. */
export function osgoodFigures(): { gain: number; stdevFell: number; meanOfNode: number; maxOfNode: number } {
  const [v01, v02, node] = ["Osgood 0.1", "Osgood 0.2", "Node 12.7"].map(osgoodRow);
  return {
    gain: v02.reqPerSec / v01.reqPerSec,
    stdevFell: v01.latency.stdevMs / v02.latency.stdevMs,
    meanOfNode: v02.latency.meanMs / node.latency.meanMs,
    maxOfNode: v02.latency.maxMs / node.latency.maxMs,
  };
}

/** The post's claims set against its own rows, in words: each figure computed, none typed. */
export function osgoodFiguresText(): string {
  const f = osgoodFigures();
  const [v01, v02, node] = ["Osgood 0.1", "Osgood 0.2", "Node 12.7"].map(osgoodRow);
  return (
    `From its rows: 0.2.1 served ${wb.times(f.gain)} the req/s of 0.1.0 (the post says 3.0x); its latency's ` +
    `standard deviation fell from ${wrkTime(v01.latency.stdevMs)} to ${wrkTime(v02.latency.stdevMs)}, ` +
    `${wb.times(f.stdevFell)} (the post: an order of magnitude); its mean was ${wb.times(f.meanOfNode)} ` +
    `Node's (${wrkTime(v02.latency.meanMs)} against ${wrkTime(node.latency.meanMs)}), its maximum ` +
    `${wb.times(f.maxOfNode)} Node's (${wrkTime(v02.latency.maxMs)} against ${wrkTime(node.latency.maxMs)}).`
  );
}

/**
 * The post's reading of 0.2.1's higher maximum (room to tune garbage collection) against a GC trace of
 * Node's side: node:http under the post's 10 connections, its wrk maximum beside the longest GC pause the
 * server's probe saw in the same load (the pauses `--trace-gc` prints). A pause holds every waiting
 * answer for its length, so it can account for at most its own length of the maximum.
 */
export function gcMaxText(watch: wb.MemoryWatch): string {
  const max = watch.load.latencyMs.max;
  const { longestMs, totalMs, share } = watch.gc;
  const pauses = Math.round(watch.rows.reduce((a, r) => a + r.gcCount, 0));
  const head =
    `Here, node:http at ${watch.load.connections} connections: wrk's maximum ${wb.fmt(max)} ms, its mean ` +
    `${wb.fmt(watch.load.latencyMs.mean)} ms. In the same load the server paused ${wb.fmt(pauses)} times for ` +
    `garbage collection, ${wb.fmt(totalMs)} ms in all (${wb.pct(share, 1)} of the time)`;
  if (pauses === 0) return `${head}: no pause, so none of the maximum was a collection's.`;
  return (
    `${head}, the longest ${wb.fmt(longestMs)} ms: at most ${wb.pct(Math.min(1, longestMs / max))} of the ` +
    "maximum was a collection's pause; the rest of it waited on something else (the machine's scheduling, " +
    "the loop's other work, or wrk's correction after a slow answer)."
  );
}

/** The Osgood post's command beside the run here of node:http, the post's Node row's stand-in. */
export function osgoodAsPublished(hello: wb.LoadResult): wb.AsPublishedRow {
  const O = wb.published.osgood;
  const wrk = /^wrk (\S+)/.exec(hello.fingerprint.generator)?.[1];
  return {
    key: "osgood/node-http",
    study: `${O.title}, its Node row`,
    published: O.load,
    ran: hello,
    versions: { Node: process.versions.node, ...(wrk ? { wrk: wrk } : {}) },
    also: [
      "the server: here notebook 03's node:http Hello World, in the post its own (its repository's benchmarks/ folder)",
    ],
  };
}

/**
 * Node's side of the post's concurrency claim: node:http's req/s at each connection count over the one
 * before, round by round, in the words the rounds allow (`wb.advantageText`).
 */
export function sweepText(runs: ReadonlyMap<string, wb.InterleavedRun>, levels: readonly number[]): string {
  const at = (c: number) => runs.get(`c${c}`)!.rounds;
  const conns = (c: number) => `${wb.fmt(c)} connection${c === 1 ? "" : "s"}`;
  return levels
    .slice(1)
    .map((c, i) => `- ${wb.advantageText(conns(c), conns(levels[i]), wb.advantage(at(c), at(levels[i])))}`)
    .join("\n");
}

/** One load's mean latency beside Little's law's, from the generator's own figures. */
export interface MeanReading {
  label: string;
  reqPerSec: number;
  meanMs: number;
  /** 10 / req/s at 10 connections: the mean the connections could have waited. */
  littleMs: number;
  stdevMs: number;
  maxMs: number;
}

/**
 * A load's mean latency and req/s as its generator gave them: wrk's from the report it printed (its
 * own figures, after its correction; the report is the last run's, so load with `repeats: 1`), and
 * autocannon's from every latency it measured.
 */
export function meanReading(load: wb.LoadResult): MeanReading {
  const report = load.generator.name === "wrk" ? load.generator.report : null;
  const printed = report ? wrkPrinted(report) : null;
  const reqPerSec = printed ? printed.reqPerSec : load.reqPerSec.median;
  const l = printed ? printed.latency : { meanMs: load.latencyMs.mean, stdevMs: load.latencyMs.stdev };
  return {
    label: load.label,
    reqPerSec,
    meanMs: l.meanMs,
    littleMs: littleMs(load.connections, reqPerSec),
    stdevMs: l.stdevMs,
    maxMs: printed ? printed.latency.maxMs : load.latencyMs.max,
  };
}

// Micro-benchmarks and V8's own view, each in a child process (tests/unit/micro.test.js).

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

// Whole requests: what the micro-gains predict, and the paragraph on what the rounds measured
// (tests/unit/micro.test.js).

/**
 * The request-level gain the parts predict (Amdahl's law): if code that took a share s of a request's
 * CPU time runs g times faster, the request takes (1 - s) + s / g of its time; several parts subtract
 * each one's saving: 1 / (1 - sum of share x (1 - 1 / gain)).
 */
export function predictGain(parts: readonly wb.GainPart[]): number {
  const saved = parts.reduce((sum, p) => sum + p.share * (1 - 1 / p.gain), 0);
  return 1 / (1 - saved);
}

/** One route's request-level outcome, after over before: the parts made faster, and the two apps measured in the same rounds. */
export interface RequestLesson {
  /** "GET /products/1". */
  route: string;
  /** Each optimised part: its share of the before app's busy CPU (a profile) and its micro-gain. */
  parts: wb.GainPart[];
  /** advantage(after's rounds, before's rounds). */
  measured: wb.Advantage;
}

/**
 * The paragraph on one route: the optimised code's share of the request, the micro-gains, the predicted
 * request-level gain (Amdahl) beside the measured one in the words its interval allows (`advantageText`,
 * `wb.compared`), then the conclusion drawn from that interval: it shows, no difference this run could
 * see, or within the noise floor; how the prediction did; and, where the measured interval lies above
 * the ceiling Amdahl's law gives (what the run would gain if both parts cost nothing), that it does and why.
 */
export function requestLessonText(l: RequestLesson): string {
  const share = l.parts.reduce((s, p) => s + p.share, 0);
  const predicted = predictGain(l.parts);
  const each = l.parts.map(
    (p) => `${p.what} ${wb.pct(p.share)} of the busy CPU, ${wb.times(p.gain)} faster on its own`,
  );
  const r = l.measured.ratio;
  if (r === null) return `**${l.route}**: the two apps have no round in common, so no measured gain.`;
  const c = wb.compared({ values: r.runs });
  const head = `**${l.route}**: ${each.join("; ")}. Predicted: **${wb.times(predicted)}**. Measured: ${wb.advantageText("after", "before", l.measured)}`;
  const ceiling = wb.gainCeiling(l.parts);
  return [head, conclusionText(c, share, ceiling), predictionText(predicted, c), ceilingText(c, ceiling)]
    .filter(Boolean)
    .join(" ");
}

/** What the interval lets the paragraph conclude about the whole request. */
function conclusionText(c: wb.Comparison, share: number, ceiling: number): string {
  const part = `the optimised code was ${wb.pct(share)} of each request's CPU time`;
  if (c.kind === "more")
    return `**It shows under load:** ${part}, and the whole interval lies above 1x, beyond the ${wb.pct(c.noise)} noise floor.`;
  if (c.kind === "less") return `**The after app was slower under load:** the interval lies below 1x, though ${part}.`;
  if (c.kind === "few" || c.kind === "one")
    return `**Too few rounds for a verdict:** ${part}; run it with more rounds (the full profile) to know.`;
  const why =
    c.kind === "same" ? "the interval holds 1x" : `the interval lies within the ${wb.pct(c.noise)} noise floor`;
  return (
    `**No difference this run could see:** ${why}. ${part[0].toUpperCase()}${part.slice(1)}: making it free ` +
    `would give ${wb.times(ceiling)} by that share, a gain this run's interval cannot tell from none.`
  );
}

/** How the prediction did: inside the measured interval, within 10 % of the median, or off by how much. */
function predictionText(predicted: number, c: wb.Comparison): string {
  if (predicted >= c.low && predicted <= c.high) return "The prediction falls within the measured interval.";
  const off = predicted / c.median - 1;
  if (Math.abs(off) <= 0.1)
    return `The prediction lies outside the measured interval, within 10 % of its median (${wb.pct(off)}).`;
  return (
    `The prediction is ${wb.pct(Math.abs(off))} ${off > 0 ? "above" : "below"} the measured median: shares read from ` +
    "one profile of the main thread, and micro-gains timed on their own, leave out what the changes did to the " +
    "rest of the request (garbage collection, writing the body to the socket), and a busy machine moves both figures."
  );
}

/**
 * Amdahl's ceiling is a bound only on what the profile's shares count: when a measured gain (an interval
 * above 1x) has its median, or its whole interval, above it, the sentence says so and what the shares
 * leave out.
 */
function ceilingText(c: wb.Comparison, ceiling: number): string {
  if (c.kind !== "more" || !(c.median > ceiling)) return "";
  const what = c.low > ceiling ? "The whole measured interval lies" : "The measured median lies";
  return (
    `${what} above ${wb.times(ceiling)}, what making both parts free would give by their shares: a share ` +
    "counts only the samples taken inside those functions, so it leaves out the garbage their allocations " +
    "left behind (V8 books a collection to `(garbage collector)`, not to them) and the longer header the " +
    "sha512 etag puts on every answer, which the after app no longer writes."
  );
}
