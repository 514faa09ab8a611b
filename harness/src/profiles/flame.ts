import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FlameData, FlameRect, Frame, FrameCategory, HotFrame, LineTicks } from "../charts/flame-chart";
import { repoRoot } from "../core/paths";

/**
 * From a V8 profile to a flame graph's data: the call tree with siblings of the same frame merged,
 * the hottest frames, and the share of each kind of code. One analysis for both profiles V8 writes:
 * a CPU profile (`--cpu-prof`: widths are samples) and a sampling heap profile (widths are bytes).
 * A CPU profile's app frames also get their own samples by source line (V8's positionTicks).
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

/** The V8 .cpuprofile format, as `node --cpu-prof` writes it. */
export interface V8CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[]; positionTicks?: { line: number; ticks: number }[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The V8 sampling heap profile format (HeapProfiler.stopSampling, `--heap-prof`'s .heapprofile). */
export interface V8HeapProfile {
  head: V8HeapNode;
  samples?: { size: number; nodeId: number; ordinal: number }[];
}
export interface V8HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  id: number;
  children: V8HeapNode[];
}

export function frameOf(cf: CallFrame): Frame {
  const name = cf.functionName || "(anonymous)";
  const url = cf.url;
  let category: FrameCategory;
  let file = url;
  if (name === "(garbage collector)") category = "gc";
  else if (name === "(idle)") category = "idle";
  else if (name === "(program)" || name === "(root)") category = "program";
  else if (!url) category = "native";
  else if (url.startsWith("node:") || !/^(file:|\/)/.test(url)) category = "node";
  else {
    const abs = url.startsWith("file:") ? fileURLToPath(url) : url;
    file = path.relative(repoRoot, abs);
    category = abs.includes(`${path.sep}node_modules${path.sep}`) ? "dependency" : "user";
  }
  return { name, file, line: cf.lineNumber + 1, category };
}

const keyOf = (f: Frame) => `${f.name}|${f.file}|${f.line}`;

/** A call tree: each node's own weight (samples or bytes) and its children, siblings of the same frame merged. */
interface Merged {
  frame: Frame;
  self: number;
  total: number;
  children: Map<string, Merged>;
}

function mergeInto(a: Merged, b: Merged): void {
  a.self += b.self;
  for (const [k, c] of b.children) {
    const e = a.children.get(k);
    if (e) mergeInto(e, c);
    else a.children.set(k, c);
  }
}

function build<N>(node: N, frame: (n: N) => CallFrame, self: (n: N) => number, kids: (n: N) => N[]): Merged {
  const m: Merged = { frame: frameOf(frame(node)), self: self(node), total: 0, children: new Map() };
  for (const child of kids(node)) {
    const c = build(child, frame, self, kids);
    const k = keyOf(c.frame);
    const e = m.children.get(k);
    if (e) mergeInto(e, c);
    else m.children.set(k, c);
  }
  return m;
}

const sumTotals = (m: Merged): number =>
  (m.total =
    (m.frame.category === "idle" ? 0 : m.self) + [...m.children.values()].reduce((s, c) => s + sumTotals(c), 0));

/** Lay a merged tree out as a flame graph and rank its frames. `busy`: the total the shares are of. */
function layout(
  root: Merged,
  busy: number,
  minShare: number,
): Pick<FlameData, "rects" | "hot" | "hottestUser" | "categories"> {
  const total = Math.max(1e-12, busy);
  const categories = { user: 0, dependency: 0, node: 0, native: 0, gc: 0, program: 0, idle: 0 } as Record<
    FrameCategory,
    number
  >;
  const hot = new Map<string, HotFrame>();
  const rects: FlameRect[] = [];
  const walk = (m: Merged, depth: number, x0: number, onStack: Set<string>, owner: HotFrame | null) => {
    const f = m.frame;
    if (f.category === "idle") return;
    const k = keyOf(f);
    categories[f.category] += m.self;
    const h = hot.get(k) ?? { ...f, selfShare: 0, totalShare: 0, attributedShare: 0, lines: [] };
    hot.set(k, h);
    h.selfShare += m.self;
    if (!onStack.has(k)) h.totalShare += m.total;
    const attributeTo = f.category === "user" ? h : owner;
    if (attributeTo) attributeTo.attributedShare += m.self;
    if (depth > 0 && m.total / total >= minShare) {
      rects.push({ ...f, depth: depth - 1, x0: x0 / total, x1: (x0 + m.total) / total, self: m.self / total });
    }
    let x = x0;
    const next = new Set(onStack).add(k);
    for (const c of [...m.children.values()].sort((a, b) => b.total - a.total)) {
      walk(c, depth + 1, x, next, attributeTo);
      x += c.total;
    }
  };
  walk(root, 0, 0, new Set(), null);
  const frames = [...hot.values()].filter((h) => h.category !== "program" || h.name !== "(root)");
  for (const h of frames) {
    h.selfShare /= total;
    h.totalShare /= total;
    h.attributedShare /= total;
  }
  for (const c of Object.keys(categories) as FrameCategory[]) categories[c] /= total;
  const score = (h: HotFrame) => (h.category === "user" ? h.attributedShare : h.selfShare);
  frames.sort((a, b) => score(b) - score(a));
  const users = frames.filter((h) => h.category === "user").sort((a, b) => b.attributedShare - a.attributedShare);
  return { rects, hot: frames, hottestUser: users[0] ?? null, categories };
}

/** The lines of the file a profile's url names (a path or a file: URL); null for node:, native or unreadable. */
export function sourceLines(url: string): string[] | null {
  const file = url.startsWith("file:") ? fileURLToPath(url) : url;
  if (!path.isAbsolute(file)) return null;
  try {
    return fs.readFileSync(file, "utf8").split("\n");
  } catch {
    return null;
  }
}

/**
 * The self samples of each of the app's own frames by source line (V8's positionTicks, added up over
 * the frame's nodes), most samples first, by frame key, with the line's text: each file read once,
 * and only the app's own (other frames get no lines).
 */
function linesByFrame(profile: V8CpuProfile): Map<string, LineTicks[]> {
  const ticks = new Map<string, { url: string; byLine: Map<number, number> }>();
  for (const node of profile.nodes) {
    if (!node.positionTicks?.length) continue;
    const f = frameOf(node.callFrame);
    if (f.category !== "user") continue;
    const t = ticks.get(keyOf(f)) ?? { url: node.callFrame.url, byLine: new Map<number, number>() };
    ticks.set(keyOf(f), t);
    for (const p of node.positionTicks) t.byLine.set(p.line, (t.byLine.get(p.line) ?? 0) + p.ticks);
  }
  const files = new Map<string, string[] | null>();
  const out = new Map<string, LineTicks[]>();
  for (const [key, { url, byLine }] of ticks) {
    if (!files.has(url)) files.set(url, sourceLines(url));
    const source = files.get(url);
    const samples = [...byLine.values()].reduce((a, b) => a + b, 0);
    const lines = [...byLine.entries()]
      .map(([line, n]) => ({
        line,
        samples: n,
        share: samples ? n / samples : 0,
        text: source?.[line - 1]?.trim() ?? null,
      }))
      .sort((a, b) => b.samples - a.samples);
    out.set(key, lines);
  }
  return out;
}

/**
 * A CPU profile as a flame graph's data. Shares are of the busy (non-idle) samples; `idleShare` is
 * of all. `minShare` OPTIONAL: a frame below this share gets no rectangle (it still counts in `hot`
 * and `categories`). Default 0.002. Each of the app's own frames in `hot` carries its own samples by
 * source line (`lines`), with the line's text read from its file.
 */
export function cpuFlame(profile: V8CpuProfile, { minShare = 0.002 } = {}): FlameData {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfCount = new Map<number, number>();
  for (const id of profile.samples) selfCount.set(id, (selfCount.get(id) ?? 0) + 1);
  const idle = profile.nodes
    .filter((n) => n.callFrame.functionName === "(idle)")
    .reduce((a, n) => a + (selfCount.get(n.id) ?? 0), 0);
  const root = build(
    profile.nodes[0],
    (n) => n.callFrame,
    (n) => selfCount.get(n.id) ?? 0,
    (n) => (n.children ?? []).map((id) => byId.get(id)!),
  );
  sumTotals(root);
  const laid = layout(root, profile.samples.length - idle, minShare);
  const lines = linesByFrame(profile);
  for (const h of laid.hot) h.lines = lines.get(keyOf(h)) ?? [];
  return {
    unit: "samples",
    total: profile.samples.length,
    idleShare: idle / Math.max(1, profile.samples.length),
    durationMs: (profile.endTime - profile.startTime) / 1000,
    ...laid,
  };
}

/** A sampling heap profile as a flame graph's data: widths are the bytes allocated under each frame. */
export function heapFlame(profile: V8HeapProfile, { minShare = 0.002 } = {}): FlameData {
  const root = build(
    profile.head,
    (n) => n.callFrame,
    (n) => n.selfSize,
    (n) => n.children,
  );
  const total = sumTotals(root);
  return { unit: "bytes", total, idleShare: 0, durationMs: 0, ...layout(root, total, minShare) };
}
