import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FlameData, Frame } from "../charts/flame-chart";
import { badOption } from "../core/errors";
import { frameOf, type V8CpuProfile } from "./flame";

/**
 * Looking inside one frame of a V8 CPU profile: which source lines its own samples fell on,
 * and which frames it called. V8 books the time of its builtins (JSON.stringify, for one) to
 * the JavaScript function that called them, so the line is often the only place they show.
 */

export interface FrameRef {
  /** The function's name as the profile has it, e.g. "afterListener". */
  name: string;
  /** OPTIONAL: the file must end with this, e.g. "etag-slow/util.js". Default: any file. */
  file?: string;
  /**
   * OPTIONAL: the line the function starts on (1-based, as `HotFrame.line`). Anonymous functions all
   * share the name "(anonymous)": the line tells two of them in one file apart. Default: any line.
   */
  line?: number;
}

export interface LineTicks {
  /** 1-based source line. */
  line: number;
  samples: number;
  /** Share of the frame's own (self) samples that fell on this line. */
  share: number;
  /** The line's source text, trimmed; null when the file cannot be read (node: and native frames). */
  text: string | null;
}

/** "named X in a file ending Y, starting on line N", for the errors. */
const refText = (ref: FrameRef) =>
  `named ${JSON.stringify(ref.name)}${ref.file ? ` in a file ending ${JSON.stringify(ref.file)}` : ""}` +
  (ref.line === undefined ? "" : `, starting on line ${ref.line}`);

const matches = (f: Frame, ref: FrameRef) =>
  f.name === ref.name &&
  (ref.file === undefined || f.file.endsWith(ref.file)) &&
  (ref.line === undefined || f.line === ref.line);

/** The frame's self samples by source line (V8's positionTicks), most samples first; `share` of the frame's own samples, `text` the line read from the file (null when unreadable). V8 books its builtins (`JSON.stringify`) to the calling function, so a line is often the only place they show. Takes `cpuProfile(...).profile`. Throws when no frame matches. */
export function selfTicksByLine(profile: V8CpuProfile, ref: FrameRef): { samples: number; lines: LineTicks[] } {
  const byLine = new Map<number, number>();
  let url: string | null = null;
  for (const node of profile.nodes) {
    if (!matches(frameOf(node.callFrame), ref)) continue;
    url ??= node.callFrame.url;
    for (const t of node.positionTicks ?? []) byLine.set(t.line, (byLine.get(t.line) ?? 0) + t.ticks);
  }
  if (url === null) throw badOption("selfTicksByLine", `no frame ${refText(ref)} in this profile`);
  const source = sourceLines(url);
  const samples = [...byLine.values()].reduce((a, b) => a + b, 0);
  const lines = [...byLine.entries()]
    .map(([line, n]) => ({
      line,
      samples: n,
      share: samples ? n / samples : 0,
      text: source?.[line - 1]?.trim() ?? null,
    }))
    .sort((a, b) => b.samples - a.samples);
  return { samples, lines };
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

export interface CalleeRow extends Frame {
  /** 1 = called directly by the frame, 2 = by one of those... */
  level: number;
  /** Shares of all busy samples (as in FlameData). */
  totalShare: number;
  selfShare: number;
}

/** Rectangles that touch at their edges are nested, whatever the float rounding. */
const EPS = 1e-12;

/** The flame graph's rectangles for `ref`; throws, naming the caller `fn`, when there is none. */
function rectsOf(flame: FlameData, ref: FrameRef, fn: string): FlameData["rects"] {
  const owners = flame.rects.filter((r) => matches(r, ref));
  if (owners.length === 0) throw badOption(fn, `the flame graph has no frame ${refText(ref)}`);
  return owners;
}

type Rect = FlameData["rects"][number];

/**
 * Each rectangle drawn above (`"callees"`) or below (`"callers"`) a rectangle of `ref`, with that
 * rectangle of `ref`, the levels between them and the key that merges it with its twins (the same
 * frame at the same level). Throws, naming `fn`, when the flame graph has no rectangle for `ref`.
 */
function relatives(flame: FlameData, ref: FrameRef, fn: string, side: "callees" | "callers") {
  const out: { owner: Rect; rect: Rect; level: number; key: string }[] = [];
  for (const owner of rectsOf(flame, ref, fn)) {
    for (const rect of flame.rects) {
      const level = side === "callees" ? rect.depth - owner.depth : owner.depth - rect.depth;
      const inside = rect.x0 >= owner.x0 - EPS && rect.x1 <= owner.x1 + EPS;
      const around = rect.x0 <= owner.x0 + EPS && rect.x1 >= owner.x1 - EPS;
      if (level <= 0 || !(side === "callees" ? inside : around)) continue;
      out.push({ owner, rect, level, key: `${level}|${rect.name}|${rect.file}|${rect.line}` });
    }
  }
  return out;
}

/**
 * Every frame drawn above `ref` in the flame graph (what it called, to any depth), merged by
 * frame and level, hottest first. Frames below the flame graph's minimum width are left out.
 * Throws when the flame graph has no rectangle for `ref`. `ref.name` is the function's name as the
 * profile has it; `ref.file` the end of its path (`"etag-slow/util.js"`); `ref.line` the line it
 * starts on. V8 reports every arrow or anonymous function as `(anonymous)`: the line tells them apart.
 *
 * @example
 * const hot = slowProfile.flame.hottestUser!;
 * const ref = { name: hot.name, file: hot.file, line: hot.line }; // "(anonymous)", "apps/etag-slow/util.js", 33
 * const callees = lesson.calleesOf(slowProfile.flame, ref).filter((c) => c.level <= 3);
 * const lines = lesson.selfTicksByLine(slowProfile.profile, ref).lines.slice(0, 4);
 * lesson.frameSource(hot); // "server.on('after', (req, res) => {"
 * const etag = here.fileShare(fixedProfile.flame, "etag-fixed/util.js"); // { share, frames }
 */
export function calleesOf(flame: FlameData, ref: FrameRef): CalleeRow[] {
  const out = new Map<string, CalleeRow>();
  for (const { rect: r, level, key } of relatives(flame, ref, "calleesOf", "callees")) {
    const row = out.get(key) ?? { ...frameFields(r), level, totalShare: 0, selfShare: 0 };
    row.totalShare += r.x1 - r.x0;
    row.selfShare += r.self;
    out.set(key, row);
  }
  return [...out.values()].sort((a, b) => a.level - b.level || b.totalShare - a.totalShare);
}

/** A frame below the one looked at in the flame graph: one of its callers, to any depth. */
export interface CallerRow {
  name: string;
  file: string;
  line: number;
  category: Frame["category"];
  /** 1 = called the frame directly, 2 = called that caller... */
  level: number;
  /** The share of all busy samples that reached the frame through this caller. */
  throughShare: number;
}

/**
 * Every frame drawn below `ref` in the flame graph (what called it, down to the root), merged by
 * frame and level, with the share of the busy samples that reached `ref` through it: the stacks a
 * hot frame is called from, as a table. Throws when the flame graph has no rectangle for `ref`.
 */
export function callersOf(flame: FlameData, ref: FrameRef): CallerRow[] {
  const out = new Map<string, CallerRow>();
  for (const { owner, rect, level, key } of relatives(flame, ref, "callersOf", "callers")) {
    const row = out.get(key) ?? { ...frameFields(rect), level, throughShare: 0 };
    row.throughShare += owner.x1 - owner.x0;
    out.set(key, row);
  }
  return [...out.values()].sort((a, b) => a.level - b.level || b.throughShare - a.throughShare);
}

const frameFields = (r: Rect) => ({ name: r.name, file: r.file, line: r.line, category: r.category });
