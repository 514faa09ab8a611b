import type { Frame } from "../charts/flame-chart";
import { frameOf, sourceLines, type V8CpuProfile } from "../profiles/flame";

/**
 * Where a loop's busy time goes, from a CPU profile: each busy sample (not idle in the loop's poll)
 * counted once, in the first of these that fits it:
 *   gc          the garbage collector;
 *   regex       a regular expression running: a frame V8 names "RegExp: <pattern>", or the self time
 *               of the app's (or a dependency's) lines that run one (regexesOnLine). V8 names a
 *               regular expression's own frame only when it compiled it while the profiler ran;
 *               the diagnosis profiles a warm app, whose expressions were compiled before, and
 *               their time is booked to the line that runs them;
 *   syncIo      under a synchronous file or process call of Node (fs.readFileSync, execSync...);
 *   native      under Node's crypto or zlib (createHash().update(), pbkdf2Sync, gzipSync...): C++
 *               work a JavaScript call waits for on the main thread;
 *   app         the app's own JavaScript (with the V8 builtins it calls: JSON.stringify, sort...,
 *               which V8 books to the calling function);
 *   framework   the web framework's request handling: the code of a web framework (FRAMEWORKS:
 *               express, fastify, koa, h3, hono...), and a dependency's code it calls with no app frame
 *               between them (express's router, body-parser, etag; fastify's find-my-way). Like
 *               Node's, this is the cost of serving a request, not a problem of the loop;
 *   dependency  a dependency's JavaScript (node_modules) that the app's own code called, or that
 *               runs on its own (a timer of a library);
 *   node        everything else: Node's own JavaScript and native code, the HTTP parser, sockets,
 *               streams, timers. Under load, a healthy server spends most of its time here.
 */
export type BusyKind = "gc" | "regex" | "syncIo" | "native" | "app" | "dependency" | "framework" | "node";
export const BUSY_KINDS: readonly BusyKind[] = [
  "gc",
  "regex",
  "syncIo",
  "native",
  "app",
  "dependency",
  "framework",
  "node",
];
/** The kinds that are the cost of serving a request: not a problem of the loop, however large. */
export const HANDLING: readonly BusyKind[] = ["framework", "node"];
/** The kinds that block a saturated loop past BLOCKING_SHARE: all but request handling and GC (GC_SHARE's). */
export const BLOCKING: readonly BusyKind[] = BUSY_KINDS.filter((k) => k !== "gc" && !HANDLING.includes(k));

/** How each kind reads in a verdict. */
export const BUSY_NAMES: Record<BusyKind, string> = {
  gc: "garbage collection",
  regex: "a regular expression",
  syncIo: "synchronous I/O",
  native: "Node's crypto and zlib calls",
  app: "the app's own code",
  dependency: "a dependency's code",
  framework: "the web framework's request handling",
  node: "Node's own request handling",
};

/**
 * The regular expression that ran longest, as far as the profile can tell, and only what it can: its
 * pattern from V8's own frame (`RegExp: <pattern>`), or the line that ran it (the app's or a
 * dependency's line with the most self time among those that run one) with the pattern written on
 * it, when there is exactly one; with more than one candidate there, `pattern` is null and
 * `candidates` lists them: the line is named, the pattern is not guessed.
 */
export interface RegexRun {
  pattern: string | null;
  candidates: string[];
  /** Its share of the busy samples. */
  share: number;
  /** "frame": V8's own frame named it; "line": the line that runs it did. */
  from: "frame" | "line";
  /** The app's (or a dependency's) frame that ran it: for "line", the function the line is in. */
  caller: Frame | null;
  /** For "line": the line, and its text. */
  line: { file: string; line: number; text: string } | null;
}

export interface BusyTime {
  /** Share of the busy samples of each kind: they sum to 1 (all 0 when nothing was busy). */
  shares: Record<BusyKind, number>;
  busySamples: number;
  /** The regular expression that ran longest (RegexRun), or null when none ran. */
  regex: RegexRun | null;
}

const RUNS_REGEX = /\.(test|exec|match|matchAll|replace|replaceAll|search|split)\s*\(/;
// a regex literal: a slash after an operator, a bracket or the line's start (not a division after a value)
const LITERAL = /(?<=(?:^|[=(,:!&|?;{}[])\s*)\/((?:\\.|\[(?:\\.|[^\]])*\]|[^/\\\n[])+)\/[dgimsuvy]*/g;
const NEW_REGEXP = /new RegExp\(\s*(["'`])((?:\\.|(?!\1).)*)\1/;

/**
 * Every pattern that `line` (1-based) of `source` may run: the regex literals on a line that calls
 * test, exec, match, replace, search or split (`/^a+$/.test(s)`, `s.replace(/x/g, "")`), and the
 * literals or `new RegExp("...")` that a name called or passed there is bound to in the same file
 * (`username.test(s)`, with `const username = /.../` above; every binding of that name). Empty when
 * the line runs none that the file shows (a string to split on, a pattern from elsewhere).
 */
export function regexesOnLine(source: readonly string[], line: number): string[] {
  const text = source[line - 1] ?? "";
  if (!RUNS_REGEX.test(text)) return [];
  const found = new Set<string>();
  for (const m of text.matchAll(LITERAL)) found.add(m[1]);
  // a name the line runs (`name.test(`, `name.exec(`) or passes (`s.replace(name, ...)`), bound in the file
  for (const m of text.matchAll(/([A-Za-z_$][\w$]*)\s*\.\s*(?:test|exec)\s*\(|\(\s*([A-Za-z_$][\w$]*)\s*[,)]/g)) {
    const name = m[1] ?? m[2];
    const binding = new RegExp(`\\b(?:const|let|var)\\s+${name.replace(/\$/g, "\\$")}\\s*=`);
    for (const l of source) {
      const at = l.search(binding);
      if (at < 0) continue;
      const value = l.slice(l.indexOf("=", at) + 1);
      const literal = [...value.matchAll(LITERAL)][0];
      const built = NEW_REGEXP.exec(value);
      if (literal) found.add(literal[1]);
      else if (built) found.add(built[2]);
    }
  }
  return [...found];
}

const isSyncIo = (f: Frame) => /Sync$/.test(f.name) && /^node:(internal\/)?(fs|child_process)\b/.test(f.file);
const isNative = (f: Frame) => /^node:(internal\/)?(crypto|zlib)\b/.test(f.file);
const REGEX = /^RegExp: /;

/**
 * The web frameworks: the packages whose code is a server's request handling. Each other package
 * their code calls on the way (a router, a body parser, etag) counts with them (busyTime).
 */
export const FRAMEWORKS: ReadonlySet<string> = new Set([
  ...["express", "router", "connect", "fastify", "koa", "@koa/router", "koa-router", "h3", "srvx", "hono"],
  ...["@hono/node-server", "polka", "restify", "micro", "@hapi/hapi", "@nestjs/core", "@tinyhttp/app"],
]);

/** The package a dependency's frame belongs to: the folder after its path's last node_modules ("@scope/name" for a scoped one). */
export function packageOf(file: string): string | null {
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0 || at + 1 >= parts.length) return null;
  return parts[at + 1].startsWith("@") ? parts.slice(at + 1, at + 3).join("/") : parts[at + 1];
}

/**
 * Whether a dependency's frame is request handling: the nearest frame at or below it (towards the
 * root) that is either the app's or a web framework's is a framework's. A library the app's handler
 * calls (Ajv, a matrix library) has the app's frame nearer, and stays a dependency's work.
 */
function underFramework(up: readonly Frame[]): boolean {
  for (const f of up) {
    if (f.category === "user") return false;
    if (f.category === "dependency" && FRAMEWORKS.has(packageOf(f.file) ?? "")) return true;
  }
  return false;
}

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
    if (own.category === "dependency") return underFramework(up) ? "framework" : "dependency";
    return "node";
  };
  // The app's and the dependencies' frames: their own ticks on the lines that run a regular
  // expression (regexesOnLine), line by line; a RegExp frame of its own is all regex.
  const sources = new Map<string, string[] | null>();
  type RegexLine = { line: number; share: number; candidates: string[]; text: string };
  const regexLines = new Map<number, RegexLine[]>();
  const regexOf = (id: number): RegexLine[] => {
    if (regexLines.has(id)) return regexLines.get(id)!;
    const node = byId.get(id)!;
    const own = frames.get(id)!;
    const found: RegexLine[] = [];
    if ((own.category === "user" || own.category === "dependency") && node.positionTicks?.length) {
      const url = node.callFrame.url;
      if (!sources.has(url)) sources.set(url, readSource(url));
      const source = sources.get(url);
      const total = node.positionTicks.reduce((a, p) => a + p.ticks, 0);
      for (const p of node.positionTicks) {
        const candidates = source ? regexesOnLine(source, p.line) : [];
        if (candidates.length && total > 0)
          found.push({ line: p.line, share: p.ticks / total, candidates, text: source?.[p.line - 1]?.trim() ?? "" });
      }
    }
    regexLines.set(id, found);
    return found;
  };
  const counts = Object.fromEntries(BUSY_KINDS.map((k) => [k, 0])) as Record<BusyKind, number>;
  // Where regular expressions ran: by V8's frame (its pattern) or by line (file:line), samples each.
  const runs = new Map<string, Omit<RegexRun, "share"> & { samples: number }>();
  const addRun = (key: string, n: number, run: Omit<RegexRun, "share">) => {
    const entry = runs.get(key) ?? { ...run, samples: 0 };
    entry.samples += n;
    runs.set(key, entry);
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
      const pattern = frames.get(id)!.name.replace(REGEX, "");
      addRun(`frame ${pattern}`, 1, { pattern, candidates: [pattern], from: "frame", caller, line: null });
      continue;
    }
    const lines = kind === "app" || kind === "dependency" ? regexOf(id) : [];
    let inLines = 0;
    for (const l of lines) {
      // a fraction of this frame's samples: its ticks on the line that runs the expression
      inLines += l.share;
      const caller = frames.get(id)!;
      addRun(`line ${caller.file}:${l.line}`, l.share, {
        pattern: l.candidates.length === 1 ? l.candidates[0] : null,
        candidates: l.candidates,
        from: "line",
        caller,
        line: { file: caller.file, line: l.line, text: l.text },
      });
    }
    counts.regex += inLines;
    counts[kind] += 1 - inLines;
  }
  const shares = Object.fromEntries(BUSY_KINDS.map((k) => [k, busy ? counts[k] / busy : 0])) as Record<
    BusyKind,
    number
  >;
  // The run with the most samples: V8's frame of one pattern, or one line.
  const top = [...runs.values()].sort((x, y) => y.samples - x.samples)[0];
  const regex = top ? { ...withoutSamples(top), share: busy ? top.samples / busy : 0 } : null;
  return { shares, busySamples: busy, regex };
}

const withoutSamples = ({ samples: _, ...run }: Omit<RegexRun, "share"> & { samples: number }) => run;

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

/** A call of Node's that hands work to another thread, the app's frame that made it, and the busy samples under it. */
export interface Handoff {
  to: "pool" | "workers";
  call: Frame;
  caller: Frame | null;
  samples: number;
}

/**
 * Which thread the work went to, from the main thread's side: Node's asynchronous calls that libuv's
 * pool runs (fs, crypto, zlib, dns: not their *Sync forms, which run on the main thread) and a worker's
 * postMessage. Their own samples are few (the main thread only hands the work over and takes the
 * result), so the one with the most samples, the app's frame that called it preferred, is named; null
 * when the profile has none.
 */
export function handoff(profile: V8CpuProfile): Handoff | null {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const frames = new Map(profile.nodes.map((n) => [n.id, frameOf(n.callFrame)]));
  const toOf = (f: Frame): Handoff["to"] | null => {
    if (/^node:(internal\/)?(crypto|zlib|fs|dns)\b/.test(f.file) && !/Sync$/.test(f.name)) return "pool";
    if (/^node:(internal\/)?worker/.test(f.file) && /postMessage/.test(f.name)) return "workers";
    return null;
  };
  const found = new Map<string, Handoff>();
  for (const id of profile.samples) {
    let call: Frame | null = null;
    let to: Handoff["to"] | null = null;
    let caller: Frame | null = null;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = frames.get(at);
      if (!f) break;
      const t = toOf(f);
      if (t)
        [call, to] = [f, t]; // the outermost: the API the app called
      else if (call && (f.category === "user" || f.category === "dependency")) {
        caller = f;
        break;
      }
    }
    if (!call || !to) continue;
    const key = `${call.name}|${call.file}|${caller ? `${caller.file}:${caller.line}` : ""}`;
    const entry = found.get(key) ?? { to, call, caller, samples: 0 };
    entry.samples++;
    found.set(key, entry);
  }
  return (
    [...found.values()].sort((a, b) => Number(!!b.caller) - Number(!!a.caller) || b.samples - a.samples)[0] ?? null
  );
}
