import { textWidth } from "./theme";

/**
 * Numeric axes that read well and fit their margin. Plot's defaults label a log axis in SI units
 * ("100m" for 0.1 ms) and a fixed left margin clips wide labels ("0,000" for 40,000); here ticks
 * are plain numbers with a k or M suffix from 10,000 up, and the left margin is measured from the
 * widest label.
 */

/** The 1-2-5 step that gives about `count` ticks over `span`. */
export function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const err = raw / power;
  // Each step where the raw step is closest to it on a log scale: 1 below 1.41, 2 below 3.16, 5 below 7.07.
  const step =
    [
      [7.07, 10],
      [3.16, 5],
      [1.41, 2],
    ].find(([edge]) => err >= edge)?.[1] ?? 1;
  return step * power;
}

/** Ticks at multiples of a nice step from the last one at or below lo to the first at or above hi. */
export function linearTicks(lo: number, hi: number, count: number): number[] {
  if (!(hi > lo)) return [lo];
  const step = niceStep(hi - lo, count);
  const out: number[] = [];
  for (let i = Math.floor(lo / step + 1e-9); out.length === 0 || out[out.length - 1] < hi - step * 1e-9; i++)
    out.push(+(i * step).toPrecision(12));
  return out;
}

/** A tick label: 0.1, 2.5, 8,000, 12.5k, 1.2M (never SI milli or micro). */
export function tickLabel(v: number): string {
  const a = Math.abs(v);
  const trim = (x: number) => String(+x.toPrecision(4));
  if (a >= 1e6) return `${trim(v / 1e6)}M`;
  if (a >= 1e4) return `${trim(v / 1e3)}k`;
  if (a >= 1000) return Math.round(v).toLocaleString("en-US");
  return trim(v);
}

/** One unit for every label of a linear axis: 0, 5k, 10k (not 5,000 beside 10k); 0, 0.5M, 1M. */
export function linearTickFormat(ticks: readonly number[]): (v: number) => string {
  const top = Math.max(0, ...ticks.map(Math.abs));
  // [from this top value, the unit, its suffix]
  const found = (
    [
      [1e6, 1e6, "M"],
      [1e4, 1e3, "k"],
    ] as const
  ).find(([from]) => top >= from);
  if (!found) return tickLabel;
  const [, unit, suffix] = found;
  return (v) => (v === 0 ? "0" : `${+(v / unit).toPrecision(4)}${suffix}`);
}

export interface NumberAxis {
  /** Tick values for a linear axis; undefined for a log axis (Plot picks and thins them). */
  ticks?: number[];
  /** A linear axis's domain, from its first tick to its last; undefined for a log axis. */
  domain?: [number, number];
  tickFormat: (v: number) => string;
  /** The margin the widest label needs beside a vertical axis (tick, padding and labels), at least 40. */
  margin: number;
}

/**
 * The ticks and labels of an axis over `values`: `zero` includes 0 in a linear axis (as Plot's
 * `zero: true`); `pixels` is the axis length, for about one tick per 35 px.
 */
export function numberAxis(
  values: readonly number[],
  opts: { log?: boolean; zero?: boolean; pixels: number },
): NumberAxis {
  const finite = values.filter((v) => Number.isFinite(v) && (!opts.log || v > 0));
  let labels: string[];
  let ticks: number[] | undefined;
  let domain: [number, number] | undefined;
  let tickFormat = tickLabel;
  if (finite.length === 0) {
    labels = ["0"];
  } else if (opts.log) {
    // Every 1-2-5 value of each decade the data spans: the widest label Plot may draw.
    const lo = Math.floor(Math.log10(Math.min(...finite)));
    const hi = Math.ceil(Math.log10(Math.max(...finite)));
    labels = [];
    for (let e = lo; e <= hi; e++) for (const k of [1, 2, 5]) labels.push(tickLabel(+(k * 10 ** e).toPrecision(3)));
  } else {
    const lo = Math.min(...finite, ...(opts.zero ? [0] : []));
    const hi = Math.max(...finite, ...(opts.zero ? [0] : []));
    ticks = linearTicks(lo, hi, Math.max(2, Math.round(opts.pixels / 35)));
    tickFormat = linearTickFormat(ticks);
    labels = ticks.map(tickFormat);
    if (ticks.length > 1) domain = [ticks[0], ticks[ticks.length - 1]];
  }
  const widest = Math.max(...labels.map((l) => textWidth(l)));
  return { ticks, domain, tickFormat, margin: Math.max(40, Math.ceil(widest) + 15) };
}
