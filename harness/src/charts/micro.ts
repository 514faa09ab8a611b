import * as Plot from "@observablehq/plot";
import { fmt } from "../core/format";
import { tickLabel } from "./axes";
import { type Chart, type ChartMeta, plot } from "./plot";
import { textTable } from "./tables";
import { MUTED, PALETTE, SMALL_FONT_PX, textWidth } from "./theme";

/** One micro-benchmark task as a bar: what notebook 05's microbench measures (a MicroTask fits). */
export interface OpsRow {
  name: string;
  /** Operations per second (the mean of the samples). */
  opsPerSec: number;
  /** Relative margin of error of the mean, in percent (95 % confidence). */
  rme: number;
  /** Measured within 1.5x of an empty loop: drawn grey and marked, its work probably removed by the JIT. */
  suspect?: boolean;
}

/** "12.3M ops/s ±2.1 %" */
const valueText = (r: OpsRow) => `${tickLabel(r.opsPerSec)} ±${fmt(r.rme)} %${r.suspect ? "  suspect" : ""}`;

/**
 * Micro-benchmark results as horizontal bars of operations per second, each with its error bar (the
 * mean ± its margin of error) and its value written beside it; a suspect row (measured as fast as an
 * empty loop) is grey and marked. Log axis by default (`meta.log`): tasks of one suite often differ
 * by decades. Rows `{ name, opsPerSec, rme, suspect? }`: a `MicroTask` fits.
 *
 * @example
 * wb.show(lesson.opsBars(lies.tasks, { title: "Why micro-benchmarks lie", subtitle: lies.pinned }));
 */
export function opsBars(rows: OpsRow[], meta: ChartMeta & { log?: boolean }): Chart {
  const log = meta.log ?? true;
  const lo = (r: OpsRow) => r.opsPerSec * Math.max(0.01, 1 - r.rme / 100);
  const hi = (r: OpsRow) => r.opsPerSec * (1 + r.rme / 100);
  const top = Math.max(...rows.map(hi));
  const floor = log ? 10 ** Math.floor(Math.log10(Math.min(...rows.map(lo)))) : 0;
  const marginLeft = Math.ceil(14 + Math.max(...rows.map((r) => textWidth(r.name))));
  const marginRight = Math.ceil(16 + Math.max(...rows.map((r) => textWidth(valueText(r), SMALL_FONT_PX))));
  const colour = (r: OpsRow) => (r.suspect ? "#bbbbbb" : PALETTE[0]);
  return plot(
    {
      width: Math.max(640, marginLeft + marginRight + 320),
      height: 46 + rows.length * 28,
      marginLeft,
      marginRight,
      x: {
        label: "operations per second →",
        grid: true,
        type: log ? "log" : "linear",
        domain: [floor, top * (log ? 1.5 : 1.05)],
        tickFormat: tickLabel,
      },
      y: { label: null, domain: rows.map((r) => r.name) },
      marks: [
        Plot.barX(rows, { y: "name", x1: floor, x2: "opsPerSec", fill: colour, insetTop: 4, insetBottom: 4 }),
        Plot.ruleY(rows, { y: "name", x1: lo, x2: hi, stroke: "black", strokeWidth: 1.5 }),
        Plot.tickX(rows, { y: "name", x: lo, stroke: "black", insetTop: 8, insetBottom: 8 }),
        Plot.tickX(rows, { y: "name", x: hi, stroke: "black", insetTop: 8, insetBottom: 8 }),
        Plot.text(rows, {
          y: "name",
          x: hi,
          text: valueText,
          dx: 6,
          textAnchor: "start",
          fontSize: SMALL_FONT_PX,
          fill: (r: OpsRow) => (r.suspect ? MUTED : "black"),
        }),
      ],
    },
    {
      ...meta,
      text: `${meta.title}\n${textTable(
        rows.map((r) => ({ task: r.name, "ops/s": r.opsPerSec, "±%": r.rme, suspect: r.suspect ? "yes" : "" })),
      )}`,
    },
  );
}
