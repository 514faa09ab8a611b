import { dominant } from "./busy";
import type { Evidence } from "./evidence";
import { BLOCKING } from "./kinds";
import { memoryGrowth } from "./memory";
import { offMainShare } from "./threads";
import { THRESHOLDS, type Thresholds } from "./thresholds";
import { decide, type VerdictId } from "./verdict";
import { excessShares } from "./yardstick";

/**
 * Setting the diagnosis's lines from diagnoses of servers whose trouble is known, and checking them:
 * the confusion matrix, and leave-one-out (each server's diagnoses judged by lines set without it).
 * scripts/calibrate-diagnosis.js runs the diagnoses and prints what these compute.
 */

/**
 * One diagnosis of a calibration server: which case, the verdict it must get, whether its loop must
 * read saturated (true for blocked, sync I/O and GC pressure, false for waiting; null for a healthy
 * server, healthy whether its loop is saturated by Node's request handling or has headroom, and for a
 * leak, whose loop's state does not matter), and its evidence. `or`: for a server built with two
 * problems (GC-heavy and CPU-bound), the other verdict that is right too: which of its two kinds of
 * busy time is larger varies from run to run, and the verdict follows it, the other's share beside.
 */
export interface Calibrated {
  case: string;
  expected: VerdictId;
  or?: VerdictId | null;
  saturated: boolean | null;
  evidence: Evidence;
}

/** Whether a verdict is right for a calibration server. */
export const isRight = (c: Pick<Calibrated, "expected" | "or">, id: VerdictId) => id === c.expected || id === c.or;

/** How a reading is split midway: in points (a share of one whole) or in factors (a ratio, a rate). */
export type Scale = "share" | "ratio";

/**
 * A line between two groups of readings: `above` must read at or above it, `below` under it. Where
 * they do not overlap, midway between the highest `below` (at least `floor`) and the lowest `above`;
 * where they do, in the gap between two neighbouring readings that misclassifies fewest, ties to the
 * widest gap, midway across it. Midway is on the reading's own scale: for a `"share"` (a fraction of
 * one whole: utilisation, a share of busy time) the arithmetic mean, so a line sits as far in points
 * from either side; for a `"ratio"` (latency over CPU, MB/s, readings whose gaps span orders of
 * magnitude) the geometric mean, as far in factors.
 */
export function lineBetween(below: readonly number[], above: readonly number[], scale: Scale, floor = 0): number {
  const lo = below.filter(Number.isFinite);
  const hi = above.filter(Number.isFinite);
  if (!hi.length) return NaN;
  const bottom = Math.min(...hi);
  const top = Math.max(floor, ...lo);
  const middle = (a: number, b: number) => {
    if (scale === "share") return (a + b) / 2;
    return a > 0 ? Math.sqrt(a * b) : b / 2;
  };
  const width = (a: number, b: number) => {
    if (scale === "share") return b - a;
    return a > 0 ? b / a : Number.POSITIVE_INFINITY;
  };
  if (top < bottom) return middle(top, bottom);
  const values = [...new Set([...lo, ...hi])].sort((a, b) => a - b);
  const errors = (t: number) => lo.filter((v) => v >= t).length + hi.filter((v) => v < t).length;
  let best = { line: values[0], errors: errors(values[0]), width: 0 };
  for (let i = 0; i + 1 < values.length; i++) {
    const [a, b] = [values[i], values[i + 1]];
    const line = middle(a, b);
    const e = errors(line);
    if (e < best.errors || (e === best.errors && width(a, b) > best.width))
      best = { line, errors: e, width: width(a, b) };
  }
  return best.line;
}

/**
 * The resolution of the memory's growth, a share of the memory kept a second: servers that do not
 * leak grow up to about 0.5 % a second while they settle (code compiled, the profilers' own
 * bookkeeping), so a line sits no lower than the geometric mean of this and the slowest leak,
 * however flat the others.
 */
const GROWTH_FLOOR = 0.005;

/** The memory reading MEMORY_GROWTH is compared with: the faster of the heap's and the external memory's growth. */
export const growthOf = (e: Evidence): number => Math.max(...memoryGrowth(e.memory?.points ?? []).map((g) => g.growth));

/**
 * What BLOCKING_SHARE is compared with: the largest kind but request handling (Node's, the
 * framework's) and GC, as a share of the CPU per request beyond the reference where a yardstick
 * was measured (yardstick.ts, excessShares), else as a share of the busy time.
 */
export function largestBlocking(e: Evidence): number {
  return judgedShares(e)[largestKind(e)];
}

/** The shares BLOCKING_SHARE reads: beyond the reference where a yardstick was measured, else of the busy time. */
const judgedShares = (e: Evidence) => (e.yardstick?.ratio != null ? excessShares(e.yardstick) : e.busy.shares);

/** The kind BLOCKING_SHARE is compared with: the largest but request handling and GC (verdict.ts, ties to the first). */
const largestKind = (e: Evidence) => dominant(judgedShares(e), BLOCKING);

/** What FAR_ABOVE_REFERENCE is compared with: the app's CPU per request over its reference's (NaN: not measured). */
export const ratioOf = (e: Evidence): number => e.yardstick?.ratio ?? NaN;

/** The readings one line is set from: which case each came from, the side it must fall on. */
export interface LineGroups {
  below: { case: string; value: number }[];
  above: { case: string; value: number }[];
  scale: Scale;
  floor: number;
}

/** The line names calibration sets, in the order the rules read them. */
export const FITTED = [
  "MEMORY_GROWTH",
  "BUSY_ELU",
  "GC_SHARE",
  "FAR_ABOVE_REFERENCE",
  "BLOCKING_SHARE",
  "OFF_MAIN_SHARE",
  "WAITING_LATENCY_OVER_CPU",
] as const;
export type FittedLine = (typeof FITTED)[number];

/**
 * For each line, the readings it is set between:
 *   MEMORY_GROWTH                       leaks (of the heap or outside it) against every server that
 *                                       does not leak (growthOf; no lower than GROWTH_FLOOR allows);
 *   BUSY_ELU                            servers whose loop must read saturated against those whose
 *                                       loop must have headroom (Calibrated.saturated);
 *   GC_SHARE                            GC's share of busy time: the GC-pressure servers' against
 *                                       every other saturated diagnosis (but the leaks', whose rule
 *                                       comes first, and a server for which GC pressure is right too);
 *   FAR_ABOVE_REFERENCE                 the CPU per request over the reference's (ratioOf): the
 *                                       servers that must not be healthy because of what a request
 *                                       costs (blocked, GC pressure) against the healthy ones,
 *                                       whatever their loop's state (synchronous I/O is judged by its
 *                                       share of the busy time, not by the yardstick: verdict.ts);
 *   BLOCKING_SHARE                      the largest kind but request handling and GC, beyond the
 *                                       reference (largestBlocking): the blocked and sync I/O
 *                                       servers' against those of the healthy and off-main-thread
 *                                       servers' diagnoses whose loop read saturated where the line
 *                                       decides: far above the reference (FAR_ABOVE_REFERENCE's
 *                                       line, fitted from the same set), or synchronous I/O largest;
 *   OFF_MAIN_SHARE                      the share of the process's CPU off its main thread
 *                                       (threads.ts, offMainShare): the off-main-thread servers'
 *                                       against every other diagnosis;
 *   WAITING_LATENCY_OVER_CPU            waiting against the diagnoses of the other servers (but the
 *                                       leaks and the off-main-thread ones) whose loop read under
 *                                       BUSY_ELU.
 * The other lines (LONG_STALL_MS, RUNNER_UP_CLOSE, NEAR) describe the evidence and are kept as they are.
 * GC_SHARE, BLOCKING_SHARE and WAITING_LATENCY_OVER_CPU pick their diagnoses by the loop's state, so
 * they take BUSY_ELU's line (fitted from the same set unless given).
 */
export function lineGroups(set: readonly Calibrated[], busyElu?: number): Record<FittedLine, LineGroups> {
  const of = (keep: (c: Calibrated) => boolean, f: (e: Evidence) => number | null) =>
    set.filter(keep).map((c) => ({ case: c.case, value: f(c.evidence) ?? NaN }));
  const leak = (c: Calibrated) => c.expected === "memory-climbing";
  const offMain = (c: Calibrated) => isRight(c, "off-main-thread");
  const saturates = (c: Calibrated) => c.saturated === true;
  const headroom = (c: Calibrated) => c.saturated === false;
  const gcShare = (e: Evidence) => e.busy.shares.gc;
  const elu = (e: Evidence) => e.elu;
  const busy: LineGroups = { below: of(headroom, elu), above: of(saturates, elu), scale: "share", floor: 0 };
  const line = busyElu ?? fit(busy);
  const far: LineGroups = {
    below: of((c) => c.expected === "healthy", ratioOf),
    above: of((c) => c.expected === "blocked" || c.expected === "gc-pressure", ratioOf),
    scale: "ratio",
    floor: 0,
  };
  const farLine = fit(far);
  // where the blocking line decides a healthy loop's verdict: far above its reference, its largest kind
  // synchronous I/O (judged by its share whatever the cost: verdict.ts), or no yardstick read
  const decides = (e: Evidence) => !(ratioOf(e) < farLine) || largestKind(e) === "syncIo";
  return {
    MEMORY_GROWTH: {
      below: of((c) => !leak(c), growthOf),
      above: of(leak, growthOf),
      scale: "ratio",
      floor: GROWTH_FLOOR,
    },
    BUSY_ELU: busy,
    GC_SHARE: {
      below: of((c) => !isRight(c, "gc-pressure") && !leak(c) && c.evidence.elu >= line, gcShare),
      above: of((c) => c.expected === "gc-pressure", gcShare),
      scale: "share",
      floor: 0,
    },
    FAR_ABOVE_REFERENCE: far,
    BLOCKING_SHARE: {
      below: of(
        (c) => (c.expected === "healthy" || offMain(c)) && c.evidence.elu >= line && decides(c.evidence),
        largestBlocking,
      ),
      above: of((c) => saturates(c) && c.expected !== "gc-pressure", largestBlocking),
      scale: "share",
      floor: 0,
    },
    OFF_MAIN_SHARE: {
      below: of(
        (c) => !offMain(c),
        (e) => offMainShare(e) ?? NaN,
      ),
      above: of(offMain, (e) => offMainShare(e) ?? NaN),
      scale: "share",
      floor: 0,
    },
    WAITING_LATENCY_OVER_CPU: {
      below: of(
        (c) => c.expected !== "waiting" && !leak(c) && !offMain(c) && c.evidence.elu < line,
        (e) => e.latencyOverCpu,
      ),
      above: of(
        (c) => c.expected === "waiting",
        (e) => e.latencyOverCpu,
      ),
      scale: "ratio",
      floor: 0,
    },
  };
}

const fit = (g: LineGroups) =>
  lineBetween(
    g.below.map((r) => r.value),
    g.above.map((r) => r.value),
    g.scale,
    g.floor,
  );

/** The lines fitted from a calibration set (lineGroups, lineBetween); the others as in `base`. */
export function fitThresholds(set: readonly Calibrated[], base: Thresholds = THRESHOLDS): Thresholds {
  const groups = lineGroups(set);
  const fitted = Object.fromEntries(FITTED.map((k) => [k, fit(groups[k])])) as Record<FittedLine, number>;
  return { ...base, ...fitted };
}

/** Case by verdict: how many of each case's diagnoses got each verdict, and how many got a right one (isRight). */
export interface MatrixRow {
  case: string;
  expected: VerdictId;
  verdicts: Partial<Record<VerdictId, number>>;
  or: VerdictId | null;
  right: number;
  of: number;
}

export function confusion(set: readonly Calibrated[], T: Thresholds = THRESHOLDS): MatrixRow[] {
  const rows = new Map<string, MatrixRow>();
  for (const c of set) {
    const row = rows.get(c.case) ?? {
      case: c.case,
      expected: c.expected,
      or: c.or ?? null,
      verdicts: {},
      right: 0,
      of: 0,
    };
    const id = decide(c.evidence, T).id;
    row.verdicts[id] = (row.verdicts[id] ?? 0) + 1;
    row.of++;
    if (isRight(c, id)) row.right++;
    rows.set(c.case, row);
  }
  return [...rows.values()];
}

/** Each case's diagnoses judged by lines fitted without that case: its matrix row, and the lines used. */
export function leaveOneOut(set: readonly Calibrated[]): (MatrixRow & { thresholds: Thresholds })[] {
  const cases = [...new Set(set.map((c) => c.case))];
  return cases.map((name) => {
    const T = fitThresholds(set.filter((c) => c.case !== name));
    const [row] = confusion(
      set.filter((c) => c.case === name),
      T,
    );
    return { ...row, thresholds: T };
  });
}
