import os from "node:os";
import path from "node:path";
import { type FlameData, type HotFrame, type LineTicks, repoRoot } from "@workbook/harness";
import {
  cpuFlame,
  frameOf,
  heapFlame,
  median,
  PROBE_FILE,
  type ProbeSample,
  slope,
  THREAD_KINDS,
  type ThreadKind,
  type V8CpuProfile,
  type V8HeapProfile,
} from "@workbook/harness/internal";
import { type BusyTime, busyTime, type Handoff, handoff, withPauses } from "./busy";
import type { Collected, MemoryPoint } from "./collect";
import { type KeptFit, keptFit } from "./memory";
import type { References } from "./reference";
import { type Yardstick, yardstick } from "./yardstick";

/** The numbers a verdict rests on, from one collected run: nothing here decides anything. */
export interface Evidence {
  /** The measured window in seconds, and the probe's samples in it. */
  seconds: number;
  samples: number;
  reqPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** The server's CPU time per request (its own counters), ms; null when it could not be read. */
  cpuPerRequestMs: number | null;
  /** Latency p50 over CPU time per request: how many times longer a request took than its own work. */
  latencyOverCpu: number | null;
  /** Event-loop utilisation over the window, 0..1: the share of time the loop was running code. */
  elu: number;
  /** The app's CPU, % of one core (all its threads). */
  cpuPercent: number;
  /**
   * Where the app's CPU went, by thread, over the watched seconds (% of one core): its main thread's
   * (the probe: process.threadCpuUsage) and the rest's (cpuPercent less it; null where Node cannot
   * read the main thread's); by kind of thread where /proc names them (usage.ts, readThreads:
   * libuv's pool, worker threads, V8's helpers for GC and compiling; null elsewhere); the cores the
   * process may run on; libuv's pool: its threads alive at the end (null: unknown) and
   * UV_THREADPOOL_SIZE (null: unset, libuv's default 4).
   */
  threads: {
    mainCpuPercent: number | null;
    offMainCpuPercent: number | null;
    byKind: Record<ThreadKind, number> | null;
    cores: number;
    poolThreads: number | null;
    poolSizeSet: number | null;
  };
  /**
   * How long the loop was held up, ms: in each sample interval the longest event-loop delay or the
   * sampling timer's own lateness, whichever is larger (a stall that spans the sample's timer shows
   * only in the lateness); `stallMs` is the median interval's, `maxStallMs` the longest of all.
   */
  stallMs: number;
  maxStallMs: number;
  /** Garbage-collection pauses over wall time, 0..1; their count and ms by kind. */
  gcShare: number;
  gcCount: number;
  gcByKind: Record<string, number>;
  /**
   * heapUsed at the start and end of the window (MB) and its least-squares slope (MB/s) with the
   * fit's R²; and the heap left by a full garbage collection before and after the window (MB), with
   * its growth per second (MB/s). A sawtooth of garbage can tilt the fitted line by chance; only
   * what the app keeps survives a full collection.
   */
  heap: {
    startMB: number;
    endMB: number;
    slopeMBps: number;
    r2: number;
    keptStartMB: number;
    keptEndMB: number;
    keptMBps: number;
  };
  rss: { startMB: number; endMB: number; slopeMBps: number };
  /**
   * Memory outside the JavaScript heap (process.memoryUsage().external: Buffers, typed arrays...):
   * at the start and end of the window (MB), and what a full collection leaves of it before and after
   * the window, with its growth per second (MB/s). A leak of Buffers climbs here, not in heapUsed.
   */
  external: { startMB: number; endMB: number; keptStartMB: number; keptEndMB: number; keptMBps: number };
  /**
   * The memory kept after each full collection, from just before the watched seconds to the end of
   * the profiled ones (collect.ts, MemoryPoint: a point a second after the watched stretch), and the
   * least-squares line through the heap's and the external memory's points, MB/s, with the slope's
   * 95 % interval: a trend over several collections, not two readings a few seconds apart.
   */
  memory: { points: MemoryPoint[]; heap: KeptFit; external: KeptFit };
  /**
   * Where the loop's busy time went, by kind (busy.ts): from the profiled stretch's samples, with
   * garbage collection's share from the pauses of the watched stretch (withPauses); and the regular
   * expression that ran longest.
   */
  busy: BusyTime;
  /**
   * What a request costs against a server that only answers, measured beside it (yardstick.ts): null
   * when no reference was measured (evidence recorded before there was one).
   */
  yardstick: Yardstick | null;
  /** Bytes allocated per second over the window (the sampling heap profile's estimate), MB/s. */
  allocMBps: number | null;
  /** The call of Node's that handed most work to another thread (libuv's pool, a worker), as the main thread's profile shows it (busy.ts, handoff). */
  handoff: Handoff | null;
  /** Share of the busy CPU samples spent under a synchronous file or process call of Node (fs.*Sync, execSync...). */
  syncIoShare: number;
  /** The hottest frames of the CPU profile (the profiled stretch; GC and "(program)" left out: they are counted apart). */
  hot: HotFrame[];
  /** The hottest line of the app's hottest frame, from V8's ticks by line. */
  hottestLine: (LineTicks & { file: string; name: string }) | null;
  /** Where the bytes were allocated (the profiled stretch), hottest first. */
  allocationSites: HotFrame[];
  /** Share of the CPU profile's samples in which the loop was busy (not idle in its poll). */
  busyShare: number;
  /** Whether the load generator was saturated; null where its CPU could not be read (WORKBOOK_READINGS=none). */
  generatorSaturated: boolean | null;
  flame: FlameData;
  allocations: FlameData;
}

const MB = 2 ** 20;

/** The threads' CPU over the watched seconds, % of one core, from the samples and from /proc at its edges. */
function threadsOf(c: Collected, s: readonly ProbeSample[], wallMs: number): Evidence["threads"] {
  const cpu = s.reduce((a, x) => a + x.cpuMs, 0);
  const main = s.every((x) => typeof x.mainCpuMs === "number") ? s.reduce((a, x) => a + (x.mainCpuMs ?? 0), 0) : null;
  const t = c.threads;
  const seconds = (c.window.to - c.window.from) / 1000;
  const byKind = t
    ? (Object.fromEntries(
        THREAD_KINDS.map((k) => [k, (Math.max(0, t.end.cpuMs[k] - t.start.cpuMs[k]) / (seconds * 1000)) * 100]),
      ) as Record<ThreadKind, number>)
    : null;
  return {
    mainCpuPercent: main === null ? null : (main / wallMs) * 100,
    offMainCpuPercent: main === null ? null : (Math.max(0, cpu - main) / wallMs) * 100,
    byKind,
    cores: t?.end.cores || os.availableParallelism(),
    poolThreads: t ? t.end.count.pool : null,
    poolSizeSet: c.poolSizeSet,
  };
}
const isSyncIo = (f: { name: string; file: string }) =>
  /Sync$/.test(f.name) && /^node:(internal\/)?(fs|child_process)/.test(f.file);

/** Share of the busy samples with a synchronous I/O frame anywhere on the stack. */
export function syncIoShare(profile: V8CpuProfile): number {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const memo = new Map<number, boolean>();
  const under = (id: number): boolean => {
    if (memo.has(id)) return memo.get(id)!;
    const n = byId.get(id)!;
    const up = parent.get(id);
    const v = isSyncIo(frameOf(n.callFrame)) || (up !== undefined && under(up));
    memo.set(id, v);
    return v;
  };
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  const busy = profile.samples.filter((id) => !idle.has(id));
  return busy.length ? busy.filter(under).length / busy.length : 0;
}

/** The heap profile without what the probe itself allocated (its replies to the harness, the profile's own JSON). */
export function withoutProbe(profile: V8HeapProfile): V8HeapProfile {
  const prune = (n: V8HeapProfile["head"]): V8HeapProfile["head"] => ({
    ...n,
    children: n.children.filter((c) => c.callFrame.url.replace(/^file:\/\//, "") !== PROBE_FILE).map(prune),
  });
  return { ...profile, head: prune(profile.head) };
}

/** Not a frame of the probe (its sampling timer runs in the app while it is profiled). */
const notProbe = (h: HotFrame) => h.file === "" || path.resolve(repoRoot, h.file) !== PROBE_FILE;

function hottestLine(frame: HotFrame | null): Evidence["hottestLine"] {
  const line = frame?.lines[0];
  return frame && line ? { ...line, file: frame.file, name: frame.name } : null;
}

/**
 * Where the busy time went (busy.ts), with garbage collection's share taken from the pauses of the
 * watched stretch (withPauses) and each package's share on the same scale as the kinds'.
 */
export function busyOf(c: Collected): BusyTime {
  const b = busyTime(c.cpuProfile);
  const s = c.samples;
  const wallMs = s.reduce((a, x) => a + x.intervalMs, 0) || 1;
  const elu = s.reduce((a, p) => a + p.elu * p.intervalMs, 0) / wallMs;
  const shares = withPauses(b.shares, s.reduce((a, p) => a + p.gcMs, 0) / wallMs / Math.max(elu, 0.05));
  const scale = b.shares.gc < 1 ? (1 - shares.gc) / (1 - b.shares.gc) : 0;
  const packages = Object.fromEntries(Object.entries(b.packages).map(([p, v]) => [p, v * scale]));
  return { ...b, shares, packages, paths: b.paths.map((p) => ({ ...p, share: p.share * scale })) };
}

/** The evidence of one collected run; `refs`: the references measured beside it (null: none, no yardstick). */
export function gather(c: Collected, refs: References | null = null): Evidence {
  const s: ProbeSample[] = c.samples;
  const wallMs = s.reduce((a, x) => a + x.intervalMs, 0) || 1;
  const sum = (f: (x: ProbeSample) => number) => s.reduce((a, x) => a + f(x), 0);
  const x = (mono: number) => (mono - c.window.from) / 1000;
  const heapFit = slope(s.map((p) => ({ x: x(p.mono), y: p.heapUsed / MB })));
  const rssFit = slope(s.map((p) => ({ x: x(p.mono), y: p.rss / MB })));
  const stalls = s.map((p) => Math.max(p.delayMaxMs, p.intervalMs - c.sampleMs));
  const gcByKind: Record<string, number> = {};
  for (const p of s) for (const [k, v] of Object.entries(p.gcByKind)) gcByKind[k] = (gcByKind[k] ?? 0) + v;
  const flame = cpuFlame(c.cpuProfile);
  const allocations = heapFlame(withoutProbe(c.heapProfile));
  const profiledSeconds = flame.durationMs / 1000;
  const cpuPerRequestMs = c.load.cpuPerRequestUs ? c.load.cpuPerRequestUs.median / 1000 : null;
  const seconds = (c.window.to - c.window.from) / 1000;
  const busy = busyOf(c);
  return {
    seconds,
    samples: s.length,
    reqPerSec: c.load.reqPerSec.median,
    latencyP50Ms: c.load.latencyMs.p50,
    latencyP99Ms: c.load.latencyMs.p99,
    cpuPerRequestMs,
    latencyOverCpu: cpuPerRequestMs ? c.load.latencyMs.p50 / cpuPerRequestMs : null,
    elu: sum((p) => p.elu * p.intervalMs) / wallMs,
    cpuPercent: (sum((p) => p.cpuMs) / wallMs) * 100,
    threads: threadsOf(c, s, wallMs),
    stallMs: median(stalls),
    maxStallMs: Math.max(0, ...stalls),
    gcShare: sum((p) => p.gcMs) / wallMs,
    gcCount: sum((p) => p.gcCount),
    gcByKind,
    heap: {
      startMB: (s[0]?.heapUsed ?? NaN) / MB,
      endMB: (s.at(-1)?.heapUsed ?? NaN) / MB,
      slopeMBps: heapFit.slope,
      r2: heapFit.r2,
      keptStartMB: c.retained.start,
      keptEndMB: c.retained.end,
      keptMBps: (c.retained.end - c.retained.start) / seconds,
    },
    rss: { startMB: (s[0]?.rss ?? NaN) / MB, endMB: (s.at(-1)?.rss ?? NaN) / MB, slopeMBps: rssFit.slope },
    external: {
      startMB: (s[0]?.external ?? NaN) / MB,
      endMB: (s.at(-1)?.external ?? NaN) / MB,
      keptStartMB: c.retained.externalStart,
      keptEndMB: c.retained.externalEnd,
      keptMBps: (c.retained.externalEnd - c.retained.externalStart) / seconds,
    },
    memory: {
      points: c.memoryPoints,
      heap: keptFit(c.memoryPoints, (p) => p.heapMB),
      external: keptFit(c.memoryPoints, (p) => p.externalMB),
    },
    busy,
    yardstick: refs ? yardstick(busy, cpuPerRequestMs, refs) : null,
    allocMBps: profiledSeconds > 0 ? allocations.total / MB / profiledSeconds : null,
    syncIoShare: syncIoShare(c.cpuProfile),
    handoff: handoff(c.cpuProfile),
    hot: flame.hot.filter((h) => h.category !== "gc" && h.category !== "program" && notProbe(h)).slice(0, 5),
    hottestLine: hottestLine(flame.hottestUser),
    allocationSites: allocations.hot.filter((h) => h.category !== "program").slice(0, 5),
    busyShare: 1 - flame.idleShare,
    generatorSaturated: c.load.generator.saturated,
    flame,
    allocations,
  };
}
