import { fmt, pct, times } from "../core/format";
import { BUSY_KINDS, BUSY_NAMES, type BusyKind, dominant } from "./busy";
import { type Check, check, checkText, frameText, top } from "./checks";
import type { Evidence } from "./evidence";
import { THRESHOLDS, type Thresholds } from "./thresholds";

/**
 * The rules. A diagnosis asks whether memory climbs (the heap, or memory outside it, that a full
 * collection leaves growing), and how busy the event loop was:
 *   - saturated (utilisation at or above the busy line): the verdict names what the busy time went
 *     to (busy.ts): the largest of garbage collection, synchronous I/O, a regular expression, Node's
 *     native synchronous calls, the app's own code and a dependency's code, when its share reaches the
 *     blocking line; otherwise the busy time went to Node's own request handling, and that is healthy:
 *     a fast server under a closed-loop load keeps its loop busy with HTTP, the work it is for.
 *   - not saturated: waiting when a request takes many times the CPU it costs (the loop is free and
 *     the request waits on I/O or timers); otherwise healthy: the loop has headroom.
 * Memory climbing comes first when it holds, with the loop's verdict beside it. Every verdict says
 * where the busy time went, whether the stalls were long or many short ones, and whether requests
 * queued (latency against the CPU a request costs). The evidence is mixed when two findings hold, when
 * a deciding reading sits within NEAR of its line, or when the runner-up kind of busy time is close to
 * the largest.
 */
export type VerdictId = "memory-climbing" | "sync-io" | "gc-pressure" | "blocked" | "waiting" | "healthy";

/** Whose work blocks the loop, for a "blocked" verdict. */
export type BlockCause = "app" | "dependency" | "regex" | "native";

export interface Finding {
  id: VerdictId;
  title: string;
  fired: boolean;
  checks: Check[];
  /** Where: the hottest frames, the allocation sites, the growth. */
  details: string[];
}

export interface Verdict {
  id: VerdictId;
  /** For "blocked": whose work blocks the loop; null otherwise. */
  cause: BlockCause | null;
  title: string;
  /** The loop's reading: the kind of busy time that decided a saturated loop's verdict (null: not saturated). */
  busiest: BusyKind | null;
  /** Every rule, fired or not, with the numbers it compared (the report's table). */
  findings: Finding[];
  /** The other findings that fired. */
  also: Finding[];
  mixed: boolean;
  /** Why the evidence is mixed, one sentence each. */
  mixedBecause: string[];
  /** The verdict as printed: the title, each number against its threshold, the details. */
  lines: string[];
}

/** What a saturated loop's verdict is, by the kind of busy time that decided it. */
const SATURATED: Record<BusyKind, { id: VerdictId; cause: BlockCause | null; title: string }> = {
  gc: { id: "gc-pressure", cause: null, title: "GC pressure" },
  syncIo: { id: "sync-io", cause: null, title: "loop blocked by synchronous I/O" },
  regex: { id: "blocked", cause: "regex", title: "loop blocked by a regular expression" },
  native: { id: "blocked", cause: "native", title: "loop blocked by a native synchronous call" },
  app: { id: "blocked", cause: "app", title: "loop blocked by the app's own code" },
  dependency: { id: "blocked", cause: "dependency", title: "loop blocked by a dependency's code" },
  node: { id: "healthy", cause: null, title: "healthy" },
};

/** The kinds a saturated loop under the GC line is blocked by, the largest share: all but Node's own handling and GC. */
const LARGEST_AMONG: readonly BusyKind[] = BUSY_KINDS.filter((k) => k !== "node" && k !== "gc");
/** The kinds a verdict's own kind is compared with, for mixed evidence. */
const RIVALS: readonly BusyKind[] = BUSY_KINDS.filter((k) => k !== "node");

/** "the app's own code 78 %, Node's own request handling 15 %, ..." (kinds of at least 1 %, largest first). */
export function busyText(shares: Record<BusyKind, number>): string {
  const text = BUSY_KINDS.filter((k) => shares[k] >= 0.01)
    .sort((a, b) => shares[b] - shares[a])
    .map((k) => `${BUSY_NAMES[k]} ${pct(shares[k])}`)
    .join(", ");
  return text || "nowhere (no busy sample)";
}

function stallText(e: Evidence, T: Thresholds): string {
  return e.stallMs >= T.LONG_STALL_MS
    ? `long stalls: the loop was held up ${fmt(e.stallMs)} ms at a time (typical), ${fmt(e.maxStallMs)} ms at most`
    : `many short stalls: ${fmt(e.stallMs)} ms at a time (typical, under ${T.LONG_STALL_MS} ms), the loop hardly ever free`;
}

function queueText(e: Evidence): string {
  if (e.cpuPerRequestMs === null || e.latencyOverCpu === null)
    return "the CPU per request was not read: no queueing figure";
  const verb = e.latencyOverCpu >= 3 ? "requests queue" : "requests hardly queue";
  return `${verb}: a request took ${fmt(e.latencyP50Ms)} ms at p50, ${times(e.latencyOverCpu)} the ${fmt(e.cpuPerRequestMs)} ms of CPU it costs`;
}

/** The checks behind each reading, against `T`. */
function readings(e: Evidence, T: Thresholds) {
  const outside = e.external.keptMBps > e.heap.keptMBps;
  return {
    busy: check("event-loop utilisation", e.elu, ">=", T.BUSY_ELU, "share"),

    waiting: check("latency p50 over CPU per request", e.latencyOverCpu, ">=", T.WAITING_LATENCY_OVER_CPU, "x"),
    heap: check("growth of the heap kept after a full GC", e.heap.keptMBps, ">=", T.HEAP_KEPT_MB_S, "MB/s"),
    external: check(
      "growth of the memory outside the heap kept after a full GC",
      e.external.keptMBps,
      ">=",
      T.EXTERNAL_KEPT_MB_S,
      "MB/s",
    ),
    /** The memory reading that decides: outside the heap when it grew more than the heap. */
    outside,
  };
}

/** Where, for each saturated verdict and for memory: the frames and lines a learner goes to. */
function where(e: Evidence): Record<BusyKind | "memory", string[]> {
  const hottest = top(e.hot).map((h) => `hot: ${frameText(h)}`);
  const line = e.hottestLine
    ? [`hottest line: ${e.hottestLine.file}:${e.hottestLine.line} \`${e.hottestLine.text ?? ""}\``]
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
  const regex = r
    ? [
        `the regular expression /${r.pattern}/ ran ${pct(r.share)} of the busy time` +
          (r.caller ? `, run by ${r.caller.name} (${r.caller.file}:${r.caller.line})` : ""),
      ]
    : [];
  const gcKinds = Object.entries(e.gcByKind)
    .sort((a, b) => b[1] - a[1])
    .map(([k, ms]) => `${k} ${fmt(ms)} ms`)
    .join(", ");
  return {
    gc: [
      `${fmt(e.gcCount)} collections (${gcKinds}), ${pct(e.gcShare)} of wall time; ${fmt(e.allocMBps ?? NaN)} MB/s allocated`,
      ...sites,
    ],
    syncIo: [...under((n, f) => /Sync$/.test(n) && /^node:(internal\/)?(fs|child_process)\b/.test(f)), ...caller],
    regex: [...regex, ...caller, ...line],
    native: [...under((_, f) => /^node:(internal\/)?(crypto|zlib)\b/.test(f)), ...caller],
    app: [...hottest, ...line],
    dependency: hottest,
    node: hottest,
    memory: [
      `heapUsed ${fmt(e.heap.startMB)} → ${fmt(e.heap.endMB)} MB, kept after a full GC ${fmt(e.heap.keptStartMB)} → ${fmt(e.heap.keptEndMB)} MB; ` +
        `outside the heap (Buffers...) kept ${fmt(e.external.keptStartMB)} → ${fmt(e.external.keptEndMB)} MB; ` +
        `RSS ${fmt(e.rss.startMB)} → ${fmt(e.rss.endMB)} MB over ${fmt(e.seconds)} s`,
      ...sites,
    ],
  };
}

export function decide(e: Evidence, T: Thresholds = THRESHOLDS): Verdict {
  const r = readings(e, T);
  const shares = e.busy.shares;
  const places = where(e);
  const memoryCheck = r.outside ? r.external : r.heap;
  const saturated = r.busy.holds;
  const shareLine = `where the busy time went: ${busyText(shares)}`;
  let busiest: BusyKind | null = null;
  let loop: { id: VerdictId; cause: BlockCause | null; title: string };
  let details: string[];
  const largest = dominant(shares, LARGEST_AMONG);
  const gc = check("share of busy time in garbage collection", shares.gc, ">=", T.GC_SHARE, "share");
  const blocking = check(
    `share of busy time in ${BUSY_NAMES[largest]}`,
    shares[largest],
    ">=",
    T.BLOCKING_SHARE,
    "share",
  );
  if (saturated) {
    if (gc.holds) busiest = "gc";
    else busiest = blocking.holds ? largest : "node";
    loop = SATURATED[busiest];
    details = [shareLine, stallText(e, T), queueText(e), ...places[busiest]];
  } else if (r.waiting.holds) {
    loop = { id: "waiting", cause: null, title: "waiting on I/O or timers" };
    const cpu = fmt(e.cpuPerRequestMs ?? NaN);
    details = [
      `a request took ${fmt(e.latencyP50Ms)} ms at p50 for ${cpu} ms of CPU; the app used ${fmt(e.cpuPercent)} % of a core`,
      shareLine,
    ];
  } else {
    loop = { id: "healthy", cause: null, title: "healthy" };
    details = [shareLine];
  }
  const loopFinding: Finding = {
    id: loop.id,
    title: loop.title,
    fired: loop.id !== "healthy",
    checks: saturated ? [r.busy, gc.holds ? gc : blocking] : [r.busy, r.waiting],
    details,
  };
  const memory: Finding = {
    id: "memory-climbing",
    title: "memory climbing",
    fired: memoryCheck.holds,
    checks: [memoryCheck],
    details: places.memory,
  };
  // Every rule for the report, fired or not: memory, the loop's reading, GC's line, waiting's.
  const findings = [memory, loopFinding];
  const primary = [memory, loopFinding].find((f) => f.fired) ?? null;
  const also = memory.fired && loopFinding.fired ? [loopFinding] : [];
  const deciding = [memoryCheck, r.busy, ...(saturated ? [gc, ...(gc.holds ? [] : [blocking])] : [r.waiting])];
  const rival =
    busiest && busiest !== "node"
      ? dominant(
          shares,
          RIVALS.filter((k) => k !== busiest),
        )
      : null;
  const mixedBecause = [
    ...also.map((f) => `${f.title} holds too`),
    ...deciding.filter((c) => c.near).map((c) => `close to the line: ${checkText(c)}`),
    ...(busiest && rival && shares[rival] >= T.RUNNER_UP_CLOSE * shares[busiest]
      ? [
          `${BUSY_NAMES[rival]} (${pct(shares[rival])}) is ${shares[rival] > shares[busiest] ? "larger than" : "close to"} ` +
            `${BUSY_NAMES[busiest]} (${pct(shares[busiest])})`,
        ]
      : []),
  ];
  const mixed = mixedBecause.length > 0;
  const id: VerdictId = primary?.id ?? "healthy";
  const cause = primary === loopFinding ? loop.cause : null;
  const title = primary?.title ?? "healthy";
  const body = primary
    ? [...primary.checks.map(checkText), ...primary.details]
    : healthyLines(e, T, r, saturated, shareLine);
  const lines = [
    `verdict: ${title}${mixed ? " (mixed evidence)" : ""}`,
    ...body.map((l) => `  ${l}`),
    ...also.flatMap((f) => [`also: ${f.title}`, ...[...f.checks.map(checkText), ...f.details].map((l) => `  ${l}`)]),
    ...(mixed ? [`mixed evidence: ${mixedBecause.join("; ")}`] : []),
  ];
  return { id, cause, title, busiest, findings, also, mixed, mixedBecause, lines };
}

/** Why healthy: the loop had headroom, or its busy time went to Node's own request handling; and what kept waiting and memory from firing. */
function healthyLines(
  e: Evidence,
  T: Thresholds,
  r: ReturnType<typeof readings>,
  saturated: boolean,
  shareLine: string,
): string[] {
  return [
    saturated
      ? `the loop is busy with Node's own request handling: ${checkText(r.busy)}, garbage collection stays under ${pct(T.GC_SHARE)} of it and no other kind reaches ${pct(T.BLOCKING_SHARE)}`
      : `the loop has headroom: ${checkText(r.busy)}`,
    shareLine,
    ...(saturated ? [stallText(e, T), queueText(e)] : [`not waiting: ${checkText(r.waiting)}`]),
    `not memory climbing: ${checkText(r.heap)}; ${checkText(r.external)}`,
  ];
}

/** The verdict as Markdown for a notebook: the title in bold, its lines as a list, what else holds nested under it. */
export function verdictMarkdown(v: Verdict): string {
  const [head, ...rest] = v.lines;
  let nested = false;
  const item = (l: string) => {
    if (l.startsWith("also: ")) nested = true;
    if (l.startsWith("mixed evidence: ")) return `* _${l}_`;
    if (!l.startsWith("  ")) return `* **${l}**`;
    return `${nested ? "  " : ""}* ${l.trim()}`;
  };
  return [`**${head.replace(/^verdict: /, "Verdict: ")}**`, "", ...rest.map(item)].join("\n");
}
