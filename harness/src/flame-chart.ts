import * as Plot from "@observablehq/plot";
import { plot, Chart, textTable } from "./charts";
import { CATEGORY_COLOURS, FlameData, FlameRect, FrameCategory } from "./flame";

/** A static flame graph: one rect per frame, width = share of samples, coloured by category. */
export function flameChart(data: FlameData, meta: { title: string; subtitle?: string; maxDepth?: number }): Chart {
  const maxDepth = meta.maxDepth ?? 48;
  const rects = data.rects.filter((r) => r.depth < maxDepth);
  const depth = Math.max(1, ...rects.map((r) => r.depth + 1));
  const width = 900;
  const label = (r: FlameRect) => {
    const chars = Math.floor(((r.x1 - r.x0) * (width - 20)) / 6.2) - 1;
    return chars < 4 ? "" : r.name.length > chars ? r.name.slice(0, chars - 1) + "…" : r.name;
  };
  const shares = (Object.entries(data.categories) as [FrameCategory, number][]).filter(([, v]) => v >= 0.005);
  return plot({
    width,
    height: 75 + depth * 15,
    marginLeft: 10, marginRight: 24, marginBottom: 30,
    x: { domain: [0, 1], tickFormat: (d: number) => `${Math.round(d * 100)}%`, label: "share of busy CPU samples" },
    y: { domain: [0, depth + 1.2], axis: null },
    color: { domain: Object.keys(CATEGORY_COLOURS), range: Object.values(CATEGORY_COLOURS) },
    marks: [
      Plot.rect(rects, {
        x1: "x0", x2: "x1", y1: "depth", y2: (r: FlameRect) => r.depth + 1, fill: "category", stroke: "white", strokeWidth: 0.5,
        title: (r: FlameRect) => `${r.name} ${r.file ? `${r.file}:${r.line}` : "(native)"}\n${r.category} · total ${(100 * (r.x1 - r.x0)).toFixed(1)}% · self ${(100 * r.self).toFixed(1)}%`,
      }),
      Plot.text(rects, { x: "x0", y: (r: FlameRect) => r.depth + 0.5, text: label, dx: 3, textAnchor: "start", fontSize: 9.5, fill: "black" }),
      Plot.text(shares, { x: (_: unknown, i: number) => i / shares.length, y: depth + 0.7, textAnchor: "start", dx: 14, text: ([c, v]: [FrameCategory, number]) => `${c} ${(v * 100).toFixed(0)}%`, fill: "black" }),
      Plot.dot(shares, { x: (_: unknown, i: number) => i / shares.length, y: depth + 0.7, dx: 6, r: 5, fill: ([c]: [FrameCategory, number]) => c }),
    ],
  }, {
    title: meta.title,
    subtitle: meta.subtitle ?? `${data.samples} samples over ${(data.durationMs / 1000).toFixed(1)} s, ${(data.idleShare * 100).toFixed(0)}% idle (left out); stacks grow upwards; width = share of busy time; hover for details`,
    text: `${meta.title}\n${hotTable(data, 12)}`,
  });
}

/** The hottest frames as a text table. */
export function hotTable(data: FlameData, n = 10): string {
  return textTable(data.hot.filter((h) => h.category !== "idle").slice(0, n).map((h) => ({
    frame: h.name.slice(0, 40), where: h.file ? `${h.file}:${h.line}` : "(native)", kind: h.category,
    "self %": +(h.selfShare * 100).toFixed(1), "total %": +(h.totalShare * 100).toFixed(1),
    "attributed %": h.category === "user" ? +(h.attributedShare * 100).toFixed(1) : "",
  })));
}
