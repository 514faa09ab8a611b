// Notebook 01's tables of the hottest frame: what it called and what called it, the flame graph's
// rectangles as tables. The notebook imports them as `calls`, beside its own helpers (`here`,
// 01-slow-etag-server.ts).
import * as wb from "@workbook/harness";

/** One frame of a flame graph, as the cells below look it up. */
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

type Rect = wb.FlameData["rects"][number];

/** A frame's name, file, line and kind, without its place in the flame graph. */
type FrameFields = Pick<Rect, "name" | "file" | "line" | "category">;

const frameFields = (r: Rect): FrameFields => ({ name: r.name, file: r.file, line: r.line, category: r.category });

const matches = (f: FrameFields, ref: FrameRef) =>
  f.name === ref.name &&
  (ref.file === undefined || f.file.endsWith(ref.file)) &&
  (ref.line === undefined || f.line === ref.line);

/** "named X in a file ending Y, starting on line N", for the errors. */
const refText = (ref: FrameRef) =>
  `named ${JSON.stringify(ref.name)}${ref.file ? ` in a file ending ${JSON.stringify(ref.file)}` : ""}` +
  (ref.line === undefined ? "" : `, starting on line ${ref.line}`);

/** Rectangles that touch at their edges are nested, whatever the float rounding. */
const EPS = 1e-12;

/** The flame graph's rectangles for `ref`; throws, naming the caller `fn`, when there is none. */
function rectsOf(flame: wb.FlameData, ref: FrameRef, fn: string): Rect[] {
  const owners = flame.rects.filter((r) => matches(r, ref));
  if (owners.length === 0) {
    throw new wb.WorkbookError("WB_BAD_OPTION", `${fn}: the flame graph has no frame ${refText(ref)}`, {
      hint: "take the name, file and line from a frame of this profile (flame.hot, flame.hottestUser)",
    });
  }
  return owners;
}

/**
 * Each rectangle drawn above (`"callees"`) or below (`"callers"`) a rectangle of `ref`, with that
 * rectangle of `ref`, the levels between them and the key that merges it with its twins (the same
 * frame at the same level). Throws, naming `fn`, when the flame graph has no rectangle for `ref`.
 */
function relatives(flame: wb.FlameData, ref: FrameRef, fn: string, side: "callees" | "callers") {
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

/** A frame above the one looked at in the flame graph: one it called, to any depth. */
export interface CalleeRow extends FrameFields {
  /** 1 = called directly by the frame, 2 = by one of those... */
  level: number;
  /** Shares of all busy samples (as in FlameData). */
  totalShare: number;
  selfShare: number;
}

/**
 * Every frame drawn above `ref` in the flame graph (what it called, to any depth), merged by
 * frame and level, hottest first. Frames below the flame graph's minimum width are left out.
 * Throws `WB_BAD_OPTION` when the flame graph has no rectangle for `ref`. `ref.name` is the
 * function's name as the profile has it; `ref.file` the end of its path (`"etag-slow/util.js"`);
 * `ref.line` the line it starts on. V8 reports every arrow or anonymous function as `(anonymous)`:
 * the line tells them apart.
 */
export function calleesOf(flame: wb.FlameData, ref: FrameRef): CalleeRow[] {
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
export interface CallerRow extends FrameFields {
  /** 1 = called the frame directly, 2 = called that caller... */
  level: number;
  /** The share of all busy samples that reached the frame through this caller. */
  throughShare: number;
}

/**
 * Every frame drawn below `ref` in the flame graph (what called it, down to the root), merged by
 * frame and level, with the share of the busy samples that reached `ref` through it: the stacks a
 * hot frame is called from, as a table. Throws `WB_BAD_OPTION` when the flame graph has no
 * rectangle for `ref`.
 */
export function callersOf(flame: wb.FlameData, ref: FrameRef): CallerRow[] {
  const out = new Map<string, CallerRow>();
  for (const { owner, rect, level, key } of relatives(flame, ref, "callersOf", "callers")) {
    const row = out.get(key) ?? { ...frameFields(rect), level, throughShare: 0 };
    row.throughShare += owner.x1 - owner.x0;
    out.set(key, row);
  }
  return [...out.values()].sort((a, b) => a.level - b.level || b.throughShare - a.throughShare);
}
