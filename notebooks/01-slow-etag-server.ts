// Notebook 01's own helpers (the shared harness, `wb`, keeps what two notebooks use).
import fs from "node:fs";
import path from "node:path";
import * as wb from "@workbook/harness";

// The figures "Keeping Node.js Fast" (Smashing Magazine, 2018) published for its slow restify etag server.
type EtagStep = wb.EtagStep;
type EtagPublishedRow = wb.EtagPublishedRow;
const publishedEtag = wb.published.etag;

/** How many lines of app file `edited` differ from app file `from` (a line-for-line edit), of how many. */
export function changedLines(from: string, edited: string): { changed: number; of: number } {
  const apps = path.join(wb.repoRoot, "apps");
  const read = (f: string) => fs.readFileSync(path.join(apps, f), "utf8").replace(/\n$/, "").split("\n");
  const [a, b] = [read(from), read(edited)];
  if (a.length !== b.length) throw new Error(`${from} and ${edited} differ in length: not a line-for-line edit`);
  return { changed: a.filter((line, i) => line !== b[i]).length, of: a.length };
}

/** doctor's active handles: the fewest it saw (the app before the load) and the most (at the load's peak). */
export function handleCounts(samples: readonly { handles: number }[]): { idle: number; peak: number } {
  if (samples.length === 0) throw new Error("doctor took no samples");
  const counts = samples.map((s) => s.handles);
  return { idle: Math.min(...counts), peak: Math.max(...counts) };
}

/** The handles the article's doctor counted besides the load's connections: stdout, stderr and the server. */
export function handlesBeforeLoad(): number {
  const D = publishedEtag.doctor;
  return D.parts.filter((p) => p.what !== "connections").reduce((sum, p) => sum + p.count, 0);
}

/** The article's 103 handles, part by part, beside this run's count before the load and at its peak. */
export function handleRows(
  counted: { idle: number; peak: number },
  connections: number,
): Record<string, string | number>[] {
  const D = publishedEtag.doctor;
  const conns = D.parts.find((p) => p.what === "connections")!.count;
  const others = D.parts.filter((p) => p.what !== "connections");
  const row = (what: string, article: number, here: number) => ({
    handles: what,
    "the article's doctor": article,
    "this run's, at its peak": here,
  });
  return [
    row(`the load's connections (${connections} asked)`, conns, counted.peak - counted.idle),
    row(`${others.map((p) => p.what).join(", ")}: open before the load`, handlesBeforeLoad(), counted.idle),
    row("active handles", D.activeHandles, counted.peak),
  ];
}

/**
 * What this run's doctor counted of the load's connections, and what that says: all of them, or fewer,
 * with the pace at which its samples show the blocked loop taking them in (on the slow server, about
 * one a tick: the load ends before the loop has them all), or more (other handles opened under load).
 */
export function handlesText(samples: readonly { handles: number }[], connections: number): string {
  const { idle, peak } = handleCounts(samples);
  const counted = peak - idle;
  const loaded = samples.filter((s) => s.handles > idle).map((s) => s.handles);
  const head = `This run's doctor counted **${counted} of the ${connections} connections** the load opened, at its peak`;
  if (counted === connections) return `${head}: every one of them, as the article's did.`;
  if (counted > connections)
    return `${head}: more handles than connections, so the app opened others under load (timers, files).`;
  if (loaded.length < 2)
    return `${head}: it took ${loaded.length} sample under load, too few to say how fast the loop took them in.`;
  const pace = (peak - loaded[0]) / (loaded.length - 1);
  return (
    `${head}: its handles climbed from ${loaded[0]} to ${peak} over its ${loaded.length} samples under load, ` +
    `about ${wb.fmt(pace)} a sample, and doctor samples only between two long ticks of the blocked loop. At that ` +
    `pace the loop had not taken in the other ${connections - counted} when the load ended; the article's ` +
    "count is of a loop that had taken in every connection."
  );
}

/**
 * CPU above 100 % of a core: the article's reason (V8's GC threads beside the main thread) holds only
 * where the server's threads may use more than one core. Pinned, every thread of it shares one core.
 */
export function doctorCpuText(samples: readonly { cpu: number }[], pinnedTo: string | null): string {
  const most = Math.max(...samples.map((s) => s.cpu)) * 100;
  const article = `The article's doctor read above 100 % of a core: ${publishedEtag.doctor.cpuNote}.`;
  if (pinnedTo !== null)
    return (
      `${article} This run pinned the server to CPU ${pinnedTo}, so those threads shared that one core with ` +
      `the main thread, and doctor's CPU could not read above 100 %: its highest sample read ${wb.fmt(most)} %.`
    );
  return (
    `${article} This run was not pinned: doctor's highest sample read ${wb.fmt(most)} %` +
    (most > 100 ? ", above one core." : ", within one core.")
  );
}

/** Each of the article's targets beside what the fix alone reached in this run, and whether it met it. */
export function targetRows(reached: { times: number; reqPerSec: number }): Record<string, string>[] {
  return publishedEtag.cost.targets.map((t) => {
    const value = t.kind === "times" ? reached.times : reached.reqPerSec;
    return {
      "the article's target": t.text,
      "the fix, this run": t.kind === "times" ? wb.times(value) : `${wb.fmt(value)} req/s`,
      met: value >= t.value ? "yes" : "no",
    };
  });
}

// What only this notebook does with the article's figures (wb.published.etag: the article's rows, its
// cost argument, its timer and its claims; notebook 03 reads its Fastify-over-restify figure too).

export function publishedEtagRow(step: EtagStep): EtagPublishedRow {
  const row = publishedEtag.rows.find((r) => r.step === step);
  if (!row) throw new Error(`publishedEtag has no row for step ${JSON.stringify(step)}`);
  return row;
}

export interface EtagRatio {
  name: string;
  /** reqPerSec of `to` divided by reqPerSec of `from`. */
  ratio: number;
  fromConnections: number;
  toConnections: number;
  /** False when the two rows were measured at different connection counts. */
  likeForLike: boolean;
}

/** The article's two headline ratios: the fix (fixed / slow) and the optimisation (optimised / fixed); `likeForLike` is false for the optimisation (100 vs 10 connections). */
export function publishedEtagRatios(): { fix: EtagRatio; optimisation: EtagRatio } {
  const ratio = (name: string, from: EtagStep, to: EtagStep): EtagRatio => {
    const a = publishedEtagRow(from);
    const b = publishedEtagRow(to);
    return {
      name,
      ratio: b.reqPerSec / a.reqPerSec,
      fromConnections: a.connections,
      toConnections: b.connections,
      likeForLike: a.connections === b.connections,
    };
  };
  return { fix: ratio("fix", "slow", "fixed"), optimisation: ratio("optimisation", "fixed", "optimised") };
}

/** A published row read with Little's law (wb.littlesLaw), named by its step. */
export type EtagInFlight = EtagPublishedRow & wb.InFlight;

/**
 * Little's law on each of the article's rows. The optimised row is far below its connections: its
 * 10 connections answered in 0.64 ms each would have made 15,600 req/s, so the generator, not the
 * server, set that row's pace.
 */
export function publishedEtagInFlight(): EtagInFlight[] {
  return publishedEtag.rows.map((r) => ({ ...r, ...wb.littlesLaw({ ...r, name: r.step }) }));
}

/** One loop size of the timer experiment, with what the article's arithmetic and the loop's own rule predict. */
export interface TimerRuleRow {
  loopSize: number;
  /** How long the loop held the thread, and when the timer fired (medians of the trials), ms. */
  blockedMs: number;
  firedMs: number;
  /** The article's arithmetic: the delay, then the loop (delay + loop). */
  sumMs: number;
  /** The loop's rule: the timer is due at its delay and fires when the loop lets go (the longer of the two). */
  maxMs: number;
  /** Which of the two the measured time lies nearer. */
  nearer: "sum" | "max";
}

/**
 * Each row of `wb.timerDrift` beside both predictions: the article's (the delay plus the loop: it reasons
 * that a 100 ms loop makes a 100 ms timer fire at 200 ms) and max(delay, loop), the timer's countdown
 * running during the loop; `nearer` says which the measured time lies nearer.
 */
export function timerRules(
  drift: readonly { loopSize: number; scheduledMs: number; blockedMs: number; actualMs: number }[],
): TimerRuleRow[] {
  return drift.map((r) => {
    const sumMs = r.scheduledMs + r.blockedMs;
    const maxMs = Math.max(r.scheduledMs, r.blockedMs);
    const nearer = Math.abs(r.actualMs - maxMs) <= Math.abs(r.actualMs - sumMs) ? "max" : "sum";
    return { loopSize: r.loopSize, blockedMs: r.blockedMs, firedMs: r.actualMs, sumMs, maxMs, nearer };
  });
}

/**
 * The article's timer arithmetic against this run's: what it says (150-250 ms, reasoned as delay + loop),
 * which rule the measured times lie nearer, and why the sum overcounts (the timer's delay runs while
 * the loop does); also what the article's own range says of its loop under either rule.
 */
export function timerRulesText(rows: readonly TimerRuleRow[]): string {
  const T = publishedEtag.timer;
  const nearMax = rows.filter((r) => r.nearer === "max").length;
  const longest = rows.reduce((a, r) => (r.blockedMs > a.blockedMs ? r : a));
  const [lo, hi] = T.rangeMs;
  return (
    `The article says the ${T.delayMs} ms timer fires after ${lo}-${hi} ms, and reasons that a ` +
    `${T.reasoned.loopMs} ms loop makes it ${T.reasoned.firesAtMs} ms: the delay, then the loop. This run's times ` +
    `lie nearer the longer of the two in ${nearMax} of ${rows.length} loop sizes; with the longest loop ` +
    `(${wb.fmt(longest.blockedMs)} ms) the timer fired after ${wb.fmt(longest.firedMs)} ms, where the sum ` +
    `gives ${wb.fmt(longest.sumMs)} ms and the longer ${wb.fmt(longest.maxMs)} ms. The timer's ${T.delayMs} ms ` +
    "count from the `setTimeout` call and run while the loop holds the thread, so the two overlap: the timer is " +
    "due at its delay, and fires as soon as the loop lets go. The article's own range fits either rule: a " +
    `loop of ${lo}-${hi} ms by the longer, of ${lo - T.delayMs}-${hi - T.delayMs} ms by the sum; it does not say ` +
    "how long its loop took."
  );
}

/**
 * The article's yardstick (a Hello World server serves about 30,000 req/s on its machine, against its
 * slow server's 23.1) beside this run's: each as req/s, and the Hello World's over the slow server's.
 */
export function helloRows(hello: number, slow: number): Record<string, string | number>[] {
  const pub = publishedEtag;
  const slowPub = publishedEtagRow("slow").reqPerSec;
  return [
    {
      "": "the article",
      "Hello World req/s": pub.helloWorldReqPerSec,
      "slow server req/s": slowPub,
      "Hello World over slow": wb.times(pub.helloWorldReqPerSec / slowPub),
    },
    {
      "": "this run",
      "Hello World req/s": hello,
      "slow server req/s": slow,
      "Hello World over slow": wb.times(hello / slow),
    },
  ];
}

/**
 * The first warning a process printed under `--trace-warnings`, as far as the app's own frame: the
 * warning line, then its stack down to and including the first frame in `file` (the end of a path,
 * "etag-warning/util.js"). Node's own frames come first (node:events, node:internal/...), so cutting
 * the stack after a fixed number of lines would print only those. All of the warning's frames when
 * none is in `file`; none when the process printed no warning.
 */
export function warningTrace(stderr: string, file: string): string[] {
  const lines = stderr.split("\n");
  const start = lines.findIndex((l) => /Warning: /.test(l));
  if (start < 0) return [];
  const frames: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!/^\s+at /.test(line)) break;
    frames.push(line);
    if (line.includes(`/${file}:`) || line.includes(`(${file}:`)) break;
  }
  return [lines[start], ...frames];
}

export interface FileShare {
  /** The file's frames' attributed shares added up: the busy samples whose nearest app frame is in the file. */
  share: number;
  /** The app's frames in that file, by attributed share, hottest first. */
  frames: wb.HotFrame[];
}

/**
 * How much of the busy CPU one file of the app's own code accounts for: the attributed shares
 * (own time plus the Node, native and dependency time it caused) of its frames, added up. Each
 * busy sample is attributed to one app frame only, so the sum counts nothing twice. `file` is the
 * end of the path, e.g. "etag-fixed/util.js". Throws when the profile has no app frame in the file.
 */
export function fileShare(flame: wb.FlameData, file: string): FileShare {
  const frames = flame.hot
    .filter((h) => h.category === "user" && h.file.endsWith(file))
    .sort((a, b) => b.attributedShare - a.attributedShare);
  if (frames.length === 0)
    throw new wb.WorkbookError(
      "WB_BAD_OPTION",
      `fileShare: no frame of the app's code in a file ending ${JSON.stringify(file)} in this profile`,
    );
  return { share: frames.reduce((a, h) => a + h.attributedShare, 0), frames };
}

// Sentences whose wording depends on the run (tests/unit/etag-study.test.js).

/** The measured seconds with at least one answer and their latency (autocannon's seconds: wrk has none) of each fresh app, in order. */
function measuredSeconds(fresh: FreshLoadResult) {
  return fresh.runs.map((r) =>
    r.series
      .filter((s) => s.run !== "warm-up" && (s.reqPerSec ?? 0) > 0)
      .flatMap((s) => (s.latencyP99Ms === null ? [] : [{ ...s, latencyP99Ms: s.latencyP99Ms }])),
  );
}

/** The slow server measured as section 1 does: one fresh server per measured run. */
export interface FreshLoadResult {
  label: string;
  /** One load per fresh server, each one measured run. */
  runs: wb.LoadResult[];
  /** req/s and CPU time per request: median and range across the fresh servers (CPU null where not read). */
  reqPerSec: wb.Spread;
  cpuPerRequestUs: wb.Spread | null;
}

/**
 * For a server whose speed depends on its history (the slow etag server slows down with every
 * request it serves): `runs` fresh servers of `app`, one measured run each, so the spread across
 * runs is the machine's noise, not the server's age. `load`: `wb.runLoad`'s options but `target` and
 * `repeats` (only the first server draws a live chart). Throws `WB_BAD_OPTION` unless `runs` is an
 * integer >= 1, and whatever `wb.withApp` and `wb.runLoad` throw.
 */
export async function freshLoad(
  app: string,
  load: Omit<wb.LoadOptions, "target" | "repeats">,
  runs = wb.settings().repeats,
): Promise<FreshLoadResult> {
  if (!Number.isInteger(runs) || runs < 1) {
    throw new wb.WorkbookError("WB_BAD_OPTION", `freshLoad: runs must be an integer >= 1, got ${runs}`);
  }
  const label = load.label ?? `${app} ${load.path ?? "/"}`;
  const out: wb.LoadResult[] = [];
  for (let i = 0; i < runs; i++) {
    const live = (load.live ?? true) && i === 0; // one live chart is enough: the others look the same
    const one = { ...load, repeats: 1, live, label: `${label} (fresh server ${i + 1} of ${runs})` };
    out.push(await wb.withApp(app, (target) => wb.runLoad({ ...one, target })));
  }
  const cpu = out.map((r) => r.cpuPerRequestUs?.median ?? null);
  return {
    label,
    runs: out,
    reqPerSec: wb.spread(out.map((r) => r.reqPerSec.median)),
    cpuPerRequestUs: cpu.every((c) => c !== null) ? wb.spread(cpu as number[]) : null,
  };
}

/** How many of the fresh apps had a last second's p99 above `factor` x their first second's: a server that slows as it serves. */
export function slowdownCount(fresh: FreshLoadResult, factor = 1.2): { climbing: number; of: number } {
  const seconds = measuredSeconds(fresh);
  const climbing = seconds.filter(
    (s) => s.length >= 2 && s[s.length - 1].latencyP99Ms > factor * s[0].latencyP99Ms,
  ).length;
  return { climbing, of: seconds.length };
}

/** In how many fresh servers the last measured second's p99 was more than `factor` times the first's: all (the servers slow down as they serve), none, or some. */
export function slowdownText(fresh: FreshLoadResult, factor = 1.2): string {
  const { climbing, of } = slowdownCount(fresh, factor);
  const head = `In **${climbing} of ${of}** fresh servers the p99 of the last measured second was more than ${factor}x that of the first`;
  if (climbing === of) return `${head}: the servers slow down as they serve.`;
  if (climbing === 0) return `${head}: no sign of a slowdown in this run.`;
  return `${head}: some slowed down within their run, some did not (a noisy second can hide a trend this short).`;
}

/**
 * How a server compared with its ceiling (a plain node:http server doing the same work), from
 * round-by-round req/s ratios, in the words their interval allows (`wb.compared`): slower by how much
 * (and whether within 10 % of it), no difference, too few rounds, or faster, which asks to check that
 * the two still do the same work.
 */
export function ceilingText(server: string, ceiling: string, fraction: wb.Spread): string {
  const c = wb.compared({ values: fraction.runs }, { a: server, b: ceiling, more: "faster", less: "slower" });
  if (c.kind === "more") return `${c.text}: check that the two still do the same work.`;
  if (c.kind === "less" && c.median >= 0.9) return `${c.text}, within 10 % of it.`;
  return `${c.text}.`;
}

/**
 * Little's law read out over published rows (publishedEtagInFlight): each row's requests in flight,
 * and the row furthest from its connections with the req/s its latency implies. Computed from the
 * quoted figures, so that a row the generator limited is named by arithmetic, not by assertion.
 */
export function inFlightText(rows: readonly EtagInFlight[]): string {
  if (rows.length === 0) return "No published rows to read.";
  const each = rows.map((r) => `${r.name}, ${wb.fmt(r.inFlight)} of ${r.connections} (${wb.pct(r.busyShare)})`);
  const low = rows.reduce((a, b) => (b.busyShare < a.busyShare ? b : a));
  const implied = low.connections / (low.meanLatencyMs / 1000);
  return (
    `By Little's law, requests in flight = req/s × mean latency: ${each.join("; ")}. ` +
    `The ${low.name} row is furthest from its connections: ${low.connections} connections answered in ` +
    `${wb.fmt(low.meanLatencyMs)} ms each would make ${wb.fmt(Math.round(implied))} req/s, and the article measured ` +
    `${wb.fmt(low.reqPerSec)}. For ${wb.pct(1 - low.busyShare)} of the time a connection was not waiting on the server: ` +
    "something else set that row's pace, most likely the generator, which shared the article's machine with the server."
  );
}

/**
 * The source text (trimmed) of the line a frame of the app or a dependency starts on: for an
 * anonymous function, the only name a profile gives it. Null for node: and native frames, or when
 * the file cannot be read.
 */
export function frameSource(frame: Pick<wb.HotFrame, "category" | "file" | "line">): string | null {
  if (frame.category !== "user" && frame.category !== "dependency") return null;
  try {
    return fs.readFileSync(path.resolve(wb.repoRoot, frame.file), "utf8").split("\n")[frame.line - 1]?.trim() ?? null;
  } catch {
    return null;
  }
}
