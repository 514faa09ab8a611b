import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import {
  type AppHandle,
  type AppRef,
  heapAfterGc,
  type LoadOptions,
  type LoadResult,
  runLoad,
  type StartOptions,
  WorkbookError,
} from "@workbook/harness";
import {
  answeredNothing,
  type ExitInfo,
  type ProbeSample,
  profileDir,
  readThreads,
  resolveApp,
  startApp,
  type ThreadsUsage,
  type V8CpuProfile,
  type V8HeapProfile,
} from "@workbook/harness/internal";

/**
 * One run of the diagnosis, one app process under one load in three back-to-back stretches:
 *   warm-up  (discarded: JIT, caches, connections);
 *   watched  the probe's samples (event loop, CPU, memory, GC) and the load's latency and CPU per
 *            request, with no profiler attached, between two full garbage collections (the heap
 *            each leaves is what the app keeps);
 *   profiled a CPU profile and a sampling heap profile (every allocation), taken through the probe,
 *            in loads of `memoryEverySeconds` with a full garbage collection after each: with the two
 *            around the watched stretch, what the app keeps after some ten seconds of load, a trend
 *            to fit (memoryPoints); then, only while `watchLonger` asks for it (the trend is
 *            undecided), more of the same, up to `longerSeconds`.
 * Why not `--cpu-prof` over the whole run: a CPU profiler's sampling signals cut libuv's idle-time
 * accounting, so event-loop utilisation reads high while one runs (measured on a server that waits
 * on timers: 0.04-0.12 without, 0.56-0.65 with it at 1 ms, 0.38-0.72 at 4-10 ms); and --cpu-prof
 * also profiles start-up and needs a clean exit. The watched figures are taken before it starts.
 */
export interface CollectOptions {
  route: string;
  connections: number;
  warmupSeconds: number;
  /** Seconds watched (samples), then seconds profiled. */
  seconds: number;
  profileSeconds: number;
  sampleMs: number;
  /** Bytes between two samples of the heap profile. */
  heapIntervalBytes: number;
  live?: boolean;
  load?: Omit<LoadOptions, "target" | "path" | "connections" | "warmup" | "repeats" | "duration" | "live">;
  start?: StartOptions;
  /** Seconds of each load of the profiled stretch, a full collection after each (memoryPoints). */
  memoryEverySeconds: number;
  /** Of the points so far, whether the memory's trend needs more: the load goes on, a point a step, up to `longerSeconds`. */
  watchLonger?: (points: readonly MemoryPoint[]) => boolean;
  longerSeconds: number;
}

/**
 * What a full garbage collection left, at one moment of the load: `at` seconds after the watched
 * stretch began (the harness's clock), `served` requests the app had answered since then (null
 * when they could not be counted), the heap it keeps and the memory outside the heap (MB).
 */
export interface MemoryPoint {
  at: number;
  served: number | null;
  heapMB: number;
  externalMB: number;
  /** Taken with the profilers running: they keep memory of their own, a step the trend is fitted across. */
  profiling: boolean;
}

export interface Collected {
  app: string;
  route: string;
  sampleMs: number;
  /** Where the profiles (and the report) go: results/diagnose/<app>-<time>/. */
  dir: string;
  /**
   * The watched stretch: `from` and `to` on the app's monotonic clock (ms; what its samples are cut
   * by), and when it began by the wall clock (for display).
   */
  window: { from: number; to: number; startedAt: number };
  warmup: LoadResult;
  /** The command that started the server (AppHandle.command). */
  server: string;
  /** The watched load, and the profiled stretch's loads (a second each, a memory point after each). */
  load: LoadResult;
  profiled: LoadResult[];
  /**
   * heapUsed (MB) after a full garbage collection just before and just after the watched load: what
   * the app keeps; and `external` (MB: Buffers, typed arrays and other memory outside the JavaScript
   * heap that its objects hold) at the same two moments.
   */
  retained: { start: number; end: number; externalStart: number; externalEnd: number };
  /** The probe's samples whose interval's middle falls in the watched window (at least half of it: see `covering`). */
  samples: ProbeSample[];
  /** The heap and external memory kept after each full collection, from just before the watched stretch on (at least 3). */
  memoryPoints: MemoryPoint[];
  /** The app's threads (usage.ts, readThreads) at the watched stretch's start and end; null where they cannot be read. */
  threads: { start: ThreadsUsage; end: ThreadsUsage } | null;
  /** UV_THREADPOOL_SIZE as the app got it (null: unset, libuv's default of 4). */
  poolSizeSet: number | null;
  cpuProfile: V8CpuProfile;
  cpuProfileFile: string;
  heapProfile: V8HeapProfile;
  heapProfileFile: string;
  exit: ExitInfo;
}

/** A call to the app's probe; a failure says what could not be done, with the app's stderr. */
async function ask<T>(app: AppHandle, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw new WorkbookError("WB_NO_REPORT", `diagnose: the probe in "${app.name}" could not ${what}`, {
      app: app.name,
      stderr: app.stderr(),
      cause: e,
    });
  }
}

/**
 * The watched samples, or an error when they cover less than half the window: a verdict read from
 * a few samples (or none: every rule then reads "no") would call any server healthy.
 */
export function covering(app: string, w: Collected["window"], samples: ProbeSample[]): ProbeSample[] {
  const watched = (w.to - w.from) / 1000;
  const covered = samples.reduce((a, s) => a + s.intervalMs, 0) / 1000;
  if (covered >= watched / 2) return samples;
  throw new WorkbookError(
    "WB_NO_REPORT",
    `diagnose: the probe in "${app}" sent ${samples.length} samples covering ${covered.toFixed(1)} s of the ` +
      `${watched.toFixed(1)} s watched, too few for a verdict. Diagnose again; if it recurs, the app may ` +
      "stop its timers (the probe samples on one) or exit during the load.",
    { app },
  );
}

/** How long a memory point waits after a load for the app to finish what that load left in flight, ms. */
const SETTLE_MS = 150;

/** UV_THREADPOOL_SIZE as libuv reads it (a whole number from 1 to 1024), or null when unset or not one. */
function poolSize(v: string | undefined): number | null {
  const n = Number(v);
  return v !== undefined && Number.isInteger(n) && n > 0 ? Math.min(n, 1024) : null;
}

/**
 * A short stretch (the warm-up, a profiled second) that got no answer, only because a request takes
 * longer than the stretch (argon2's hash under this load: 1.5 s): its load ran and the app worked all
 * the same, so it is kept; the watched load, the longest, counts the answers.
 */
function evenUnanswered(load: Promise<LoadResult>): Promise<LoadResult> {
  return load.catch((e: unknown) => {
    if (answeredNothing(e)) return (e as { result: LoadResult }).result;
    throw e;
  });
}

export async function collect(ref: AppRef, o: CollectOptions): Promise<Collected> {
  const name = resolveApp(ref).name;
  const { dir, done } = profileDir("diagnose", name);
  const cpuProfileFile = path.join(dir, `${name}.cpuprofile`);
  const heapProfileFile = path.join(dir, `${name}.heapprofile`);
  try {
    const app = await startApp(ref, { ...o.start, sampleMs: o.sampleMs });
    const channel = app.channel;
    // autocannon: the rules read each answer's own latency (wrk 4 corrects its histogram for coordinated
    // omission after the run, adding requests that were never sent), and at 10 connections it keeps up.
    const base = {
      generator: "autocannon" as const,
      ...o.load,
      target: app,
      path: o.route,
      connections: o.connections,
      warmup: 0,
      repeats: 1,
      report: false, // diagnose() prints the one command that reproduces the whole diagnosis
    };
    let warmup: LoadResult, load: LoadResult;
    const profiled: LoadResult[] = [];
    const window = { from: 0, to: 0, startedAt: 0 };
    const retained = { start: NaN, end: NaN, externalStart: NaN, externalEnd: NaN };
    const memoryPoints: MemoryPoint[] = [];
    const threadsAt: { start: ThreadsUsage | null; end: ThreadsUsage | null } = { start: null, end: null };
    try {
      if (!channel) throw new WorkbookError("WB_BAD_OPTION", "diagnose needs Node: the probe does not run on Bun");
      warmup = await evenUnanswered(
        runLoad({ ...base, duration: o.warmupSeconds, live: false, label: `${name} (warm-up)` }),
      );
      // A memory point: a full collection between two loads (no request in flight, whose buffers
      // would count), the heap and external memory it leaves, and the requests answered so far.
      const served = async () =>
        (await channel.request<{ served: number }>("count", {}, 5000).catch(() => null))?.served ?? null;
      let t0 = performance.now();
      const point = async (profiling: boolean) => {
        // the app may still finish requests the load left (a pool's queue, a stream): their buffers are not kept
        await sleep(SETTLE_MS);
        const at = (performance.now() - t0) / 1000;
        const [k, n] = await Promise.all([heapAfterGc(app), served()]);
        memoryPoints.push({ at, served: n, heapMB: k.heapUsed, externalMB: k.external, profiling });
        return k;
      };
      await channel.request("count-start", {}, 5000).catch(() => null);
      t0 = performance.now();
      ({ heapUsed: retained.start, external: retained.externalStart } = await point(false));
      window.startedAt = Date.now();
      // The window is the load's measured seconds on the app's clock: not the live chart's start-up
      // or final drawing, during which the app waits (measured: up to 1 s; in a 4 s window, that
      // reads a loop blocked all along as 80 % busy, under the blocked line).
      const offset = await ask(app, "read its clock", () => channel.offset());
      load = await runLoad({
        ...base,
        duration: o.seconds,
        live: o.live,
        label: `${name} ${o.route}`,
        onMeasured: (edge, at) => {
          window[edge === "start" ? "from" : "to"] = at + offset;
          threadsAt[edge] = readThreads(app.pid);
        },
      });
      ({ heapUsed: retained.end, external: retained.externalEnd } = await point(false));
      const probe = (cmd: string, args: Record<string, unknown>) =>
        ask(app, cmd, () => channel.request(cmd, args, 60_000));
      await probe("heap-sampling-start", { intervalBytes: o.heapIntervalBytes, includeCollected: true });
      await probe("cpu-profile-start", { intervalUs: 1000 });
      // The profilers keep memory of their own in the heap (measured: 0.6-0.9 MB at their start on
      // a server of 5-8 MB): a point now, and the trend is fitted within each side of that step.
      await point(true);
      const step = o.memoryEverySeconds;
      const second = (duration: number, label: string) =>
        evenUnanswered(runLoad({ ...base, duration, live: false, label: `${name} (${label})` })).then(async (r) => {
          profiled.push(r);
          await point(true);
        });
      for (let done = 0; done < o.profileSeconds; done += step)
        await second(Math.min(step, o.profileSeconds - done), "profiled");
      for (let more = 0; more < o.longerSeconds && o.watchLonger?.(memoryPoints); more += step)
        await second(step, "watched longer");
      await probe("cpu-profile-stop", { file: cpuProfileFile });
      await probe("heap-sampling-stop", { file: heapProfileFile });
      await channel.request("count-stop", {}, 5000).catch(() => null);
      await sleep(o.sampleMs); // nothing pending on the channel
    } finally {
      await app.stop();
    }
    const read = <T>(file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as T;
    return {
      app: name,
      route: o.route,
      sampleMs: o.sampleMs,
      dir,
      server: app.command,
      window,
      retained,
      warmup,
      load,
      profiled,
      samples: covering(name, window, channel!.samplesIn(window.from, window.to)),
      memoryPoints,
      threads: threadsAt.start && threadsAt.end ? { start: threadsAt.start, end: threadsAt.end } : null,
      poolSizeSet: poolSize(o.start?.env?.UV_THREADPOOL_SIZE ?? process.env.UV_THREADPOOL_SIZE),
      cpuProfile: read<V8CpuProfile>(cpuProfileFile),
      cpuProfileFile,
      heapProfile: read<V8HeapProfile>(heapProfileFile),
      heapProfileFile,
      exit: app.exitInfo() ?? { code: null, signal: null },
    };
  } finally {
    done();
  }
}
