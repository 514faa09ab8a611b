/**
 * The look of every chart, in one place: the font, the colours, and how wide a text is. Plot draws
 * in jsdom, which cannot measure text, so margins and labels are sized from the font's own advance
 * widths (DejaVu Sans, the font the PNGs are drawn with: harness/src/charts/render.ts).
 */
export const FONT_FAMILY = "DejaVu Sans";
/** The charts' text size, and the size of the small labels beside bars and in flame graphs. */
export const FONT_PX = 11;
export const SMALL_FONT_PX = 9.5;

/** Series colours, in order (Tableau 10). */
export const PALETTE = [
  "#4e79a7",
  "#f28e2b",
  "#59a14f",
  "#e15759",
  "#76b7b2",
  "#b07aa1",
  "#9c755f",
  "#ff9da7",
  "#edc948",
  "#bab0ac",
];

/** Latency percentiles: the middle green, the tail red. */
export const PERCENTILE_COLOURS: Record<"p50" | "p90" | "p99", string> = {
  p50: "#59a14f",
  p90: "#f28e2b",
  p99: "#e15759",
};

/** The two processes of a load test. */
export const PROCESS_COLOURS = { server: "#4e79a7", generator: "#f28e2b" };

/** Flame graph frames by kind: the app's code red, its dependencies orange, Node blue, V8/C++ teal, GC purple. */
export const CATEGORY_COLOURS = {
  user: "#e15759",
  dependency: "#f28e2b",
  node: "#4e79a7",
  native: "#76b7b2",
  gc: "#b07aa1",
  program: "#bab0ac",
  idle: "#dddddd",
} as const;

/** Memory series: RSS, heap total, heap used, external and array buffers. */
export const MEMORY_COLOURS = {
  rss: "#4e79a7",
  heapTotal: "#bab0ac",
  heapUsed: "#b07aa1",
  external: "#59a14f",
  arrayBuffers: "#9c755f",
};

/** The grey of subtitles and reference lines. */
export const MUTED = "#555";

/** The grey of a bar not to trust (a micro-benchmark task measured as fast as an empty loop). */
export const MUTED_BAR = "#bbbbbb";

// DejaVu Sans advance widths of the printable ASCII characters (space to ~), in font units (2048 per em),
// read from node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf (its hmtx table).
const ADVANCE = [
  651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651, 739, 651, 690, 1303, 1303, 1303, 1303, 1303,
  1303, 1303, 1303, 1303, 1303, 690, 690, 1716, 1716, 1716, 1087, 2048, 1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540,
  604, 604, 1343, 1141, 1767, 1532, 1612, 1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799, 690,
  799, 1716, 1024, 1024, 1255, 1300, 1126, 1300, 1260, 721, 1300, 1298, 569, 569, 1186, 569, 1995, 1298, 1253, 1300,
  1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075, 1303, 690, 1303, 1716,
];
/** Characters outside printable ASCII (…, –, µ, ×) are taken as wide as a digit. */
const OTHER = 1303;

/** The width in px of `text` at `px` (default FONT_PX) in DejaVu Sans; bold is about 9 % wider. */
export function textWidth(text: string, px = FONT_PX, bold = false): number {
  let units = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    units += code >= 32 && code < 127 ? ADVANCE[code - 32] : OTHER;
  }
  return (units / 2048) * px * (bold ? 1.09 : 1);
}

/** How many characters of average text fit in `width` px at `px`. */
export function charsIn(width: number, px = FONT_PX): number {
  return Math.floor(width / ((1200 / 2048) * px));
}
