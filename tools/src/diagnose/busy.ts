import { type Frame, frameOf, sourceLines, type V8CpuProfile } from "@workbook/harness/internal";
import { type Caller, callerOf, indexProfile } from "./callers";
import { BUSY_KINDS, type BusyKind } from "./kinds";
import { type HotPath, PathCounter } from "./paths";
import { REGEX_FRAME, type RegexRun, regexesOnLine } from "./regex";

/**
 * Where a loop's busy time goes, from a CPU profile: each busy sample (not idle in the loop's poll)
 * counted once, in the first of these that fits it:
 *   gc          the garbage collector;
 *   regex       a regular expression running: a frame V8 names "RegExp: <pattern>", or the self time
 *               of the app's (or a dependency's) lines that run one (regex.ts);
 *   syncIo      under a synchronous file or process call of Node (fs.readFileSync, execSync...);
 *   native      under Node's crypto or zlib (createHash().update(), pbkdf2Sync, gzipSync...): C++
 *               work a JavaScript call waits for on the main thread;
 * and the rest by the code that asked for it (callers.ts: the innermost frame of the app's or of a
 * package's code on its stack, and everything under it; a package another package called is the
 * outer package's):
 *   app         the app's own JavaScript, the V8 builtins it calls (JSON.stringify, sort..., which V8
 *               books to the calling function) and Node's library calls it makes (structuredClone,
 *               util.inspect, new URL...);
 *   dependency  a package's code and the calls it makes, whether the app's code called it or the
 *               framework did (a router, a body parser, a handler mounted on the framework's router);
 *   framework   a web framework's own code (callers.ts, FRAMEWORKS: express, fastify, koa, h3, hono...);
 *   node        Node's own request handling: its JavaScript and native code with no code of the app's
 *               or a package's above it (the HTTP parser, sockets, timers), and the calls into its
 *               HTTP, socket and stream modules that any code makes to answer (res.end, res.setHeader).
 * The kinds of work (sync I/O, crypto and zlib, regular expressions) come before whose code asked, so
 * that the verdict names the work and its fix; the code that asked is on the path (paths.ts) and in
 * the verdict's line, "called by".
 */
export interface BusyTime {
  /** Share of the busy samples of each kind: they sum to 1 (all 0 when nothing was busy). */
  shares: Record<BusyKind, number>;
  busySamples: number;
  /** The regular expression that ran longest (RegexRun), or null when none ran. */
  regex: RegexRun | null;
  /** Share of the busy samples that each package's code asked for (the dependency and framework kinds), by package. */
  packages: Record<string, number>;
  /** The hottest paths, from the code that asked for the work to the leaf (paths.ts), largest first. */
  paths: HotPath[];
}

const isSyncIo = (f: Frame) => /Sync$/.test(f.name) && /^node:(internal\/)?(fs|child_process)\b/.test(f.file);
const isNative = (f: Frame) => /^node:(internal\/)?(crypto|zlib)\b/.test(f.file);

/**
 * `readSource` OPTIONAL: a file's lines by its profile url (default: read from disk, null for node:,
 * native or unreadable), for the lines that run a regular expression and the app's lines that call.
 */
export function busyTime(profile: V8CpuProfile, readSource: (url: string) => string[] | null = sourceLines): BusyTime {
  const p = indexProfile(profile);
  const stack = (id: number) => p.stackIds(id).map(p.frame);
  const sources = new Map<string, string[] | null>();
  const sourceOf = (url: string) => {
    if (!sources.has(url)) sources.set(url, readSource(url));
    return sources.get(url) ?? null;
  };
  type Sorted = { kind: BusyKind; caller: Caller };
  const sorted = new Map<number, Sorted | null>();
  const classify = (id: number): Sorted | null => {
    const own = p.frame(id);
    if (own.category === "idle") return null;
    const up = stack(id);
    const caller = callerOf(up);
    if (own.category === "gc") return { kind: "gc", caller };
    if (REGEX_FRAME.test(own.name)) return { kind: "regex", caller };
    if (up.some(isSyncIo)) return { kind: "syncIo", caller };
    if (up.some(isNative)) return { kind: "native", caller };
    return { kind: caller.kind, caller };
  };
  // The app's and the dependencies' own frames: their ticks on the lines that run a regular
  // expression (regexesOnLine), line by line; a RegExp frame of its own is all regex.
  type RegexLine = { line: number; share: number; candidates: string[]; text: string };
  const regexLines = new Map<number, RegexLine[]>();
  const regexOf = (id: number): RegexLine[] => {
    if (regexLines.has(id)) return regexLines.get(id)!;
    const node = p.node(id)!;
    const own = p.frame(id);
    const found: RegexLine[] = [];
    if ((own.category === "user" || own.category === "dependency") && node.positionTicks?.length) {
      const source = sourceOf(node.callFrame.url);
      const total = node.positionTicks.reduce((a, t) => a + t.ticks, 0);
      for (const t of node.positionTicks) {
        const candidates = source ? regexesOnLine(source, t.line) : [];
        if (candidates.length && total > 0)
          found.push({ line: t.line, share: t.ticks / total, candidates, text: source?.[t.line - 1]?.trim() ?? "" });
      }
    }
    regexLines.set(id, found);
    return found;
  };
  const counts = Object.fromEntries(BUSY_KINDS.map((k) => [k, 0])) as Record<BusyKind, number>;
  const packages: Record<string, number> = {};
  // Where regular expressions ran: by V8's frame (its pattern) or by line (file:line), samples each.
  const runs = new Map<string, Omit<RegexRun, "share"> & { samples: number }>();
  const addRun = (key: string, n: number, run: Omit<RegexRun, "share">) => {
    const entry = runs.get(key) ?? { ...run, samples: 0 };
    entry.samples += n;
    runs.set(key, entry);
  };
  const paths = new PathCounter(p, sourceOf);
  let busy = 0;
  for (const id of profile.samples) {
    if (!sorted.has(id)) sorted.set(id, p.node(id) ? classify(id) : null);
    const s = sorted.get(id);
    if (!s) continue;
    busy++;
    const { kind, caller } = s;
    if (kind === "regex") {
      counts.regex++;
      const by = caller.owner >= 0 ? stack(id)[caller.owner] : null;
      const pattern = p.frame(id).name.replace(REGEX_FRAME, "");
      addRun(`frame ${pattern}`, 1, { pattern, candidates: [pattern], from: "frame", caller: by, line: null });
      paths.add(id, "regex", caller, 1);
      continue;
    }
    const lines = kind === "app" || kind === "dependency" ? regexOf(id) : [];
    let inLines = 0;
    for (const l of lines) {
      // a fraction of this frame's samples: its ticks on the line that runs the expression
      inLines += l.share;
      const by = p.frame(id);
      addRun(`line ${by.file}:${l.line}`, l.share, {
        pattern: l.candidates.length === 1 ? l.candidates[0] : null,
        candidates: l.candidates,
        from: "line",
        caller: by,
        line: { file: by.file, line: l.line, text: l.text },
      });
    }
    counts.regex += inLines;
    counts[kind] += 1 - inLines;
    if (caller.package && (kind === "dependency" || kind === "framework"))
      packages[caller.package] = (packages[caller.package] ?? 0) + 1 - inLines;
    if (inLines > 0) paths.add(id, "regex", caller, inLines);
    paths.add(id, kind, caller, 1 - inLines);
  }
  const of = (n: number) => (busy ? n / busy : 0);
  // The run with the most samples: V8's frame of one pattern, or one line.
  const top = [...runs.values()].sort((x, y) => y.samples - x.samples)[0];
  return {
    shares: Object.fromEntries(BUSY_KINDS.map((k) => [k, of(counts[k])])) as Record<BusyKind, number>,
    busySamples: busy,
    regex: top ? { ...withoutSamples(top), share: of(top.samples) } : null,
    packages: Object.fromEntries(Object.entries(packages).map(([k, v]) => [k, of(v)])),
    paths: paths.top(busy),
  };
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
