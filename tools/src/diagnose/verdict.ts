import { fmt, pct } from "@workbook/harness";
import { dominant } from "./busy";
import { type Check, check, checkText } from "./checks";
import type { Evidence } from "./evidence";
import { BLOCKING, BUSY_KINDS, BUSY_NAMES, type BusyKind, HANDLING } from "./kinds";
import { memoryLines, memoryTrend } from "./memory";
import { ADVICE, adviceFor, busyText, queueText, stallText, where } from "./places";
import {
  busiestThread,
  handoffText,
  mainThreadText,
  offMainAdvice,
  offMainCheck,
  THREAD_NAMES,
  threadsText,
} from "./threads";
import { THRESHOLDS, type Thresholds } from "./thresholds";
import { costText, excessShares, excessText, frameworkNote, refWord } from "./yardstick";

/**
 * The rules. A diagnosis asks whether memory climbs (memory.ts: the trend of what full collections
 * leave), how busy the event loop was, what a request costs against a server that only answers,
 * measured beside it (yardstick.ts: the ratio to the framework's hello route, or to a bare node:http
 * answer), and where the process's CPU went, by the code that asked for it (busy.ts, callers.ts):
 *   - saturated (utilisation at or above the busy line): GC pressure when garbage collection's share
 *     of the busy time reaches the GC line; blocked when the largest of synchronous I/O, a regular
 *     expression, Node's native synchronous calls, the app's code and a dependency's, beyond what the
 *     reference spends on each, reaches the blocking line, and the request costs far above its
 *     reference (FAR_ABOVE_REFERENCE), or that largest is synchronous I/O: a synchronous call holds
 *     the loop for its wall time, which CPU time understates whenever it waits on the disk, so its
 *     share of the busy time decides it, whatever the request's CPU;
 *   - otherwise, off the main thread when most of the process's CPU went to other threads (threads.ts:
 *     libuv's pool, worker threads), whether the loop has headroom or only reads busy because its
 *     thread waited for a core they held;
 *   - a loop with headroom is waiting when a request takes many times the CPU it costs (the request
 *     waits on I/O or timers);
 *   - otherwise a request far above its reference is never healthy: its cost is named by the kind
 *     with the largest excess over the reference (request handling itself, where that is it), and
 *     the title says when the loop still had headroom at this load;
 *   - otherwise healthy: a loop with headroom, or busy at about its reference's cost (a fast server
 *     under a closed-loop load keeps its loop busy with HTTP, the work it is for): a request near
 *     its reference is never blocked, whatever the shares of its busy time.
 * Without a yardstick (a platform that cannot read a process's CPU; evidence recorded before there
 * was one) the blocking line reads the shares of busy time alone, as it did before.
 * Memory climbing comes first when it holds, with the loop's verdict beside it; memory undecided is
 * said beside any verdict, with how long to watch. A second problem of the loop (garbage collection
 * beside the code, the code beside GC, CPU off the main thread beside either) is named in the
 * verdict with its share when its reading reaches its line or sits near it. Every verdict prints
 * the numbers it rests on against their lines, what a request costs beside its references, where to
 * look and what to do. The evidence is mixed when two findings hold, when a deciding reading sits
 * within NEAR of its line, or when the runner-up kind of busy time is close to the largest.
 */
export type VerdictId =
  | "memory-climbing"
  | "sync-io"
  | "gc-pressure"
  | "blocked"
  | "off-main-thread"
  | "waiting"
  | "healthy";

/** Whose work it is: for "blocked", whose code blocks the loop; for "off-main-thread", which threads took the CPU. */
export type BlockCause = "app" | "dependency" | "regex" | "native" | "handling";
export type Cause = BlockCause | "pool" | "workers";

export interface Finding {
  id: VerdictId;
  title: string;
  fired: boolean;
  checks: Check[];
  /** Where: the hottest frames, the allocation sites, the growth; and what to do. */
  details: string[];
}

export interface Verdict {
  id: VerdictId;
  /** For "blocked": whose work blocks the loop; for "off-main-thread": which threads (null: not named); null otherwise. */
  cause: Cause | null;
  title: string;
  /** The loop's reading: the kind of busy time that decided a saturated loop's verdict (null: not saturated). */
  busiest: BusyKind | null;
  /** A second problem of the loop named in the verdict (its reading at or near its line), or null. */
  second: { id: VerdictId; cause: Cause | null; title: string; check: Check } | null;
  /** What the memory's trend says: climbing, flat, or undecided (watch longer); null when it was not read. */
  memory: "climbing" | "flat" | "undecided" | null;
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

export interface DecideOptions {
  /** How to diagnose again watching `seconds` (the memory's trend undecided). Default: a sentence naming `make diagnose ... WATCH=`. */
  rerun?: (seconds: number) => string;
}

type Loop = { id: VerdictId; cause: Cause | null; title: string };

/** What a saturated loop's verdict is, by the kind of busy time that decided it. */
const SATURATED: Record<BusyKind, Loop> = {
  gc: { id: "gc-pressure", cause: null, title: "GC pressure" },
  syncIo: { id: "sync-io", cause: null, title: "loop blocked by synchronous I/O" },
  regex: { id: "blocked", cause: "regex", title: "loop blocked by a regular expression" },
  native: { id: "blocked", cause: "native", title: "loop blocked by a native synchronous call" },
  app: { id: "blocked", cause: "app", title: "loop blocked by the app's own code" },
  dependency: { id: "blocked", cause: "dependency", title: "loop blocked by a dependency's code" },
  framework: { id: "healthy", cause: null, title: "healthy" },
  node: { id: "healthy", cause: null, title: "healthy" },
};

/** What a request far above its reference is, by the kind that cost most beyond it: request handling too, never healthy. */
function costly(kind: BusyKind, saturated: boolean): Loop {
  const own = HANDLING.includes(kind)
    ? { id: "blocked" as const, cause: "handling" as const, title: "loop blocked by costly request handling" }
    : SATURATED[kind];
  if (saturated) return own;
  return { ...own, title: `costly requests: ${BUSY_NAMES[kind]} (the loop had headroom at this load)` };
}

/** The kinds a verdict's own kind is compared with, for mixed evidence. */
const RIVALS: readonly BusyKind[] = BUSY_KINDS.filter((k) => !HANDLING.includes(k));

function offMainLoop(e: Evidence): Loop {
  const kind = busiestThread(e);
  const cause = kind === "pool" || kind === "workers" ? kind : null;
  const title = kind ? `busy off the main thread: ${THREAD_NAMES[kind]}` : "busy off the main thread";
  return { id: "off-main-thread", cause, title };
}

const defaultRerun = (seconds: number) =>
  `diagnose again watching ${seconds} s (make diagnose APP=... WATCH=${seconds}; in a notebook, seconds: ${seconds})`;

export function decide(e: Evidence, T: Thresholds = THRESHOLDS, opts: DecideOptions = {}): Verdict {
  const shares = e.busy.shares;
  const places = where(e);
  const y = e.yardstick ?? null;
  const measured = y?.ratio != null;
  // what the blocking line reads: with a yardstick, each kind's CPU per request beyond the reference's, of the app's
  const judged = measured ? excessShares(y!) : shares;
  const busy = check("event-loop utilisation", e.elu, ">=", T.BUSY_ELU, "share");
  const waiting = check("latency p50 over CPU per request", e.latencyOverCpu, ">=", T.WAITING_LATENCY_OVER_CPU, "x");
  const far = check(`CPU per request against ${refWord(y)}`, y?.ratio ?? null, ">=", T.FAR_ABOVE_REFERENCE, "x");
  const nearReference = measured && !far.holds;
  const offMain = offMainCheck(e, T);
  const saturated = busy.holds;
  const shareLine = `where the busy time went: ${busyText(shares)}`;
  const cost = y ? [costText(y), ...frameworkNote(y)] : [];
  const excessLine = measured ? [`beyond the reference, a request spent: ${excessText(y!)}`] : [];
  const largest = dominant(judged, BLOCKING); // what a saturated loop under the GC line is blocked by
  const gc = check("share of busy time in garbage collection", shares.gc, ">=", T.GC_SHARE, "share");
  const blocking = check(
    measured
      ? `share of the CPU per request beyond the reference in ${BUSY_NAMES[largest]}`
      : `share of busy time in ${BUSY_NAMES[largest]}`,
    judged[largest],
    ">=",
    T.BLOCKING_SHARE,
    "share",
  );
  const notOffMain = Number.isFinite(offMain.value) ? [`not busy off the main thread: ${checkText(offMain)}`] : [];
  const farChecks = measured ? [far] : [];
  // what a loop blocked by `kind` (or far above its reference because of it) prints beside its checks
  const blockedDetails = (kind: BusyKind) => [
    ...cost,
    shareLine,
    ...excessLine,
    stallText(e, T),
    queueText(e),
    ...places[kind],
    adviceFor(e, kind),
  ];

  // The loop's verdict, and the readings a second problem may come from.
  let busiest: BusyKind | null = null;
  let loop: Loop;
  let checks: Check[];
  let details: string[];
  // synchronous I/O holds the loop for its wall time, which CPU time understates whenever the call
  // waits on the disk: its share of the busy time decides, not the yardstick (CPU per request)
  const syncIo = blocking.holds && largest === "syncIo";
  if (saturated && (gc.holds || syncIo || (blocking.holds && !nearReference))) {
    busiest = gc.holds ? "gc" : largest;
    loop = SATURATED[busiest];
    checks = [busy, ...(gc.holds || syncIo ? [gc.holds ? gc : blocking] : [...farChecks, blocking])];
    details = blockedDetails(busiest);
  } else if (offMain.holds) {
    loop = offMainLoop(e);
    checks = [offMain];
    details = [
      ...cost,
      threadsText(e),
      mainThreadText(e, T),
      queueText(e),
      ...handoffText(e),
      `the main thread's busy time went: ${busyText(shares)}`,
      offMainAdvice(e),
    ];
  } else if (!saturated && waiting.holds) {
    loop = { id: "waiting", cause: null, title: "waiting on I/O or timers" };
    checks = [busy, waiting];
    details = [
      `a request took ${fmt(e.latencyP50Ms)} ms at p50 for ${fmt(e.cpuPerRequestMs ?? NaN)} ms of CPU; ${threadsText(e)}`,
      ...cost,
      shareLine,
      ...notOffMain,
      ADVICE.waiting,
    ];
  } else if (measured && far.holds) {
    // far above its reference: never healthy, whatever the shares; named by the kind that cost most beyond it
    busiest = dominant(
      judged,
      BUSY_KINDS.filter((k) => k !== "gc"),
    );
    loop = costly(busiest, saturated);
    checks = [busy, far, blocking];
    details = blockedDetails(busiest);
  } else if (saturated) {
    busiest = "node";
    loop = SATURATED.node;
    checks = [busy, ...(measured ? [far] : [blocking])];
    details = [];
  } else {
    loop = { id: "healthy", cause: null, title: "healthy" };
    checks = [busy, waiting];
    details = [];
  }

  // A second problem of the loop: its reading at or near its line.
  const candidates: { loop: Loop; check: Check }[] = [];
  if (loop.id === "gc-pressure" && (blocking.holds || blocking.near) && !nearReference)
    candidates.push({ loop: SATURATED[largest], check: blocking });
  if ((loop.id === "blocked" || loop.id === "sync-io") && gc.near) candidates.push({ loop: SATURATED.gc, check: gc });
  if (
    loop.id !== "off-main-thread" &&
    loop.id !== "healthy" &&
    loop.id !== "waiting" &&
    (offMain.holds || offMain.near)
  )
    candidates.push({ loop: offMainLoop(e), check: offMain });
  const pick = candidates.sort((a, b) => b.check.value / b.check.threshold - a.check.value / a.check.threshold)[0];
  const second = pick ? { id: pick.loop.id, cause: pick.loop.cause, title: pick.loop.title, check: pick.check } : null;
  const secondLines = second
    ? [`and ${second.title}: ${checkText(second.check)}${second.check.holds ? "" : ", close to its line"}`]
    : [];

  const loopFinding: Finding = {
    id: loop.id,
    title: second ? `${loop.title}, and ${second.title}` : loop.title,
    fired: loop.id !== "healthy",
    checks,
    details: [...secondLines, ...details],
  };

  // Memory.
  const trend = memoryTrend(e.memory?.points ?? [], T);
  const rerun = opts.rerun ?? defaultRerun;
  const memLines = trend ? memoryLines(trend, rerun) : ["memory: not read (no full collection's figures)"];
  const memory: Finding = {
    id: "memory-climbing",
    title: "memory climbing",
    fired: trend?.state === "climbing",
    checks: trend ? [trend.check] : [],
    details: trend?.state === "climbing" ? [...memLines.slice(1), ...places.memory, ADVICE.memory] : memLines,
  };

  const findings = [memory, loopFinding];
  const primary = [memory, loopFinding].find((f) => f.fired) ?? null;
  const also = memory.fired && loopFinding.fired ? [loopFinding] : [];
  const deciding = [
    ...(trend ? [trend.check] : []),
    busy,
    ...(saturated ? [gc, ...(gc.holds ? [] : [blocking])] : []),
    ...farChecks,
    ...(busiest === null || busiest === "node" ? [offMain] : []),
    ...(!saturated && loop.id !== "off-main-thread" ? [waiting] : []),
  ].filter((c) => Number.isFinite(c.value));
  const rival =
    busiest && busiest !== "node"
      ? dominant(
          judged,
          RIVALS.filter((k) => k !== busiest),
        )
      : null;
  const mixedBecause = [
    ...also.map((f) => `${f.title} holds too`),
    ...deciding.filter((c) => c.near).map((c) => `close to the line: ${checkText(c)}`),
    ...(busiest && rival && judged[rival] >= T.RUNNER_UP_CLOSE * judged[busiest] && judged[busiest] > 0
      ? [
          `${BUSY_NAMES[rival]} (${pct(judged[rival])}) is ${judged[rival] > judged[busiest] ? "larger than" : "close to"} ` +
            `${BUSY_NAMES[busiest]} (${pct(judged[busiest])})${measured ? " beyond the reference" : ""}`,
        ]
      : []),
  ];
  const mixed = mixedBecause.length > 0;
  const id: VerdictId = primary?.id ?? "healthy";
  const cause = primary === loopFinding ? loop.cause : null;
  const title = primary?.title ?? "healthy";
  const undecided = trend?.state === "undecided";
  const body = primary
    ? [
        ...primary.checks.map(checkText),
        ...primary.details,
        // memory's verdict alone: the loop's cost beside it (with the loop's verdict under also:, there)
        ...(primary === loopFinding ? memLines : []),
        ...(primary !== loopFinding && !also.length ? cost : []),
      ]
    : healthyLines(e, T, {
        busy,
        waiting,
        blocking,
        far: measured ? far : null,
        saturated,
        shareLine,
        cost,
        notOffMain,
        memLines,
      });
  const lines = [
    `verdict: ${title}${undecided ? "; memory undecided" : ""}${mixed ? " (mixed evidence)" : ""}`,
    ...body.map((l) => `  ${l}`),
    ...also.flatMap((f) => [`also: ${f.title}`, ...[...f.checks.map(checkText), ...f.details].map((l) => `  ${l}`)]),
    ...(mixed ? [`mixed evidence: ${mixedBecause.join("; ")}`] : []),
  ];
  return {
    id,
    cause,
    title,
    busiest,
    second: primary === loopFinding || also.length ? second : null,
    memory: trend?.state ?? null,
    findings,
    also,
    mixed,
    mixedBecause,
    lines,
  };
}

/** Why healthy: the loop had headroom, or its busy time went to request handling at about its reference's cost; and what kept each other rule from firing. */
function healthyLines(
  e: Evidence,
  T: Thresholds,
  r: {
    busy: Check;
    waiting: Check;
    blocking: Check;
    /** The yardstick's check (null: no yardstick). */
    far: Check | null;
    saturated: boolean;
    shareLine: string;
    cost: string[];
    notOffMain: string[];
    memLines: string[];
  },
): string[] {
  const busyWith = r.far
    ? `the loop is busy serving requests at about its reference's cost: ${checkText(r.far)}`
    : `the loop is busy with Node's own request handling, the work a fast server is for: ${checkText(r.busy)}, garbage collection under ${pct(T.GC_SHARE)} of it and ${checkText(r.blocking)}`;
  return [
    r.saturated ? busyWith : `the loop has headroom: ${checkText(r.busy)}`,
    ...(r.saturated && r.far ? [`${checkText(r.busy)}, garbage collection under ${pct(T.GC_SHARE)} of it`] : []),
    ...(!r.saturated && r.far ? [`a request near its reference: ${checkText(r.far)}`] : []),
    ...r.cost,
    r.shareLine,
    ...(r.saturated ? [stallText(e, T, true), queueText(e, true)] : [`not waiting: ${checkText(r.waiting)}`]),
    ...r.notOffMain,
    ...r.memLines,
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
