import * as Plot from "@observablehq/plot";
import { fmt } from "../core/format";
import { numberAxis, tickLabel } from "./axes";
import { type Chart, type ChartMeta, plot } from "./plot";
import { textTable } from "./tables";
import { PALETTE, textWidth } from "./theme";

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
}

/** Lines per series, labelled at their last point (no legend box to hunt for). */
export function lines(points: SeriesPoint[], meta: LinesMeta): Chart {
  const series = [...new Set(points.map((p) => p.series))];
  const height = meta.height ?? 260;
  const ys = [...points.map((p) => p.y), ...(meta.reference !== undefined ? [meta.reference] : [])];
  const y = numberAxis(ys, { log: meta.logY, zero: !meta.logY, pixels: height - 50 });
  let next = 0;
  const colours = series.map((s) => meta.colours?.[s] ?? PALETTE[next++ % PALETTE.length]);
  return plot(
    {
      height,
      marginLeft: y.margin,
      marginRight: 20 + Math.max(...series.map((s) => textWidth(s))),
      x: { label: meta.xLabel, type: meta.logX ? "log" : "linear", grid: true, tickFormat: tickLabel },
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
        Plot.text(
          points,
          Plot.selectLast({ x: "x", y: "y", z: "series", text: "series", fill: "series", dx: 5, textAnchor: "start" }),
        ),
      ],
    },
    { ...meta, text: `${meta.title}\n${textTable(points.map((p) => ({ ...p })))}` },
  );
}
