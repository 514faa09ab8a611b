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
