import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { ProbeSample } from "../apps/channel";
import { type AppRef, resolveApp } from "../apps/registry";
import type { ExitInfo } from "../apps/spawn";
import { type AppHandle, type StartOptions, startApp } from "../apps/start";
import { WorkbookError } from "../core/errors";
import { runLoad } from "../load/run";
import type { LoadOptions, LoadResult } from "../load/types";
import { profileDir } from "../profiles/cpu-profile";
import type { V8CpuProfile, V8HeapProfile } from "../profiles/flame";
import { heapAfterGc } from "../profiles/memory";

/**
 * One run of the diagnosis, one app process under one load in three back-to-back stretches:
 *   warm-up  (discarded: JIT, caches, connections);
 *   watched  the probe's samples (event loop, CPU, memory, GC) and the load's latency and CPU per
 *            request, with no profiler attached, between two full garbage collections (the heap
 *            each leaves is what the app keeps);
 *   profiled a CPU profile and a sampling heap profile (every allocation), taken through the probe.
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
  /** The watched load, and the profiled one. */
  load: LoadResult;
  profiled: LoadResult;
  /**
   * heapUsed (MB) after a full garbage collection just before and just after the watched load: what
   * the app keeps; and `external` (MB: Buffers, typed arrays and other memory outside the JavaScript
   * heap that its objects hold) at the same two moments.
   */
  retained: { start: number; end: number; externalStart: number; externalEnd: number };
  /** The probe's samples whose interval's middle falls in the watched window (at least half of it: see `covering`). */
  samples: ProbeSample[];
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
    };
    let warmup: LoadResult, load: LoadResult, profiled: LoadResult;
    const window = { from: 0, to: 0, startedAt: 0 };
    const retained = { start: NaN, end: NaN, externalStart: NaN, externalEnd: NaN };
    try {
      if (!channel) throw new WorkbookError("WB_BAD_OPTION", "diagnose needs Node: the probe does not run on Bun");
      warmup = await runLoad({ ...base, duration: o.warmupSeconds, live: false, label: `${name} (warm-up)` });
      const kept = () => heapAfterGc(app);
      ({ heapUsed: retained.start, external: retained.externalStart } = await kept());
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
        },
      });
      ({ heapUsed: retained.end, external: retained.externalEnd } = await kept());
      const probe = (cmd: string, args: Record<string, unknown>) =>
        ask(app, cmd, () => channel.request(cmd, args, 60_000));
      await probe("heap-sampling-start", { intervalBytes: o.heapIntervalBytes, includeCollected: true });
      await probe("cpu-profile-start", { intervalUs: 1000 });
      profiled = await runLoad({ ...base, duration: o.profileSeconds, live: false, label: `${name} (profiled)` });
      await probe("cpu-profile-stop", { file: cpuProfileFile });
      await probe("heap-sampling-stop", { file: heapProfileFile });
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
