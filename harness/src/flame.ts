import path from "node:path";
import { fileURLToPath } from "node:url";
import { repoRoot } from "./paths";

/** The V8 .cpuprofile format, as `node --cpu-prof` writes it. */
export interface V8CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export type FrameCategory = "user" | "dependency" | "node" | "native" | "gc" | "program" | "idle";

export const CATEGORY_COLOURS: Record<FrameCategory, string> = {
  user: "#e15759", dependency: "#f28e2b", node: "#4e79a7", native: "#76b7b2", gc: "#b07aa1", program: "#bab0ac", idle: "#dddddd",
};

export interface Frame {
  name: string;
  /** File relative to the workbook (apps/...), node:..., or "" for native frames. */
  file: string;
  /** 1-based line, 0 when unknown. */
  line: number;
  category: FrameCategory;
}

/** One rectangle of the flame graph. x0/x1 are shares of all samples (0..1). */
export interface FlameRect extends Frame {
  depth: number;
  x0: number;
  x1: number;
  self: number;
}

export interface HotFrame extends Frame {
  /** Share of samples with this frame on top of the stack. */
  selfShare: number;
  /** Share of samples with this frame anywhere on the stack. */
  totalShare: number;
  /** For user frames: own samples plus those of the native/node/dependency frames it called (until the next user frame). */
  attributedShare: number;
}

export interface FlameData {
  samples: number;
  /** Share of samples in which the process was idle (waiting for I/O). Every other share is of the busy samples. */
  idleShare: number;
  durationMs: number;
  rects: FlameRect[];
  /** Frames by attributed share (user frames) or self share, hottest first. */
  hot: HotFrame[];
  /** The hottest frame of the app's own code. */
  hottestUser: HotFrame | null;
  /** Share of samples on top of the stack by category. */
  categories: Record<FrameCategory, number>;
}

export function frameOf(cf: V8CpuProfile["nodes"][number]["callFrame"]): Frame {
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

/** Analyse a profile: flame layout (siblings with the same frame merged), hot frames, categories. */
export function analyse(profile: V8CpuProfile, { minShare = 0.002 } = {}): FlameData {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfCount = new Map<number, number>();
  for (const id of profile.samples) selfCount.set(id, (selfCount.get(id) ?? 0) + 1);
  const idleIds = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  const idle = profile.samples.filter((id) => idleIds.has(id)).length;
  // Shares are of the busy samples: an idle server should not shrink its own flame graph.
  const total = Math.max(1, profile.samples.length - idle);
  const categories = { user: 0, dependency: 0, node: 0, native: 0, gc: 0, program: 0, idle: 0 } as Record<FrameCategory, number>;
  const hot = new Map<string, HotFrame>();
  const rects: FlameRect[] = [];

  // A merged call tree: children with the same frame become one node.
  interface Merged { frame: Frame; self: number; total: number; children: Map<string, Merged> }
  const merge = (ids: number[]): Map<string, Merged> => {
    const out = new Map<string, Merged>();
    for (const id of ids) {
      const n = byId.get(id)!;
      const frame = frameOf(n.callFrame);
      const k = keyOf(frame);
      const m = out.get(k) ?? { frame, self: 0, total: 0, children: new Map() };
      m.self += selfCount.get(id) ?? 0;
      for (const [ck, child] of merge(n.children ?? [])) {
        const existing = m.children.get(ck);
        if (existing) mergeInto(existing, child);
        else m.children.set(ck, child);
      }
      out.set(k, m);
    }
    return out;
  };
  const mergeInto = (a: Merged, b: Merged) => {
    a.self += b.self;
    for (const [k, c] of b.children) {
      const e = a.children.get(k);
      if (e) mergeInto(e, c);
      else a.children.set(k, c);
    }
  };
  const sumTotals = (m: Merged): number => (m.total = (m.frame.category === "idle" ? 0 : m.self) + [...m.children.values()].reduce((s, c) => s + sumTotals(c), 0));
  const root = [...merge([profile.nodes[0].id]).values()][0];
  sumTotals(root);

  const walk = (m: Merged, depth: number, x0: number, onStack: Set<string>, owner: HotFrame | null) => {
    const f = m.frame;
    if (f.category === "idle") return;
    const k = keyOf(f);
    categories[f.category] += m.self;
    const h = hot.get(k) ?? { ...f, selfShare: 0, totalShare: 0, attributedShare: 0 };
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
  return {
    samples: profile.samples.length,
    idleShare: idle / Math.max(1, profile.samples.length),
    durationMs: (profile.endTime - profile.startTime) / 1000,
    rects, hot: frames, hottestUser: users[0] ?? null, categories,
  };
}

