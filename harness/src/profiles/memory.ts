import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { type ProbeSample, probeOf } from "../apps/channel";
import type { AppRef } from "../apps/registry";
import { type AppHandle, type StartOptions, withApp } from "../apps/start";
import type { MemoryRow } from "../charts/memory";
import { badOption, WorkbookError } from "../core/errors";
import { withNodeFlags } from "../core/shell";
import { slope } from "../core/stats";
import { sleep } from "../core/time";
import { runLoad } from "../load/run";
import type { LoadOptions, LoadResult } from "../load/types";
import { profileDir } from "./cpu-profile";
import type { HeapDiff } from "./heap-diff";

/**
 * Where memory goes, measured from inside the app by the harness's probe (harness/preload/probe.cjs):
 * memory and GC over a load, the heap still alive after a full collection, and two heap snapshots
 * compared. Every function takes an app of the registry or a server file of your own.
 */
const MB = 2 ** 20;

export interface MemoryUsageMB {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

/** The app's memory in MB right after a full garbage collection (asked of its probe): what is still alive, not alive plus garbage. Throws `WB_BAD_OPTION` for an app with no probe. */
export async function heapAfterGc(app: AppHandle): Promise<MemoryUsageMB> {
  const u = await probeOf(app, "reading the heap").request<Record<keyof MemoryUsageMB, number>>("heap-after-gc");
  return {
    rss: u.rss / MB,
    heapUsed: u.heapUsed / MB,
    heapTotal: u.heapTotal / MB,
    external: u.external / MB,
    arrayBuffers: u.arrayBuffers / MB,
  };
}

/** The probe's samples as chart rows, seconds counted from the first. */
export function memoryRows(samples: readonly ProbeSample[]): MemoryRow[] {
  const t0 = samples[0]?.mono ?? 0;
  return samples.map((s) => ({
    t: (s.mono - t0) / 1000,
    rssMB: s.rss / MB,
    heapUsedMB: s.heapUsed / MB,
    heapTotalMB: s.heapTotal / MB,
    externalMB: s.external / MB,
    arrayBuffersMB: s.arrayBuffers / MB,
    gcShare: s.intervalMs ? s.gcMs / s.intervalMs : 0,
    gcCount: s.gcCount,
  }));
}

export interface GcSummary {
  /** The share of the time spent in GC pauses. */
  share: number;
  /** GC pauses per second. */
  perSecond: number;
  /** All the pauses together, ms. */
  totalMs: number;
  /** The longest single pause, ms (the probe's PerformanceObserver, the pauses `--trace-gc` prints). */
  longestMs: number;
  /** GC time per answered request, µs: the share of time in GC over the median req/s. Unlike the share,
   * it does not grow with the load: an app that allocates little per request stays low at any speed.
   * NaN when the load got no answer. */
  perRequestUs: number;
}

export interface MemoryWatch {
  app: string;
  load: LoadResult;
  /** One row per probe interval during the load. */
  rows: MemoryRow[];
  gc: GcSummary;
  /** Least-squares slope of heap used over the load, MB per second, and how well a line fits (R²). */
  heapSlope: { mbPerSecond: number; r2: number };
  /** The heap alive after a full collection, before and after the load (when `retained` was asked). */
  retained: { before: MemoryUsageMB; after: MemoryUsageMB } | null;
}

export interface WatchOptions {
  /** runLoad options except target (e.g. { path, connections, rate }). */
  load: Omit<LoadOptions, "target">;
  /** The probe's interval, ms. Default 250. */
  sampleMs?: number;
  /** Measure the heap alive after a full collection before and after the load. Default true. */
  retained?: boolean;
  start?: StartOptions;
}

export function gcSummary(gcMs: number, count: number, wallMs: number, reqPerSec: number, longestMs = 0): GcSummary {
  const share = wallMs ? gcMs / wallMs : 0;
  return {
    share,
    perSecond: wallMs ? (count * 1000) / wallMs : 0,
    totalMs: gcMs,
    longestMs,
    perRequestUs: reqPerSec > 0 ? (share * 1e6) / reqPerSec : NaN, // no answers: no figure per answer
  };
}

/**
 * Load an app while its probe samples memory and GC (every `sampleMs`, default 250); return the load,
 * the rows, GC's share and the heap's slope (least squares). `load` REQUIRED: `runLoad` options but
 * `target`. `retained` (default true): the heap alive after a full GC before and after the load.
 * `gc.perRequestUs` is GC time per answered request (it does not grow with the load). Needs the probe
 * (Node, not Bun). Throws `WB_NO_REPORT` when the probe sent fewer than two samples during the load.
 *
 * @example
 * const leak = await wb.watchMemory("memory-leak", { load: { path: "/reviews?product=7", rate: 300, repeats: 1, warmup: 0 } });
 * wb.show(wb.memoryChart(leak.rows, { title: "memory-leak, 300 requests/s" }));
 */
export async function watchMemory(ref: AppRef, opts: WatchOptions): Promise<MemoryWatch> {
  const sampleMs = opts.sampleMs ?? 250;
  return withApp(
    ref,
    async (app) => {
      const retainedBefore = opts.retained === false ? null : await heapAfterGc(app);
      const probe = probeOf(app, "sampling memory");
      const from = await probe.now();
      const load = await runLoad({ ...opts.load, target: app });
      await sleep(sampleMs + 50); // the last interval of the load
      const samples = probe.samplesIn(from, await probe.now());
      if (samples.length < 2)
        throw new WorkbookError(
          "WB_NO_REPORT",
          `the probe of "${app.name}" sent ${samples.length} samples during the load`,
        );
      const retained = retainedBefore ? { before: retainedBefore, after: await heapAfterGc(app) } : null;
      const rows = memoryRows(samples);
      const wall = samples.reduce((a, s) => a + s.intervalMs, 0);
      const gcMs = samples.reduce((a, s) => a + s.gcMs, 0);
      const gcCount = samples.reduce((a, s) => a + s.gcCount, 0);
      const longest = Math.max(0, ...samples.map((s) => s.gcMaxMs ?? 0));
      const fit = slope(rows.map((r) => ({ x: r.t, y: r.heapUsedMB })));
      return {
        app: app.name,
        load,
        rows,
        retained,
        heapSlope: { mbPerSecond: fit.slope, r2: fit.r2 },
        gc: gcSummary(gcMs, gcCount, wall, load.reqPerSec.median, longest),
      };
    },
    { ...opts.start, sampleMs },
  );
}

export interface HeapSnapshotsOptions {
  /** The load during which the snapshots are taken (runLoad options except target; a `rate` keeps a leak readable). */
  load: Omit<LoadOptions, "target" | "duration" | "repeats" | "warmup">;
  /** Seconds into the load of the two snapshots. Default [1, 3]. */
  at?: [number, number];
  start?: StartOptions;
}

export interface HeapSnapshotsResult extends HeapDiff {
  app: string;
  /** The two .heapsnapshot files (open them in Chrome DevTools' Memory tab). */
  files: [string, string];
  /**
   * The same from a terminal: start the app with `--heapsnapshot-signal=SIGUSR2`, then `kill -USR2
   * <pid>` once for each snapshot (Node writes `Heap.<date>.<pid>....heapsnapshot` in its folder).
   * The harness asks its probe for them instead (v8.writeHeapSnapshot), at known seconds.
   */
  command: string;
  /** The command is an equivalent of what the harness did, not what ran. */
  commandKind: "equivalent";
  load: LoadResult;
}

/**
 * Two heap snapshots of an app under load, some seconds apart, compared in a child process: which
 * groups of objects grew (by count and bytes) and the chain of references from a GC root to the
 * newest large object of the group that grew most. Writing a snapshot pauses the app for a while.
 * The snapshots, hundreds of MB once parsed, never sit in the kernel. `load` REQUIRED: `runLoad`
 * options but `target`, `duration`, `repeats` and `warmup` (a `rate` keeps a leak readable); `at`: the
 * seconds into the load of the two snapshots (default [1, 3]; the load lasts at[1] + 1 s); throws
 * `WB_BAD_OPTION` unless they increase. `command` is the same from a terminal: the app with
 * `--heapsnapshot-signal=SIGUSR2`, then `kill -USR2 <pid>` at each moment (the probe calls
 * `v8.writeHeapSnapshot` instead). The reader is the harness's own, not memlab (whose packages bring
 * puppeteer, a browser download, to read a small documented format).
 *
 * @example
 * const snaps = await wb.heapSnapshots("memory-leak", { load: { path: "/reviews?product=7", rate: 300 } });
 * wb.markdown(wb.retainerText(snaps.path));
 */
export async function heapSnapshots(ref: AppRef, opts: HeapSnapshotsOptions): Promise<HeapSnapshotsResult> {
  const at = opts.at ?? [1, 3];
  if (!(at[0] >= 0 && at[1] > at[0]))
    throw badOption("heapSnapshots", `at must be two increasing times in seconds, got ${JSON.stringify(at)}`);
  return withApp(
    ref,
    async (app) => {
      const { dir, done } = profileDir("heap-snapshots", app.name);
      try {
        const files = [path.join(dir, "before.heapsnapshot"), path.join(dir, "after.heapsnapshot")] as [string, string];
        const t0 = performance.now();
        const loading = runLoad({ ...opts.load, target: app, warmup: 0, repeats: 1, duration: at[1] + 1, live: false });
        for (const [i, second] of at.entries()) {
          await sleep(t0 + second * 1000 - performance.now());
          await probeOf(app, "a heap snapshot").request("heap-snapshot", { file: files[i] });
        }
        const load = await loading;
        const script = path.join(__dirname, "heap-diff.js");
        const { stdout } = await promisify(execFile)(
          process.execPath,
          ["--max-old-space-size=4096", script, ...files],
          { maxBuffer: 64 * MB },
        );
        const command = [
          withNodeFlags(app.command, ["--heapsnapshot-signal=SIGUSR2"]),
          `kill -USR2 <its pid>   # ${at[0]} s into the load, and again at ${at[1]} s`,
        ].join("\n");
        return { app: app.name, files, command, commandKind: "equivalent", load, ...(JSON.parse(stdout) as HeapDiff) };
      } finally {
        done();
      }
    },
    opts.start,
  );
}
