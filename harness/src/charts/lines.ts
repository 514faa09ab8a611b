import * as Plot from "@observablehq/plot";
import { fmt } from "../core/format";
import { numberAxis, tickLabel } from "./axes";
import { type Chart, type ChartMeta, plot } from "./plot";
import { textTable } from "./tables";
import { MUTED, PALETTE, textWidth } from "./theme";

export interface SeriesPoint {
  /** x: seconds, connections, loop size... */
  x: number;
  y: number;
  series: string;
}

export interface LinesMeta extends ChartMeta {
  xLabel: string;
  yLabel: string;
  logX?: boolean;
  logY?: boolean;
  dots?: boolean;
  height?: number;
  /** Colours by series name; the others take the palette in order. */
  colours?: Record<string, string>;
  /** A dashed horizontal line at this y (a threshold, a budget); say what it is in the subtitle. */
  reference?: number;
  /** The x axis' extent; default: the points'. Charts stacked with the same xDomain and margins share one time axis. */
  xDomain?: [number, number];
  /** Pixels left of the plot; default: as wide as the y axis' labels need. */
  marginLeft?: number;
  /** Pixels right of the plot; default: 20 + the widest series name (the end labels). */
  marginRight?: number;
  /** Short ticks along the bottom at these x (events: garbage collections); say what they are in the subtitle. */
  marksX?: number[];
}

/**
 * Lines per series (`{ x, y, series }` points), labelled at their last point (no legend box to hunt
 * for; a label that would print over the one above it is moved down just enough to clear it).
 * `meta`: `title`, `xLabel` and `yLabel` REQUIRED; `subtitle`, `text`, `logX`, `logY`, `dots`
 * (default true), `height` (default 260), `colours` (by series name; the others take the palette in
 * order), `reference` (a dashed horizontal line at that y), `xDomain` (default: the points' x extent),
 * `marginLeft` (default: as wide as the y labels need), `marginRight` (default: 20 + the widest series
 * name), `marksX` (an 8 px tick up from the x axis at each of these x; those outside the x axis are left
 * out, so they never stretch it) OPTIONAL. Panels given one `xDomain`, `marginLeft` and `marginRight`
 * line up on one x axis when wb.stack puts them one above the other. A linear y axis starts at 0 and
 * ends at a round tick above the data; its labels share one unit (`0, 10k, 20k`; `0, 0.5M, 1M`), never
 * SI units (`100m` would read as 100 ms).
 */
export function lines(points: SeriesPoint[], meta: LinesMeta): Chart {
  const series = [...new Set(points.map((p) => p.series))];
  const height = meta.height ?? 260;
  const ys = [...points.map((p) => p.y), ...(meta.reference !== undefined ? [meta.reference] : [])];
  const y = numberAxis(ys, { log: meta.logY, zero: !meta.logY, pixels: height - 50 });
  // On the values the axis can show, as numberAxis reads them: one NaN would make every label's place NaN.
  const shown = ys.filter((v) => Number.isFinite(v) && (!meta.logY || v > 0));
  const [lo, hi] = [Math.min(...shown, meta.logY ? Infinity : 0), Math.max(...shown)];
  const ends = labelNudges(lastPoints(points), height - 50, (v) =>
    meta.logY ? Math.log(v / lo) / Math.log(hi / lo || 2) : (v - lo) / (hi - lo || 1),
  );
  let next = 0;
  const colours = series.map((s) => meta.colours?.[s] ?? PALETTE[next++ % PALETTE.length]);
  const xs = points.map((p) => p.x).filter(Number.isFinite);
  const [x0, x1] = meta.xDomain ?? [Math.min(...xs), Math.max(...xs)];
  const marksX = (meta.marksX ?? []).filter((x) => x >= Math.min(x0, x1) && x <= Math.max(x0, x1));
  return plot(
    {
      height,
      marginLeft: meta.marginLeft ?? y.margin,
      marginRight: meta.marginRight ?? 20 + Math.max(...series.map((s) => textWidth(s))),
      x: {
        label: meta.xLabel,
        type: meta.logX ? "log" : "linear",
        grid: true,
        tickFormat: tickLabel,
        ...(meta.xDomain ? { domain: meta.xDomain } : {}),
      },
      y: {
        label: meta.yLabel,
        type: meta.logY ? "log" : "linear",
        grid: true,
        ticks: y.ticks,
        tickFormat: y.tickFormat,
        ...(y.domain ? { domain: y.domain } : {}),
      },
      color: { domain: series, range: colours },
      marks: [
        ...(meta.reference !== undefined
          ? [Plot.ruleY([meta.reference], { stroke: "#333", strokeDasharray: "4,3" })]
          : []),
        // marksX: a rule over the plot's height, inset from the top to its last 8 px (the plot is height - 50).
        ...(marksX.length
          ? [Plot.ruleX(marksX, { stroke: MUTED, strokeOpacity: 0.6, insetTop: height - 50 - 8 })]
          : []),
        Plot.line(points, { x: "x", y: "y", z: "series", stroke: "series", strokeWidth: 2 }),
        ...((meta.dots ?? true)
          ? [
              Plot.dot(points, {
                x: "x",
                y: "y",
                fill: "series",
                r: 2.5,
                title: (p: SeriesPoint) => `${p.series}: ${fmt(p.y)} at ${p.x}`,
              }),
            ]
          : []),
        // One text mark per distinct nudge: Plot takes dy as a constant, not a channel.
        ...[...new Set(ends.map((e) => e.dy))].map((dy) =>
          Plot.text(
            ends.filter((e) => e.dy === dy),
            { x: "x", y: "y", text: "series", fill: "series", dx: 5, dy, textAnchor: "start" },
          ),
        ),
      ],
    },
    { ...meta, text: `${meta.title}\n${textTable(points.map((p) => ({ ...p })))}` },
  );
}

/** Each series' last point (largest x). */
function lastPoints(points: readonly SeriesPoint[]): SeriesPoint[] {
  const last = new Map<string, SeriesPoint>();
  for (const p of points) if (!last.has(p.series) || p.x >= last.get(p.series)!.x) last.set(p.series, p);
  return [...last.values()];
}

/**
 * The end labels, each with the vertical nudge in pixels (dy) that keeps it at least `gap` pixels
 * from the label above it: two series that end close together would otherwise print one name over
 * the other. `share` places a value on the axis, 0 at the bottom and 1 at the top of `pixels`.
 */
export function labelNudges(
  ends: readonly SeriesPoint[],
  pixels: number,
  share: (y: number) => number,
  gap = 11,
): (SeriesPoint & { dy: number })[] {
  const top = (p: SeriesPoint) => (1 - share(p.y)) * pixels;
  const placed = ends.filter((p) => Number.isFinite(top(p)));
  let below = -Infinity;
  return [
    ...ends.filter((p) => !placed.includes(p)).map((p) => ({ ...p, dy: 0 })), // no place to keep clear of
    ...placed
      .sort((a, b) => top(a) - top(b))
      .map((p) => {
        const at = Math.max(top(p), below + gap);
        below = at;
        return { ...p, dy: Math.round(at - top(p)) };
      }),
  ];
}
