import { fmt, pct, times } from "@workbook/harness";
import type { Frame } from "@workbook/harness/internal";
import { packageOf } from "./callers";
import { frameText, top } from "./checks";
import type { Evidence } from "./evidence";
import { BUSY_KINDS, BUSY_NAMES, type BusyKind } from "./kinds";
import { pathText } from "./paths";
import type { RegexRun } from "./regex";
import type { Thresholds } from "./thresholds";
import { costliestPackage } from "./yardstick";

/**
 * The sentences a verdict prints beside its numbers: where the busy time went, how the loop stalled,
 * whether requests queued, where to look (frames, lines, allocation sites) and what to do. Each is
 * worded for the verdict it is printed under: a healthy loop's stalls and queue are not described as
 * a blocked one's.
 */

/** "the app's own code 78 %, Node's own request handling 15 %, ..." (kinds of at least 1 %, largest first). */
export function busyText(shares: Record<BusyKind, number>): string {
  const text = BUSY_KINDS.filter((k) => shares[k] >= 0.01)
    .sort((a, b) => shares[b] - shares[a])
    .map((k) => `${BUSY_NAMES[k]} ${pct(shares[k])}`)
    .join(", ");
  return text || "nowhere (no busy sample)";
}

/** How the loop stalled: for a problem, long stalls or many short ones; for a healthy loop, only what it measured. */
export function stallText(e: Evidence, T: Thresholds, healthy = false): string {
  const typical = `${fmt(e.stallMs)} ms at a time (typical), ${fmt(e.maxStallMs)} ms at most`;
  if (healthy)
    return e.stallMs >= T.LONG_STALL_MS ? `stalls of ${typical}` : `no long stall: the loop was held up ${typical}`;
  return e.stallMs >= T.LONG_STALL_MS
    ? `long stalls: the loop was held up ${typical}`
    : `many short stalls: ${fmt(e.stallMs)} ms at a time (typical, under ${T.LONG_STALL_MS} ms), the loop hardly ever free`;
}

/** Whether requests queued behind the work (latency against the CPU a request costs); for a healthy busy loop, that they take turns. */
export function queueText(e: Evidence, healthy = false): string {
  if (e.cpuPerRequestMs === null || e.latencyOverCpu === null)
    return "the CPU per request was not read: no queueing figure";
  const took = `a request took ${fmt(e.latencyP50Ms)} ms at p50`;
  const cpu = `the ${fmt(e.cpuPerRequestMs)} ms of CPU it costs`;
  if (healthy)
    return e.latencyOverCpu >= 3
      ? `${took}, ${times(e.latencyOverCpu)} ${cpu}: the load's connections take turns on a loop busy serving them`
      : `${took}, ${times(e.latencyOverCpu)} ${cpu}: hardly any wait`;
  const verb = e.latencyOverCpu >= 3 ? "requests queue" : "requests hardly queue";
  return `${verb}: ${took}, ${times(e.latencyOverCpu)} ${cpu}`;
}

/** A source line as printed: a long one (minified code) cut to its first 100 characters, its length said. */
export function lineText(text: string): string {
  return text.length > 120 ? `${text.slice(0, 100)} … (a line of ${text.length} characters)` : text;
}

/** The regular expression that ran longest, named only as far as the profile tells (busy.ts, RegexRun). */
export function regexText(r: RegexRun): string {
  const ran = `ran ${pct(r.share)} of the busy time`;
  const by = r.caller ? ` (in ${r.caller.name})` : "";
  if (r.from === "frame")
    return `the regular expression /${r.pattern}/ ${ran} (V8's own frame)${r.caller ? `, run by ${r.caller.name} (${r.caller.file}:${r.caller.line})` : ""}`;
  const at = r.line ? `${r.line.file}:${r.line.line} \`${lineText(r.line.text)}\`` : "a line of the app";
  if (r.pattern !== null) return `the regular expression /${r.pattern}/ ${ran}, on ${at}${by}`;
  const which = r.candidates.map((c) => `/${c}/`).join(" or ");
  return `a regular expression ${ran}, on ${at}${by}: which one could not be told (the line may run ${which})`;
}

/** What to do, by what the busy time went to. */
export const ADVICE: Record<BusyKind | "memory" | "waiting", string> = {
  gc: "what to do: allocate less per request (reuse, stream, smaller objects) and keep less alive across requests",
  syncIo: "what to do: use the asynchronous calls (fs.promises, spawn), or read once and keep the result",
  regex:
    "what to do: rewrite the expression without nested quantifiers, or bound its input's length, or run it on a linear-time engine (re2)",
  native:
    "what to do: use the asynchronous form (crypto.pbkdf2, zlib.gzip: libuv's pool runs them), or do less of the work",
  app: "what to do: make the hottest function cheaper, or move the work off the main thread (a worker thread, another process)",
  dependency: "what to do: call it less (compile or build once and keep it), or use a cheaper one",
  framework:
    "what to do: the framework's own handling costs more here than on its hello route: fewer middleware and hooks on this route, or a lighter framework",
  node: "what to do: Node's own handling costs more than a bare answer's: fewer and larger writes per answer, smaller answers, no per-request socket or timer set-up",
  memory:
    "what to do: find what keeps growing: the allocation sites below, or two heap snapshots compared (notebook 04)",
  waiting:
    "what to do: the time goes to what requests await (a database, another service, a timer): look there; the server itself has headroom",
};

/**
 * What to do about `kind` in this run: ADVICE's, except for a regular expression that a package's code
 * runs, which is not the app's to rewrite: the app can call that package less, or use another.
 */
export function adviceFor(e: Evidence, kind: BusyKind): string {
  const by = kind === "regex" ? e.busy.regex?.caller : null;
  if (by?.category !== "dependency") return ADVICE[kind];
  return `what to do: the expression is ${packageOf(by.file)}'s, run by its ${by.name}: call it less (keep what it returns), or use a cheaper package`;
}

/** "the app's handle (srv.js:9)", "router's handle (node_modules/router/index.js:120)". */
function frameWhose(f: Frame): string {
  const whose = { user: "the app's", dependency: `${packageOf(f.file)}'s` }[f.category as string] ?? "Node's";
  return `${whose} ${f.name} (${f.file ? `${f.file}:${f.line}` : "native"})`;
}

/**
 * The hot path of a kind of busy time, as lines (paths.ts): for a dependency's code, the package that
 * cost most beyond the reference; from the code that asked to the leaf, who called it, and the app's
 * line behind it. None where the profile kept no path of that kind.
 */
export function pathLines(e: Evidence, kind: BusyKind): string[] {
  const y = e.yardstick;
  const pkg = y && (kind === "dependency" || kind === "framework") ? costliestPackage(y, kind) : null;
  const path = (e.busy.paths ?? []).find((p) => p.kind === kind && (pkg === null || p.package === pkg));
  if (!path) return [];
  const whose = path.package ? `${path.package}'s` : "the app's";
  const by = path.calledBy ? `, called by ${frameWhose(path.calledBy)}` : "";
  const line = path.line ? [`the app's line: ${path.line.file}:${path.line.line} \`${lineText(path.line.text)}\``] : [];
  return [`hot path (${whose} code, ${pct(path.share)} of the busy time): ${pathText(path.frames)}${by}`, ...line];
}

/** Where, for each saturated verdict and for memory: the frames, paths and lines a learner goes to. */
export function where(e: Evidence): Record<BusyKind | "memory", string[]> {
  const hottest = top(e.hot).map((h) => `hot: ${frameText(h)}`);
  const line = e.hottestLine
    ? [`hottest line: ${e.hottestLine.file}:${e.hottestLine.line} \`${lineText(e.hottestLine.text ?? "")}\``]
    : [];
  const sites = top(e.allocationSites).map((h) => `allocated at: ${frameText(h, "of sampled bytes")}`);
  const under = (test: (name: string, file: string) => boolean) =>
    e.flame.hot
      .filter((h) => test(h.name, h.file))
      .sort((a, b) => b.totalShare - a.totalShare)
      .slice(0, 1)
      .map((h) => `under ${frameText(h, "of busy CPU", h.totalShare)}`);
  const caller = e.flame.hottestUser ? [`called from ${frameText(e.flame.hottestUser)}`] : [];
  const r = e.busy.regex;
  // the hottest line, unless it is the one the expression was named on
  const sameLine = r?.line && e.hottestLine && r.line.file === e.hottestLine.file && r.line.line === e.hottestLine.line;
  const gcKinds = Object.entries(e.gcByKind)
    .sort((a, b) => b[1] - a[1])
    .map(([k, ms]) => `${k} ${fmt(ms)} ms`)
    .join(", ");
  const appPath = pathLines(e, "app");
  return {
    gc: [
      `${fmt(e.gcCount)} collections (${gcKinds}), ${pct(e.gcShare)} of wall time; ${fmt(e.allocMBps ?? NaN)} MB/s allocated`,
      ...sites,
    ],
    syncIo: [
      ...under((n, f) => /Sync$/.test(n) && /^node:(internal\/)?(fs|child_process)\b/.test(f)),
      ...caller,
      ...pathLines(e, "syncIo"),
    ],
    regex: [...(r ? [regexText(r)] : []), ...caller, ...(sameLine ? [] : line)],
    native: [...under((_, f) => /^node:(internal\/)?(crypto|zlib)\b/.test(f)), ...caller, ...pathLines(e, "native")],
    app: [...hottest, ...appPath, ...(appPath.length > 1 ? [] : line)],
    dependency: [...pathLines(e, "dependency"), ...hottest],
    framework: [...pathLines(e, "framework"), ...hottest],
    node: hottest,
    memory: sites,
  };
}
