import { fmt } from "@workbook/harness";
import { commonSlope } from "@workbook/harness/internal";
import { type Check, check, checkText } from "./checks";
import type { MemoryPoint } from "./collect";
import type { Thresholds } from "./thresholds";

/**
 * Whether memory climbs: from what full collections left at several moments of the load (collect.ts,
 * MemoryPoint), not from two readings a few seconds apart. A leak keeps adding what a request leaves
 * behind, so what is kept grows in a line; a large heap loaded at start stays flat, and one that
 * settles (code compiled, caches warmed, the profilers' own bookkeeping) grows less and less. The
 * rule reads the least-squares slope through the points (one slope across the step the profilers
 * make when they start: commonSlope), as a share of the memory kept at the first point, a second:
 *   climbing   that growth at or above MEMORY_GROWTH, and its 95 % interval above zero;
 *   flat       under the line, and its interval's top under it too;
 *   undecided  either side of the line within the interval: too few points, or too noisy. The
 *              diagnosis then watches longer (collect.ts, watchLonger), and if that is not enough
 *              says so, with how long to watch.
 */

/** A least-squares line through kept memory (MB) over seconds: its slope (MB/s), standard error, 95 % interval and R². */
export interface KeptFit {
  slopeMBps: number;
  se: number;
  low: number;
  high: number;
  r2: number;
}

/** The trend of what full collections left (MB over seconds): one slope across the profilers' step. */
export function keptFit(points: readonly MemoryPoint[], y: (p: MemoryPoint) => number): KeptFit {
  const f = commonSlope(points.map((p) => ({ x: p.at, y: y(p), group: p.profiling })));
  return { slopeMBps: f.slope, se: f.se, low: f.low, high: f.high, r2: f.r2 };
}

export type MemoryState = "climbing" | "flat" | "undecided";

export interface MemoryTrend {
  /** The memory that decided: the heap, or the memory outside it (Buffers...). */
  where: "heap" | "external";
  state: MemoryState;
  /** Its growth as a share of the memory kept at the first point (heap and external), a second, with the 95 % interval. */
  growth: number;
  low: number;
  high: number;
  fit: KeptFit;
  /** The memory kept at the first point and at the last, heap and external (MB). */
  first: { heapMB: number; externalMB: number };
  last: { heapMB: number; externalMB: number };
  seconds: number;
  points: number;
  /** Requests answered between the first point and the last (null: not counted). */
  served: number | null;
  check: Check;
}

const NAMES = { heap: "the heap", external: "the memory outside the heap" } as const;

function stateOf(growth: number, low: number, high: number, line: number): MemoryState {
  if (growth >= line && low > 0) return "climbing";
  if (growth < line && high < line) return "flat";
  return "undecided";
}

/** The heap's and the external memory's trends, each as a share of the memory kept at the first point, a second. */
export function memoryGrowth(points: readonly MemoryPoint[]) {
  const first = points[0];
  const base = Math.max((first?.heapMB ?? 0) + (first?.externalMB ?? 0), 1e-6);
  return (["heap", "external"] as const).map((where) => {
    const fit = keptFit(points, (p) => (where === "heap" ? p.heapMB : p.externalMB));
    return { where, fit, growth: fit.slopeMBps / base, low: fit.low / base, high: fit.high / base };
  });
}

/** What the points say against MEMORY_GROWTH; null with fewer than two points. */
export function memoryTrend(points: readonly MemoryPoint[], T: Thresholds): MemoryTrend | null {
  if (points.length < 2) return null;
  const [first, last] = [points[0], points[points.length - 1]];
  const each = memoryGrowth(points).map((g) => {
    // a line with no change at all has no residual and no interval: it is flat
    const exact = g.fit.se === 0;
    const state = exact && g.growth < T.MEMORY_GROWTH ? "flat" : stateOf(g.growth, g.low, g.high, T.MEMORY_GROWTH);
    return { ...g, state };
  });
  const rank = { climbing: 2, undecided: 1, flat: 0 } as const;
  const pick = each.sort((a, b) => rank[b.state] - rank[a.state] || b.growth - a.growth)[0];
  return {
    ...pick,
    first: { heapMB: first.heapMB, externalMB: first.externalMB },
    last: { heapMB: last.heapMB, externalMB: last.externalMB },
    seconds: last.at - first.at,
    points: points.length,
    served: last.served,
    check: check(
      `growth of ${NAMES[pick.where]} kept after a full GC, of the memory kept`,
      pick.growth,
      ">=",
      T.MEMORY_GROWTH,
      "%/s",
    ),
  };
}

/** Whether the diagnosis should watch longer: the trend is undecided (collect.ts, watchLonger). */
export const undecided = (points: readonly MemoryPoint[], T: Thresholds) =>
  memoryTrend(points, T)?.state === "undecided";

const mb = (v: number) => `${fmt(v)} MB`;
const rate = (share: number) => `${fmt(share * 100)} % a second`;

/** What the app kept, first point to last: "the heap 8.6 → 35.6 MB, outside it 2.4 → 2.4 MB, over 7.9 s and 6 full collections". */
export function keptText(m: MemoryTrend): string {
  return (
    `kept after a full GC: the heap ${fmt(m.first.heapMB)} → ${mb(m.last.heapMB)}, outside the heap (Buffers...) ` +
    `${fmt(m.first.externalMB)} → ${mb(m.last.externalMB)}, over ${fmt(m.seconds)} s and ${m.points} full collections` +
    stepText(m)
  );
}

/**
 * Why the first and last readings may differ from what the slope makes of the same seconds: the
 * slope is fitted on either side of the step the profilers' own memory makes when they start
 * (keptFit), and each reading is one collection's. Said, with the figures that add up, when the
 * rest is over 0.05 MB and a fifth of the difference; empty otherwise.
 */
export function stepText(m: MemoryTrend): string {
  const y = (p: MemoryTrend["first"]) => (m.where === "heap" ? p.heapMB : p.externalMB);
  const between = y(m.last) - y(m.first);
  const grown = m.fit.slopeMBps * m.seconds;
  const rest = between - grown;
  if (!Number.isFinite(rest) || Math.abs(rest) < Math.max(0.05, 0.2 * Math.abs(between))) return "";
  return (
    `; of the ${mb(between)} between the first and the last of ${NAMES[m.where]}, the slope makes ${mb(grown)} ` +
    `(${fmt(m.fit.slopeMBps)} MB/s over ${fmt(m.seconds)} s): the other ${mb(rest)} is the step the profilers' own ` +
    "memory makes when they start, which the slope is fitted either side of, and the noise of single readings"
  );
}

/** The slope with its interval, and per request: "3.42 MB/s (2.06 to 4.78, 95 %), about 1.2 KB a request". */
function slopeText(m: MemoryTrend): string {
  const f = m.fit;
  const perRequest =
    m.served && m.served > 0 && m.state === "climbing"
      ? `, about ${fmt(((f.slopeMBps * m.seconds) / m.served) * 1024)} KB a request`
      : "";
  return `${fmt(f.slopeMBps)} MB/s (${fmt(f.low)} to ${fmt(f.high)}, 95 %)${perRequest}`;
}

/** The lines of each state: the check, the trend, what was kept. */
export function memoryLines(m: MemoryTrend, rerun: (seconds: number) => string): string[] {
  const name = NAMES[m.where];
  if (m.state === "climbing") return [checkText(m.check), `${name} kept grows in a line: ${slopeText(m)}`, keptText(m)];
  if (m.state === "flat")
    return [
      `not memory climbing: ${checkText(m.check)} (at most ${rate(m.high)}, 95 %); ${keptText(m)}`,
      ...(m.last.heapMB >= 100 ? [`a large heap, ${mb(m.last.heapMB)}, that does not grow: not a leak`] : []),
    ];
  return [
    `memory undecided: ${name} kept grows ${slopeText(m)}, ${rate(m.growth)} of the memory kept ` +
      `(${rate(m.low)} to ${rate(m.high)}): either side of the ${rate(m.check.threshold)} line`,
    keptText(m),
    `watch longer: ${rerun(watchFor(m))}`,
  ];
}

/**
 * Seconds to watch for the interval to clear the line: its half-width shrinks about as the watch's
 * length to the power 3/2 (a line fitted through evenly spaced points), from at least twice as long.
 */
export function watchFor(m: MemoryTrend): number {
  const half = (m.high - m.low) / 2;
  const gap = Math.max(Math.abs(m.growth - m.check.threshold), half / 10);
  const factor = Math.min(10, Math.max(2, (half / gap) ** (2 / 3)));
  return Math.ceil((m.seconds * factor) / 5) * 5;
}
