import * as Plot from "@observablehq/plot";
import { fmt, pct } from "../core/format";
import { type Chart, plot } from "./plot";
import { textTable } from "./tables";
import { CATEGORY_COLOURS, charsIn, SMALL_FONT_PX } from "./theme";

/**
 * A flame graph's data and its drawing. The data (what profiles/flame.ts computes from a CPU profile
 * or a sampling heap profile) is defined here, with the chart that draws it.
 */
export type FrameCategory = keyof typeof CATEGORY_COLOURS;

export interface Frame {
  name: string;
  /** File relative to the workbook (apps/...), node:..., or "" for native frames. */
  file: string;
  /** 1-based line, 0 when unknown. */
  line: number;
  category: FrameCategory;
}

/** One rectangle of the flame graph. x0/x1 are shares of the busy total (0..1). */
export interface FlameRect extends Frame {
  depth: number;
  x0: number;
  x1: number;
  self: number;
}

/** One source line of a frame, with the frame's own samples that fell on it (V8's positionTicks). */
export interface LineTicks {
  /** 1-based source line. */
  line: number;
  samples: number;
  /** Share of the frame's own (self) samples that fell on this line. */
  share: number;
  /** The line's source text, trimmed; null when the file cannot be read. */
  text: string | null;
}

export interface HotFrame extends Frame {
  /** Share of the busy total with this frame on top of the stack. */
  selfShare: number;
  /** Share of the busy total with this frame anywhere on the stack. */
  totalShare: number;
  /** For the app's own frames: its own share plus that of the native, node and dependency frames it called. */
  attributedShare: number;
  /**
   * For the app's own frames of a CPU profile: its own samples by source line, most samples first.
   * V8 books the time of its builtins (`JSON.stringify`, for one) to the JavaScript function that
   * called them, so a line is often the only place they show. Empty for every other frame, for a
   * frame whose samples V8 gave no lines, and for a heap profile.
   */
  lines: LineTicks[];
}

export interface FlameData {
  /** What the widths measure: CPU samples (a CPU profile) or bytes allocated (a sampling heap profile). */
  unit: "samples" | "bytes";
  /** Samples in all (idle ones included), or bytes. */
  total: number;
  /** Share of samples in which the process was idle (waiting for I/O); 0 for a heap profile. Every other share is of the busy total. */
  idleShare: number;
  /** The profile's length in ms (0 for a heap profile). */
  durationMs: number;
  rects: FlameRect[];
  /** Frames by attributed share (the app's own) or self share, hottest first. */
  hot: HotFrame[];
  /** The hottest frame of the app's own code. */
  hottestUser: HotFrame | null;
  /** Share of the busy total on top of the stack, by category. */
  categories: Record<FrameCategory, number>;
}

export interface FlameChartMeta {
  title: string;
  subtitle?: string;
  /**
   * Frames narrower than this share of the width are left out, and the chart is as tall as the
   * deepest stack of the frames left. Default 0.01 (1 %, about 9 px): a tower a few pixels wide
   * would otherwise make a chart taller than a screen with the frames that matter squeezed into
   * its bottom rows. The subtitle says how much was left out.
   */
  minWidth?: number;
  /** Stack levels drawn at most; deeper frames are left out (and counted in the subtitle). Default 40. */
  maxDepth?: number;
  /** A call chain longer than this (frames that only call the next) is folded into one box. Default 4. */
  chain?: number;
}

const WIDTH = 900;

interface FoldNode {
  rect: FlameRect;
  children: FoldNode[];
}

/** The rects as a tree: each rect's parent is the rect one level down whose span holds it. */
function toTree(rects: FlameRect[]): FoldNode[] {
  const nodes = rects
    .map((rect) => ({ rect, children: [] as FoldNode[] }))
    .sort((a, b) => a.rect.depth - b.rect.depth || a.rect.x0 - b.rect.x0);
  const roots: FoldNode[] = [];
  const eps = 1e-9;
  for (const n of nodes) {
    const parent = nodes.find(
      (p) => p.rect.depth === n.rect.depth - 1 && n.rect.x0 >= p.rect.x0 - eps && n.rect.x1 <= p.rect.x1 + eps,
    );
    (parent ? parent.children : roots).push(n);
  }
  return roots;
}

/** A node with one child (of those drawn) nearly as wide as itself: a link of a call chain that does little else. */
const chainLink = (n: FoldNode) =>
  n.children.length === 1 && n.children[0].rect.x1 - n.children[0].rect.x0 >= 0.9 * (n.rect.x1 - n.rect.x0);

/**
 * The frames to draw and a sentence on what was left out: frames narrower than `minWidth` go, and a
 * call chain of more than `chain` frames that each only call the next (middleware, wrappers,
 * promise plumbing) is folded into one box "⋯ N frames", so the height follows the work, not the
 * plumbing; anything still deeper than `maxDepth` is cut.
 */
export function foldFlame(
  data: FlameData,
  minWidth = 0.01,
  maxDepth = 40,
  chain = 4,
): { rects: FlameRect[]; depth: number; folded: string } {
  const out: FlameRect[] = [];
  let foldedFrames = 0;
  let cut = 0;
  const size = (n: FoldNode): number => 1 + n.children.reduce((a, c) => a + size(c), 0);
  const place = (n: FoldNode, depth: number): void => {
    if (depth >= maxDepth) {
      cut += size(n);
      return;
    }
    const links = [n];
    while (chainLink(links[links.length - 1])) links.push(links[links.length - 1].children[0]);
    if (links.length > chain + 1) {
      const [first, last] = [links[0], links[links.length - 1]];
      const hidden = links.slice(1, -1);
      out.push({ ...first.rect, depth });
      if (depth + 1 >= maxDepth) {
        cut += size(first) - 1;
        return;
      }
      foldedFrames += hidden.length;
      const names = [...new Set(hidden.map((h) => h.rect.name))].slice(0, 3).join(", ");
      out.push({
        ...hidden[0].rect,
        name: `⋯ ${hidden.length} frames (${names})`,
        file: "",
        line: 0,
        self: 0,
        depth: depth + 1,
      });
      placeOwn(last, depth + 2);
      return;
    }
    placeOwn(n, depth);
  };
  const placeOwn = (n: FoldNode, depth: number): void => {
    if (depth >= maxDepth) {
      cut += size(n);
      return;
    }
    out.push({ ...n.rect, depth });
    for (const c of n.children) place(c, depth + 1);
  };
  for (const root of toTree(data.rects.filter((r) => r.x1 - r.x0 >= minWidth))) place(root, 0);
  const deepest = Math.max(0, ...data.rects.map((r) => r.depth + 1));
  const depth = Math.max(1, ...out.map((r) => r.depth + 1));
  const parts = [`frames narrower than ${pct(minWidth, minWidth < 0.01 ? 1 : 0)} of the width left out`];
  if (foldedFrames) parts.push(`${foldedFrames} frames of call chains folded into "⋯" boxes`);
  if (cut) parts.push(`${cut} frames below level ${maxDepth} cut`);
  if (deepest > depth) parts.push(`${depth} levels drawn of ${deepest}`);
  return { rects: out, depth, folded: parts.join("; ") };
}

/**
 * A static flame graph: stacks grow upwards, width is the share of the busy CPU samples (or of the
 * bytes allocated, for a heap profile), colour the kind of code (the app's own red, its dependencies
 * orange, Node blue, native teal, GC purple); hovering a frame shows its file and line. `meta.title`
 * REQUIRED; OPTIONAL: `subtitle` (default: the samples, seconds, idle share and what was left out),
 * `minWidth` (frames narrower than this share are left out; 0.01), `maxDepth` (40), `chain` (a chain
 * of more than this many frames that each only call the next, such as middleware or promise
 * plumbing, folds into one `⋯ N frames` box; 4). The text face is the title and the 12 hottest frames.
 *
 * A HotFrame's `attributedShare`, for the app's own frames, is its own samples plus those of the
 * Node, native and dependency frames it called; the app's frames are ranked by it, others by `selfShare`.
 * Its `lines`, for the app's own frames, are its own samples by source line, with the line's text.
 *
 * @example
 * const p = await wb.cpuProfile("etag-slow", { load: { path: "/seed/v1" } });
 * wb.show(wb.flameChart(p.flame, { title: "Flame graph: the slow server under load" }));
 * console.log(wb.hotTable(p.flame, 8));
 * const lines = p.flame.hottestUser!.lines.slice(0, 4); // its own samples by line: { line, samples, share, text }
 */
export function flameChart(data: FlameData, meta: FlameChartMeta): Chart {
  const { rects, depth, folded } = foldFlame(data, meta.minWidth, meta.maxDepth, meta.chain);
  const label = (r: FlameRect) => {
    const chars = charsIn((r.x1 - r.x0) * (WIDTH - 34), SMALL_FONT_PX) - 1;
    if (chars < 4) return "";
    return r.name.length > chars ? `${r.name.slice(0, chars - 1)}…` : r.name;
  };
  const shares = (Object.entries(data.categories) as [FrameCategory, number][]).filter(([, v]) => v >= 0.005);
  const what =
    data.unit === "bytes"
      ? `${fmt(data.total / 2 ** 20)} MB allocated (sampled)`
      : `${fmt(data.total)} samples over ${(data.durationMs / 1000).toFixed(1)} s, ${pct(data.idleShare)} idle (left out)`;
  const across = data.unit === "bytes" ? "share of the bytes allocated" : "share of busy CPU samples";
  return plot(
    {
      width: WIDTH,
      height: 75 + depth * 15,
      marginLeft: 10,
      marginRight: 24,
      marginBottom: 30,
      x: { domain: [0, 1], tickFormat: (d: number) => `${Math.round(d * 100)}%`, label: across },
      y: { domain: [0, depth + 1.2], axis: null },
      color: { domain: Object.keys(CATEGORY_COLOURS), range: Object.values(CATEGORY_COLOURS) },
      marks: [
        Plot.rect(rects, {
          x1: "x0",
          x2: "x1",
          y1: "depth",
          y2: (r: FlameRect) => r.depth + 1,
          fill: "category",
          stroke: "white",
          strokeWidth: 0.5,
          title: (r: FlameRect) =>
            `${r.name} ${r.file ? `${r.file}:${r.line}` : "(native)"}\n${r.category} · total ${pct(r.x1 - r.x0, 1)} · self ${pct(r.self, 1)}`,
        }),
        Plot.text(rects, {
          x: "x0",
          y: (r: FlameRect) => r.depth + 0.5,
          text: label,
          dx: 3,
          textAnchor: "start",
          fontSize: SMALL_FONT_PX,
          fill: "black",
        }),
        Plot.text(shares, {
          x: (_: unknown, i: number) => i / shares.length,
          y: depth + 0.7,
          textAnchor: "start",
          dx: 14,
          text: ([c, v]: [FrameCategory, number]) => `${c} ${(v * 100).toFixed(0)}%`,
          fill: "black",
        }),
        Plot.dot(shares, {
          x: (_: unknown, i: number) => i / shares.length,
          y: depth + 0.7,
          dx: 6,
          r: 5,
          fill: ([c]: [FrameCategory, number]) => c,
        }),
      ],
    },
    {
      title: meta.title,
      subtitle: meta.subtitle ?? `${what}; stacks grow upwards; width = ${across}\n${folded}`,
      text: `${meta.title}\n${hotTable(data, 12)}`,
    },
  );
}

/** The hottest frames as a text table (frame, where, kind, self %, total %, and attributed % for the app's own). */
export function hotTable(data: FlameData, n = 10): string {
  return textTable(
    data.hot
      .filter((h) => h.category !== "idle")
      .slice(0, n)
      .map((h) => ({
        frame: h.name.slice(0, 40),
        where: h.file ? `${h.file}:${h.line}` : "(native)",
        kind: h.category,
        "self %": +(h.selfShare * 100).toFixed(1),
        "total %": +(h.totalShare * 100).toFixed(1),
        "attributed %": h.category === "user" ? +(h.attributedShare * 100).toFixed(1) : "",
      })),
  );
}
