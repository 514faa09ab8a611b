import type { Frame } from "../charts/flame-chart";
import { frameOf, type V8CpuProfile } from "../profiles/flame";
import { sourceLines } from "../profiles/profile-detail";

/**
 * Where a loop's busy time goes, from a CPU profile: each busy sample (not idle in the loop's poll)
 * counted once, in the first of these that fits it:
 *   gc          the garbage collector;
 *   regex       a regular expression running: a frame V8 names "RegExp: <pattern>", or the self time
 *               of the app's (or a dependency's) lines that run one (regexOnLine). V8 names a
 *               regular expression's own frame only when it compiled it while the profiler ran;
 *               the diagnosis profiles a warm app, whose expressions were compiled before, and
 *               their time is booked to the line that runs them;
 *   syncIo      under a synchronous file or process call of Node (fs.readFileSync, execSync...);
 *   native      under Node's crypto or zlib (createHash().update(), pbkdf2Sync, gzipSync...): C++
 *               work a JavaScript call waits for on the main thread;
 *   app         the app's own JavaScript (with the V8 builtins it calls: JSON.stringify, sort...,
 *               which V8 books to the calling function);
 *   dependency  a dependency's JavaScript (node_modules);
 *   node        everything else: Node's own JavaScript and native code, the HTTP parser, sockets,
 *               streams, timers. Under load, a healthy server spends most of its time here.
 */
export type BusyKind = "gc" | "regex" | "syncIo" | "native" | "app" | "dependency" | "node";
export const BUSY_KINDS: readonly BusyKind[] = ["gc", "regex", "syncIo", "native", "app", "dependency", "node"];

/** How each kind reads in a verdict. */
export const BUSY_NAMES: Record<BusyKind, string> = {
  gc: "garbage collection",
  regex: "a regular expression",
  syncIo: "synchronous I/O",
  native: "Node's native synchronous calls (crypto, zlib)",
  app: "the app's own code",
  dependency: "a dependency's code",
  node: "Node's own request handling",
};

export interface BusyTime {
  /** Share of the busy samples of each kind: they sum to 1 (all 0 when nothing was busy). */
  shares: Record<BusyKind, number>;
  busySamples: number;
  /** The regular expression that ran longest: its pattern, its share of busy time, and the app's (or a dependency's) frame that ran it. */
  regex: { pattern: string; share: number; caller: Frame | null } | null;
}

const RUNS_REGEX = /\.(test|exec|match|matchAll|replace|replaceAll|search|split)\s*\(/;
// a regex literal: a slash after an operator, a bracket or the line's start (not a division after a value)
const LITERAL = /(?<=(?:^|[=(,:!&|?;{}[])\s*)\/((?:\\.|\[(?:\\.|[^\]])*\]|[^/\\\n[])+)\/[dgimsuvy]*/;

/**
 * The pattern of a regular expression that `line` (1-based) of `source` runs, or null: a regex
 * literal on the line that calls test, exec, match, replace, search or split (`/^a+$/.test(s)`,
 * `s.replace(/x/g, "")`), or the literal or `new RegExp("...")` that a name called there is bound to
 * in the same file (`username.test(s)`, with `const username = /.../` above).
 */
export function regexOnLine(source: readonly string[], line: number): string | null {
  const text = source[line - 1] ?? "";
  if (!RUNS_REGEX.test(text)) return null;
  const literal = LITERAL.exec(text);
  if (literal) return literal[1];
  // a name the line runs (`name.test(`, `name.exec(`) or passes (`s.replace(name, ...)`), bound in the file
  for (const m of text.matchAll(/([A-Za-z_$][\w$]*)\s*\.\s*(?:test|exec)\s*\(|\(\s*([A-Za-z_$][\w$]*)\s*[,)]/g)) {
    const name = m[1] ?? m[2];
    for (const l of source) {
      const at = l.search(new RegExp(`\\b(?:const|let|var)\\s+${name.replace(/\$/g, "\\$")}\\s*=`));
      if (at < 0) continue;
      const value = l.slice(l.indexOf("=", at) + 1);
      const bound = LITERAL.exec(value) ?? /new RegExp\(\s*(["'`])((?:\\.|(?!\1).)*)\1/.exec(value);
      if (bound) return bound.length > 2 ? bound[2] : bound[1];
    }
  }
  return null;
}

const isSyncIo = (f: Frame) => /Sync$/.test(f.name) && /^node:(internal\/)?(fs|child_process)\b/.test(f.file);
const isNative = (f: Frame) => /^node:(internal\/)?(crypto|zlib)\b/.test(f.file);
const REGEX = /^RegExp: /;

/**
 * `readSource` OPTIONAL: a file's lines by its profile url (default: read from disk, null for node:,
 * native or unreadable), for the lines that run a regular expression.
 */
export function busyTime(profile: V8CpuProfile, readSource: (url: string) => string[] | null = sourceLines): BusyTime {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const frames = new Map(profile.nodes.map((n) => [n.id, frameOf(n.callFrame)]));
  const stack = (id: number): Frame[] => {
    const out: Frame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) out.push(frames.get(at)!);
    return out;
  };
  const kindOf = new Map<number, BusyKind | null>();
  const classify = (id: number): BusyKind | null => {
    const own = frames.get(id)!;
    if (own.category === "idle") return null;
    if (own.category === "gc") return "gc";
    if (REGEX.test(own.name)) return "regex";
    const up = stack(id);
    if (up.some(isSyncIo)) return "syncIo";
    if (up.some(isNative)) return "native";
    if (own.category === "user") return "app";
    if (own.category === "dependency") return "dependency";
    return "node";
  };
  // The app's and the dependencies' frames: the share of their own ticks on lines that run a regular
  // expression, and the pattern (regexOnLine); a RegExp frame of its own is all regex.
  const sources = new Map<string, string[] | null>();
  const regexLines = new Map<number, { share: number; pattern: string } | null>();
  const regexOf = (id: number) => {
    if (regexLines.has(id)) return regexLines.get(id)!;
    const node = byId.get(id)!;
    const own = frames.get(id)!;
    let found: { share: number; pattern: string } | null = null;
    if ((own.category === "user" || own.category === "dependency") && node.positionTicks?.length) {
      const url = node.callFrame.url;
      if (!sources.has(url)) sources.set(url, readSource(url));
      const source = sources.get(url);
      const total = node.positionTicks.reduce((a, p) => a + p.ticks, 0);
      let ticks = 0;
      let pattern: string | null = null;
      for (const p of node.positionTicks) {
        const on = source ? regexOnLine(source, p.line) : null;
        if (on !== null) {
          ticks += p.ticks;
          pattern ??= on;
        }
      }
      if (pattern !== null && total > 0) found = { share: ticks / total, pattern };
    }
    regexLines.set(id, found);
    return found;
  };
  const counts = Object.fromEntries(BUSY_KINDS.map((k) => [k, 0])) as Record<BusyKind, number>;
  const regexSamples = new Map<string, { samples: number; caller: Frame | null }>();
  const addRegex = (pattern: string, n: number, caller: Frame | null) => {
    const entry = regexSamples.get(pattern) ?? { samples: 0, caller };
    entry.samples += n;
    regexSamples.set(pattern, entry);
  };
  let busy = 0;
  for (const id of profile.samples) {
    if (!kindOf.has(id)) kindOf.set(id, byId.has(id) ? classify(id) : null);
    const kind = kindOf.get(id);
    if (!kind) continue;
    busy++;
    if (kind === "regex") {
      counts.regex++;
      const caller = stack(id).find((f) => f.category === "user" || f.category === "dependency") ?? null;
      addRegex(frames.get(id)!.name.replace(REGEX, ""), 1, caller);
      continue;
    }
    const inLine = kind === "app" || kind === "dependency" ? regexOf(id) : null;
    if (inLine) {
      // a fraction of this frame's samples: its ticks on the lines that run the expression
      counts.regex += inLine.share;
      counts[kind] += 1 - inLine.share;
      addRegex(inLine.pattern, inLine.share, frames.get(id)!);
    } else counts[kind]++;
  }
  const shares = Object.fromEntries(BUSY_KINDS.map((k) => [k, busy ? counts[k] / busy : 0])) as Record<
    BusyKind,
    number
  >;
  // The pattern that ran longest, and the code that ran it.
  const top = [...regexSamples].sort((x, y) => y[1].samples - x[1].samples)[0];
  const regex = top ? { pattern: top[0], share: busy ? top[1].samples / busy : 0, caller: top[1].caller } : null;
  return { shares, busySamples: busy, regex };
}

/**
 * The shares with garbage collection's taken from the pauses the process reported (`gcOfBusy`: the
 * pauses' share of the time the loop was busy), the other kinds scaled to what is left. A CPU profile
 * undercounts collection: measured on the calibration's GC-churn server, 28 % of its busy samples
 * where the reported pauses took 45 % of the time (V8 books part of a collection triggered by an
 * allocation to the allocating frame).
 */
export function withPauses(shares: Record<BusyKind, number>, gcOfBusy: number): Record<BusyKind, number> {
  const gc = Math.min(1, Math.max(0, Number.isFinite(gcOfBusy) ? gcOfBusy : 0));
  const rest = 1 - shares.gc;
  const scaled = (k: BusyKind) => (rest > 0 ? (shares[k] / rest) * (1 - gc) : 0);
  return Object.fromEntries(BUSY_KINDS.map((k) => [k, k === "gc" ? gc : scaled(k)])) as Record<BusyKind, number>;
}

/** The kind with the largest share, ties to the first in BUSY_KINDS order. */
export function dominant(shares: Record<BusyKind, number>, among: readonly BusyKind[] = BUSY_KINDS): BusyKind {
  return among.reduce((best, k) => (shares[k] > shares[best] ? k : best), among[0]);
}
