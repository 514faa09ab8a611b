import { badOption } from "../core/errors";
import { fmt, pct, plural, times } from "../core/format";
import { cpuList, type Pinning, sharedCpus } from "../core/pinning";
import type { Spread } from "../core/stats";
import type { FreshLoadResult } from "../load/fresh";
import type { DoctorResult } from "../profiles/clinic";
import { doctorSampling } from "../profiles/doctor";
import type { EtagInFlight } from "../published/etag";
import type { PublishedTable } from "../published/frameworks";
import type { InFlight } from "../published/little";

/** Findings of the lessons whose wording depends on the run: each a small function, tested in tests/unit/prose.test.js. */

/** The measured seconds with at least one answer and their latency (autocannon's seconds: wrk has none) of each fresh app, in order. */
function measuredSeconds(fresh: FreshLoadResult) {
  return fresh.runs.map((r) =>
    r.series
      .filter((s) => s.run !== "warm-up" && (s.reqPerSec ?? 0) > 0)
      .flatMap((s) => (s.latencyP99Ms === null ? [] : [{ ...s, latencyP99Ms: s.latencyP99Ms }])),
  );
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
 * clinic doctor's verdict and how densely it sampled under load: its timer is a callback on the app's
 * own event loop, so a blocked loop starves it of samples, which is itself the finding.
 */
export function doctorText(d: DoctorResult): string {
  const issues = Object.entries(d.data.analysis.issues ?? {})
    .filter(([, v]) => v === "performance")
    .map(([k]) => k);
  const s = doctorSampling(d.data);
  const verdict = `Doctor's verdict: **${d.data.analysis.issueCategory}**; flagged as a performance issue: **${issues.join(", ") || "nothing"}**.`;
  if (s.underLoad.length < 2) return `${verdict} It took ${s.samples} samples, fewer than two of them under load.`;
  return (
    `${verdict} It asks for a sample every ${s.intervalMs} ms and took **${s.underLoad.length} under load** ` +
    `over ${fmt(s.loadSpanSeconds)} s, where its interval would have given about ${fmt(s.expectedUnderLoad)}: one every ` +
    `**${fmt(s.medianGapMs)} ms** (median gap). Its timer waits on the same blocked loop, so it samples only between long ticks. ` +
    `Active handles: ${s.idleHandles} idle, ${s.peakHandles} at the peak (${s.peakHandles - s.idleHandles} for the load's connections).`
  );
}

/** How close a server came to its ceiling (a plain node:http server doing the same work), from round-by-round fractions: within 10 %, short by how much, or above it (check that the two still do the same work): "92 % of its ceiling (rounds 88–97 %)". */
export function ceilingText(server: string, ceiling: string, fraction: Spread): string {
  const range = fraction.runs.length > 1 ? `rounds ${pct(fraction.min)}–${pct(fraction.max)}` : "one round";
  if (fraction.min > 1)
    return `${server} ran above ${ceiling} in every round (${range}): check that the two still do the same work.`;
  if (fraction.median > 1.1)
    return `${server} reached **${pct(fraction.median)}** of ${ceiling}, above it (${range}): check that the two still do the same work.`;
  if (fraction.median >= 0.9)
    return `${server} reached **${pct(fraction.median)}** of ${ceiling}: within 10 % (${range}).`;
  return `${server} reached **${pct(fraction.median)}** of ${ceiling}: ${pct(1 - fraction.median)} short (${range}).`;
}

/** "3 of 5 rounds" style counts for prose. */
export function countText(k: number, n: number, what: string): string {
  return `${k} of ${plural(n, what)}`;
}

/**
 * Where blocks hurt: the share of the loop they took (ELU with them minus ELU without). Below half,
 * most requests never meet one and the blocks decide the tail; above, they reach the median too.
 */
export function blockShareText(eluWith: number, eluWithout: number): string {
  const share = eluWith - eluWithout;
  if (share <= 0)
    return `The loop was busy ${pct(eluWith)} of the time (ELU, read inside the app), against ${pct(eluWithout)} without the blocks: no more with them, so the blocks were too short or too rare to measure here.`;
  const head = `The loop was busy ${pct(eluWith)} of the time (ELU, read inside the app), against ${pct(eluWithout)} without the blocks: they took about ${pct(share)} of it`;
  if (share < 0.5)
    return `${head}, less than half, so most cheap requests never meet a block: the blocks decide p90 and p99 far more than the median.`;
  return `${head}, more than half, so most cheap requests meet a block: the blocks reach the median too.`;
}

/** Whether the paced load generator kept its schedule: its worst p99 send lag against the gap between two requests. */
export function scheduleText(lag: { p99: number; worst: string }, gapMs: number): string {
  const head = `The load generator sent each request at most ${fmt(lag.p99)} ms late at p99 (worst: ${lag.worst})`;
  if (lag.p99 > gapMs)
    return `${head}: more than the ${fmt(gapMs)} ms between two requests, so it was saturated, and that lag is part of the latencies above.`;
  return `${head}, below the ${fmt(gapMs)} ms between two requests: it kept its schedule, and the latencies are the apps'.`;
}

/**
 * A retainer path (profiles/heap-snapshot.ts) in words: the chain from a GC root, and the variable
 * that holds the growing objects, found as the last reference from a closure's context (where a
 * module-level `const` of a CommonJS module lives) to a collection.
 */
export function retainerText(path: readonly { holder: string; edge: string; edgeType: string }[]): string {
  if (path.length === 0) return "Nothing reached the object from a GC root: it was garbage, waiting for a collection.";
  const link = (s: { holder: string; edge: string; edgeType: string }) =>
    s.edgeType === "element" || s.edgeType === "internal" ? `${s.holder} ${s.edge}` : `${s.holder}.${s.edge}`;
  const chain = path.map((s) => `\`${link(s)}\``).join(" → ");
  const k = path.map((s) => s.edgeType).lastIndexOf("context");
  if (k < 0) return `The chain of references from a GC root: ${chain}.`;
  const container = path[k + 1]?.holder ?? "an object";
  return (
    `The chain of references from a GC root: ${chain}. The growing objects hang off **\`${path[k].edge}\`**, ` +
    `a **${container}** held by a variable of a closure's scope (in a CommonJS module, a module-level variable lives there): ` +
    "as long as the module's functions are alive, so is everything in it."
  );
}

/**
 * Little's law read out over published rows (publishedEtagInFlight): each row's requests in flight,
 * and the row furthest from its connections with the req/s its latency implies. Computed from the
 * quoted figures, so that a row the generator limited is named by arithmetic, not by assertion.
 */
export function inFlightText(rows: readonly EtagInFlight[]): string {
  if (rows.length === 0) return "No published rows to read.";
  const each = rows.map((r) => `${r.name}, ${fmt(r.inFlight)} of ${r.connections} (${pct(r.busyShare)})`);
  const low = rows.reduce((a, b) => (b.busyShare < a.busyShare ? b : a));
  const implied = low.connections / (low.meanLatencyMs / 1000);
  return (
    `By Little's law, requests in flight = req/s × mean latency: ${each.join("; ")}. ` +
    `The ${low.name} row is furthest from its connections: ${low.connections} connections answered in ` +
    `${fmt(low.meanLatencyMs)} ms each would make ${fmt(Math.round(implied))} req/s, and the article measured ` +
    `${fmt(low.reqPerSec)}. For ${pct(1 - low.busyShare)} of the time a connection was not waiting on the server: ` +
    "something else set that row's pace, most likely the generator sharing the laptop."
  );
}

/**
 * Little's law on a published table's row (publishedInFlight) against the connections its command
 * asked for and those its generator could open (connections - connectErrors): which of the two the
 * requests in flight match, computed from the quoted figures.
 */
export function openConnectionsText(table: PublishedTable, row: InFlight): string {
  const law = `By Little's law the ${row.name} row kept ${fmt(row.reqPerSec)} req/s × ${fmt(row.meanLatencyMs)} ms = ${fmt(row.inFlight)} requests in flight, ${pct(row.busyShare)} of the ${fmt(table.connections)} connections \`${table.command}\` asked for.`;
  if (table.connectErrors === undefined) return law;
  const open = table.connections - table.connectErrors;
  const nearOpen = Math.abs(row.inFlight - open) < Math.abs(row.inFlight - table.connections);
  return (
    `${law} Its generator printed ${fmt(table.connectErrors)} connect errors a run: ${fmt(open)} connections were open, ` +
    `and ${fmt(row.inFlight)} of them busy is ${pct(row.inFlight / open)}. ` +
    (nearOpen
      ? `The table was measured at about ${fmt(open)} connections, not the ${fmt(table.connections)} its command line says.`
      : `In flight sits nearer the ${fmt(table.connections)} asked for than the ${fmt(open)} open: the errors do not explain the row.`)
  );
}

/**
 * What this machine's cores let notebook 07 show, said before it runs: the server's and the load
 * generator's cores, whether they overlap (contended numbers), and whether a curve over cores can
 * be drawn (two or more server cores) or only "more workers than cores".
 */
export function coresPlanText(p: Pinning, levels: readonly number[]): string {
  if (!p.enabled) {
    return (
      `Pinning is off (${p.reason}): the server's workers and the load generator share every core, so each ` +
      "figure below is contended, and more workers can look faster only by taking CPU from the generator."
    );
  }
  const server = cpuList(p.server!) ?? [];
  const generator = cpuList(p.generator!) ?? [];
  const shared = sharedCpus(p);
  const where = `The server gets ${plural(server.length, "core")} (CPU ${p.server}) and the load generator ${plural(generator.length, "core")} (CPU ${p.generator})`;
  const contended = shared.length
    ? ` They share CPU ${shared.join(", ")}: every figure below is contended, the generator taking time from the workers.`
    : "";
  const more = levels.filter((n) => n > server.length);
  const curve =
    server.length >= 2
      ? ` Up to ${plural(server.length, "worker")} each has a core${shared.length ? " (one the generator also uses)" : " of its own"}, so req/s should climb with the workers${shared.length ? ", less than the cores alone would give" : ""}; ${more.join(" and ")} workers share the cores (more workers than cores).`
      : ` With one server core there is no curve to draw: ${levels.filter((n) => n > 1).join(" and ")} workers take turns on that core, which is the lesson "more workers than cores". On a machine with four cores or more, set WORKBOOK_SERVER_CPUS and WORKBOOK_GENERATOR_CPUS (for example 1-3 and 0) to see the curve.`;
  return `${where}.${contended}${curve}`;
}

/** One route's CPU time per request for two servers (µs): `a` the one compared against. */
export interface RouteCost {
  route: string;
  a: number;
  b: number;
}

/**
 * Whether more work per request narrowed the gap between two servers: b's CPU time per request over
 * a's on each route, in the order given (cheapest route first), and what the last route did to the
 * first route's gap (a change under 10 % is "about the same").
 */
export function routeGapText(a: string, b: string, rows: readonly RouteCost[]): string {
  if (rows.length < 2)
    throw badOption("routeGapText", `needs two routes or more, the cheapest first; got ${rows.length}`);
  const gaps = rows.map((r) => ({ route: r.route, gap: r.b / r.a }));
  const each = gaps.map((g) => `${times(g.gap)} on \`${g.route}\``);
  const first = gaps[0];
  const last = gaps[gaps.length - 1];
  const change = last.gap / first.gap;
  let verdict = `the gap stayed about the same from \`${first.route}\` to \`${last.route}\``;
  if (change < 0.9) verdict = `the extra work of \`${last.route}\` narrowed the gap`;
  if (change > 1.1) verdict = `the extra work of \`${last.route}\` widened the gap`;
  return `${b} used ${each.join(", ")} of ${a}'s CPU time per request: ${verdict}.`;
}
