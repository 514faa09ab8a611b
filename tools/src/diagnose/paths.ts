import type { Frame } from "@workbook/harness/internal";
import { type Caller, callLine, heaviestPath, type IndexedProfile } from "./callers";
import type { BusyKind } from "./kinds";

/**
 * The hot paths of a profile: the busy samples of each kind grouped by the code that asked for them
 * (callers.ts: the package, and the path's head frame), and in each group the heaviest way from the
 * head down to a leaf, with the app's line behind it.
 */

/**
 * One path the busy time went down: its kind, the package whose code it is (null: the app's), its
 * share of the busy samples, its frames from the head (the first frame of the app's or the package's
 * code) to the leaf, the other code's frame that called the head (a framework's router, the app's
 * handler; null: Node's own, or nothing), and the app's line behind it where the source shows it:
 * the line that calls the next frame (callers.ts, callLine), or where the path ends in the app's own
 * code, its line with the most samples.
 */
export interface HotPath {
  kind: BusyKind;
  package: string | null;
  share: number;
  frames: Frame[];
  calledBy: Frame | null;
  line: { file: string; line: number; text: string } | null;
}

/** Paths kept of each kind (and at least one of each package). */
const PATHS_PER_KIND = 3;

interface Group {
  kind: BusyKind;
  caller: Caller;
  headId: number;
  /** Samples by leaf node. */
  leaves: Map<number, number>;
  samples: number;
}

export class PathCounter {
  private readonly groups = new Map<string, Group>();

  constructor(
    private readonly p: IndexedProfile,
    private readonly sourceOf: (url: string) => string[] | null,
  ) {}

  /** `n` samples (or a fraction of one) of `kind` at leaf node `id`, asked for by `caller`; none for Node's own handling (no head). */
  add(id: number, kind: BusyKind, caller: Caller, n: number): void {
    if (caller.head < 0 || n <= 0) return;
    const headId = this.p.stackIds(id)[caller.head];
    const key = `${kind}|${caller.package ?? ""}|${headId}`;
    const g = this.groups.get(key) ?? { kind, caller, headId, leaves: new Map<number, number>(), samples: 0 };
    g.leaves.set(id, (g.leaves.get(id) ?? 0) + n);
    g.samples += n;
    this.groups.set(key, g);
  }

  /** The heaviest paths (PATHS_PER_KIND of each kind, the heaviest of each package), largest first, as shares of `busy` samples. */
  top(busy: number): HotPath[] {
    const perKind = new Map<BusyKind, number>();
    const packages = new Set<string>();
    const out: HotPath[] = [];
    for (const g of [...this.groups.values()].sort((a, b) => b.samples - a.samples)) {
      const n = perKind.get(g.kind) ?? 0;
      const pkg = g.caller.package;
      if (n >= PATHS_PER_KIND && (pkg === null || packages.has(pkg))) continue;
      perKind.set(g.kind, n + 1);
      if (pkg !== null) packages.add(pkg);
      out.push(this.path(g, busy));
    }
    return out;
  }

  private path(g: Group, busy: number): HotPath {
    const p = this.p;
    const stacks = [...g.leaves].map(([leaf, samples]) => {
      const ids = p.stackIds(leaf);
      return {
        frames: ids
          .slice(0, ids.indexOf(g.headId) + 1)
          .reverse()
          .map(p.frame),
        samples,
      };
    });
    const frames = heaviestPath(stacks);
    const ids = p.stackIds(g.leaves.keys().next().value as number);
    const calledById = g.caller.calledBy >= 0 ? ids[g.caller.calledBy] : null;
    const calledBy = calledById === null ? null : p.frame(calledById);
    return {
      kind: g.kind,
      package: g.caller.package,
      share: busy ? g.samples / busy : 0,
      frames,
      calledBy,
      line: this.line(g, frames, calledById),
    };
  }

  /** The app's line behind a path (HotPath.line). */
  private line(g: Group, frames: Frame[], calledById: number | null): HotPath["line"] {
    const p = this.p;
    const source = (id: number) => this.sourceOf(p.node(id)?.callFrame.url ?? "");
    if (calledById !== null && p.frame(calledById).category === "user" && frames[0])
      return callLine(source(calledById), p.frame(calledById), frames[0].name);
    const at = frames.map((f) => f.category).lastIndexOf("user");
    if (at < 0) return null;
    // the node of that frame: on the stack of any leaf of the group whose path goes through it
    const fn = frames[at];
    const same = (id: number) => {
      const f = p.frame(id);
      return f.name === fn.name && f.file === fn.file && f.line === fn.line;
    };
    const fnId = [...g.leaves.keys()].flatMap((leaf) => p.stackIds(leaf)).find(same);
    if (fnId === undefined) return null;
    if (at + 1 < frames.length) return callLine(source(fnId), fn, frames[at + 1].name);
    // the path ends in the app's own code: its line with the most of the group's samples (V8's ticks by line)
    const byLine = new Map<number, number>();
    for (const leaf of g.leaves.keys())
      if (same(leaf))
        for (const t of p.node(leaf)?.positionTicks ?? []) byLine.set(t.line, (byLine.get(t.line) ?? 0) + t.ticks);
    const best = [...byLine].sort((a, b) => b[1] - a[1])[0];
    const text = best ? source(fnId)?.[best[0] - 1]?.trim() : undefined;
    return best && text !== undefined ? { file: fn.file, line: best[0], text } : null;
  }
}

const where = (f: Frame) => (f.file ? `${f.file}:${f.line}` : "native");

/**
 * A path as a line: "getById (node_modules/record-store/index.js:20) → find → matches
 * (node_modules/record-store/index.js:6)", file:line at each end; a long one keeps its first two and
 * last two frames and says how many it leaves out between.
 */
export function pathText(frames: readonly Frame[]): string {
  if (!frames.length) return "";
  const [head, leaf] = [frames[0], frames[frames.length - 1]];
  const ends = (f: Frame) => `${f.name} (${where(f)})`;
  if (frames.length === 1) return ends(head);
  const middle = frames.slice(1, -1).map((f) => f.name);
  const shown = middle.length <= 3 ? middle : [middle[0], `… ${middle.length - 2} frames …`, middle[middle.length - 1]];
  return [ends(head), ...shown, ends(leaf)].join(" → ");
}
