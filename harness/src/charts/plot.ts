import * as Plot from "@observablehq/plot";
import { newOutput, type Output } from "./display";
import { document, svgString, toPng } from "./render";
import { FONT_FAMILY, FONT_PX, MUTED } from "./theme";

/** A rendered chart: SVG for the browser, a text fallback, and its size. */
export interface Chart {
  title: string;
  svg: string;
  text: string;
  width: number;
  height: number;
}

export interface ChartMeta {
  /** Bold line above the chart. */
  title: string;
  /** Grey line(s) under the title: what to look at ("\n" starts another line). */
  subtitle?: string;
  /** The text/plain fallback; default: the title. */
  text?: string;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Render Plot options to a Chart, with the workbook's font, size and title block. */
export function plot(options: Plot.PlotOptions, meta: ChartMeta): Chart {
  const width = options.width ?? 640;
  const height = options.height ?? 300;
  const node = Plot.plot({
    ...options,
    width,
    height,
    document: document(),
    style: { fontFamily: `${FONT_FAMILY}, sans-serif`, fontSize: `${FONT_PX}px`, background: "white", color: "black" },
  }) as unknown as Element;
  if (node.tagName.toLowerCase() !== "svg") {
    throw new Error("charts: Plot returned a <figure>; give the title through meta, and draw legends as marks");
  }
  return frame(svgString(node), width, height, meta);
}

function frame(inner: string, width: number, height: number, meta: ChartMeta): Chart {
  const subtitles = meta.subtitle ? meta.subtitle.split("\n") : [];
  const top = 26 + subtitles.length * 17;
  const sub = subtitles.map(
    (line, i) => `<text x="4" y="${35 + i * 17}" font-size="11.5" fill="${MUTED}">${esc(line)}</text>`,
  );
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height + top}" viewBox="0 0 ${width} ${height + top}" ` +
    `font-family="${FONT_FAMILY}, sans-serif"><rect width="100%" height="100%" fill="white"/>` +
    `<text x="4" y="17" font-size="14" font-weight="bold" fill="black">${esc(meta.title)}</text>${sub.join("")}` +
    `<svg x="0" y="${top}" width="${width}" height="${height}">${inner}</svg></svg>`;
  return { title: meta.title, svg, text: meta.text ?? meta.title, width, height: height + top };
}

/** Several charts one above the other, as one chart (one output, one PNG), their text faces joined. */
export function stack(charts: Chart[], meta: ChartMeta): Chart {
  const width = Math.max(...charts.map((c) => c.width));
  let y = 0;
  const parts = charts.map((c) => {
    const part = `<svg x="0" y="${y}" width="${c.width}" height="${c.height}">${c.svg.replace(/^<svg[^>]*>/, "").replace(/<\/svg>$/, "")}</svg>`;
    y += c.height + 8;
    return part;
  });
  const text = [meta.text ?? meta.title, ...charts.map((c) => c.text)].join("\n\n");
  return frame(parts.join(""), width, y, { ...meta, text });
}

/** Two charts side by side, as one chart. */
export function beside(charts: Chart[], meta: ChartMeta): Chart {
  let x = 0;
  const parts = charts.map((c) => {
    const part = `<svg x="${x}" y="0" width="${c.width}" height="${c.height}">${c.svg.replace(/^<svg[^>]*>/, "").replace(/<\/svg>$/, "")}</svg>`;
    x += c.width + 12;
    return part;
  });
  const text = [meta.text ?? meta.title, ...charts.map((c) => c.text)].join("\n\n");
  return frame(parts.join(""), x - 12, Math.max(...charts.map((c) => c.height)), { ...meta, text });
}

/**
 * Show a chart as ONE output holding image/svg+xml, image/png and text/plain, so it appears
 * in trusted and untrusted JupyterLab, in exported HTML and in a terminal. Pass an Output
 * (from newOutput) to redraw in place. `output`: by default a new output of the running cell (outside
 * a kernel it prints the text face to stdout); any object with an `update(bundle)` method works (the
 * samples pass one that writes files). `png: false` leaves the PNG out.
 *
 * @example
 * wb.show(wb.stack([
 *   wb.lines(rps, { title: "Throughput vs connections", xLabel: "connections", yLabel: "req/s", logX: true }),
 *   wb.lines(lat, { title: "Latency vs connections", xLabel: "connections", yLabel: "ms", logX: true, logY: true }),
 * ], { title: "Concurrency sweep: hello-http", subtitle: "where throughput stops growing, and latency then" }));
 */
export function show(chart: Chart, output: Output = newOutput(), { png = true } = {}): void {
  output.update({
    ...(png ? { "image/png": toPng(chart.svg) } : {}),
    "image/svg+xml": chart.svg,
    "text/plain": chart.text,
  });
}
