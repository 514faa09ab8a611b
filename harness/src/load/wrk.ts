import { spawn } from "node:child_process";
import type * as hdr from "hdr-histogram-js";
import { signalGroup } from "../apps/process-group";
import type { AppHandle } from "../apps/start";
import { LoadTestError } from "../core/errors";
import { repoRoot } from "../core/paths";
import { shellLine } from "../core/shell";
import { sleep } from "../core/time";
import { diedUnderLoad } from "./checks";
import { type GeneratorLoad, wrkCommand } from "./generator";
import { histogram, WRK_BAD, WRK_OK } from "./outcome";
import { type Pass, type PassContext, percentOf } from "./seconds";
import type { Outcome } from "./types";
import { splitTimes, wrkCpuMs, wrkCpuNow, wrkSpawnArgv } from "./wrk-cpu";

/** One wrk run: a process of its own, pinned to the generator's CPU, read back from its Lua reporter. */

/** The line harness/wrk/report.lua prints as wrk ends. */
export interface WrkFigures {
  requests: number;
  durationUs: number;
  bytes: number;
  /** wrk's CPU time (all threads, clock ticks) as it ended; null where there is no /proc. */
  cpuTicks: number | null;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  latencyUs: { min: number | null; max: number; mean: number; stdev: number; percentiles: [number, number][] };
  /** Answers by status, when counted (WORKBOOK_WRK_STATUSES=1); null otherwise. */
  statuses: Record<string, number> | null;
}

const MARK = "WORKBOOK-WRK ";

/** Splits wrk's stdout into its own report (what a learner sees in a terminal) and the reporter's figures. */
export function parseWrk(stdout: string): { figures: WrkFigures; report: string } {
  const lines = stdout.split("\n");
  const line = lines.find((l) => l.startsWith(MARK));
  if (!line) throw new Error("wrk printed no WORKBOOK-WRK line (was it run with harness/wrk/report.lua?)");
  const report = lines
    .filter((l) => !l.startsWith(MARK))
    .join("\n")
    .trimEnd();
  return { figures: JSON.parse(line.slice(MARK.length)) as WrkFigures, report };
}

/** A wrk run's answers as an Outcome: socket errors apart from timeouts, statuses counted or, if not, by wrk's one line (above 399). */
export function wrkOutcome(f: WrkFigures): Outcome {
  const statusCodes = f.statuses ?? {
    ...(f.requests - f.errors.status > 0 ? { [WRK_OK]: f.requests - f.errors.status } : {}),
    ...(f.errors.status > 0 ? { [WRK_BAD]: f.errors.status } : {}),
  };
  const non2xx = f.statuses
    ? Object.entries(f.statuses).reduce((a, [code, n]) => a + (+code >= 200 && +code <= 299 ? 0 : n), 0)
    : f.errors.status;
  return {
    totalRequests: f.requests,
    errors: f.errors.connect + f.errors.read + f.errors.write,
    timeouts: f.errors.timeout,
    non2xx,
    statusCodes,
  };
}

/**
 * The run's latency distribution, rebuilt from the percentiles wrk reported (1 % apart, finer in the
 * tail) as a µs histogram: each step of the grid holds its share of the answers at its upper value.
 * Exact at every grid point, so p50, p75, p90 and p99 are wrk's own; it lets runs be merged.
 */
export function wrkHistogram(f: WrkFigures): hdr.Histogram {
  const h = histogram();
  const points = f.latencyUs.percentiles;
  if (f.requests === 0 || points.length === 0) return h;
  let placed = 0;
  for (const [p, us] of [...points, [100, f.latencyUs.max]]) {
    const n = Math.round((p / 100) * f.requests) - placed;
    if (n <= 0) continue;
    h.recordValueWithCount(Math.max(1, Math.round(us)), n);
    placed += n;
  }
  return h;
}

export interface WrkRunHooks {
  /** wrk has been spawned (its connections are opening): read the counters here. `cpuMs`: wrk's CPU time now (null where it cannot be read each second: load/wrk-cpu.ts). */
  onStart(cpuMs: () => number | null): void | Promise<void>;
  /** Each second of the run: requests the app received in it, counted by its probe (null without one). */
  onTick(t: { second: number; requests: number | null }): void | Promise<void>;
}

export interface WrkRun {
  figures: WrkFigures;
  /** wrk's own report, as a terminal shows it. */
  report: string;
  /** wrk's CPU time over the run, ms: from /proc or the shell's `times` (load/wrk-cpu.ts); null where it cannot be read, never 0. */
  cpuMs: number | null;
  command: string;
  /** Its threads that could run at once (its -t, at most the CPUs it was given): saturation is judged per each. */
  parallel: number;
}

/**
 * Run wrk for `load.seconds` (whole seconds) against a loopback URL. While it runs, one tick a
 * second, with the requests the app's probe counted in it (Node's http diagnostics channel), for
 * the live chart. Rejects when the app dies under load (wrk is stopped) or wrk fails.
 */
export async function wrkRun(
  load: GeneratorLoad,
  opts: { pinned: boolean; statuses: boolean; app: AppHandle | null },
  hooks: WrkRunHooks,
): Promise<WrkRun> {
  const { argv, env, parallel } = wrkCommand(load, opts.pinned, opts.statuses);
  const command = shellLine(argv, env);
  const probe = opts.app?.channel ?? null;
  const counting = probe ? await probe.request<{ served: number }>("count-start", {}, 5000).catch(() => null) : null;
  const spawned = wrkSpawnArgv(argv);
  // A group of its own: under `sh -c` (portable readings) stopping wrk means stopping the shell's child too.
  const child = spawn(spawned[0], spawned.slice(1), {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: "pipe",
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
  const t0 = performance.now();
  let finished = false;
  const ended = new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once("error", (error) => resolve({ code: null, error }));
    child.once("exit", (code) => resolve({ code }));
  }).finally(() => {
    finished = true;
  });
  if (child.pid !== undefined) await hooks.onStart(wrkCpuNow(child.pid));
  const ticking = (async () => {
    let last = counting?.served ?? 0;
    for (let second = 1; second <= load.seconds; second++) {
      await sleep(t0 + second * 1000 - performance.now());
      if (finished) return;
      const now =
        probe && counting ? await probe.request<{ served: number }>("count", {}, 2000).catch(() => null) : null;
      await hooks.onTick({ second, requests: now ? now.served - last : null });
      if (now) last = now.served;
    }
  })();
  const died = opts.app
    ? opts.app.exited.then((info) => {
        if (child.pid !== undefined) signalGroup(child.pid, "SIGKILL");
        return diedUnderLoad(opts.app!, info);
      })
    : new Promise<never>(() => {});
  const outcome = await Promise.race([ended, died]);
  await ticking;
  if (probe && counting) await probe.request("count-stop", {}, 2000).catch(() => null);
  if (outcome instanceof Error) throw outcome;
  if (outcome.error || outcome.code !== 0 || !stdout.includes(MARK)) {
    const why = outcome.error ? outcome.error.message : `exited with code ${outcome.code}`;
    throw new LoadTestError("WB_LOAD", `wrk failed (${why}): ${command}`, { stdout, stderr });
  }
  const times = splitTimes(stdout);
  const { figures, report } = parseWrk(times.stdout);
  return { figures, report, cpuMs: wrkCpuMs(figures.cpuTicks, times.cpuMs), command, parallel };
}

/**
 * One run of wrk for runLoad, a process of its own: its whole run is one stretch (its connections open in
 * a few milliseconds), the server's CPU read from wrk's start to its exit.
 */
export async function wrkPass(c: PassContext): Promise<Pass> {
  const run = await wrkRun(
    c.load,
    { pinned: c.pinned, statuses: (c.opts.allowStatuses ?? []).length > 0, app: c.app },
    {
      onStart: async (cpuMs) => {
        await c.counter.start(cpuMs);
        c.started();
      },
      onTick: async (t) => {
        const sec = await c.counter.tick(t.requests ?? 0);
        c.second(
          {
            second: t.second,
            reqPerSec: t.requests,
            latencyP50Ms: null,
            latencyP99Ms: null,
            serverCpuPercent: percentOf(sec.serverCpuMs, sec.wallMs),
            generatorCpuPercent: percentOf(sec.generatorCpuMs, sec.wallMs),
          },
          sec,
        );
      },
    },
  );
  const f = run.figures;
  const wallMs = f.durationUs / 1000;
  const server = await c.counter.serverCpuSinceStart();
  return {
    outcome: wrkOutcome(f),
    latency: wrkHistogram(f),
    bytesPerSec: wallMs ? (f.bytes * 1000) / wallMs : 0,
    // wrk's figures cover its whole run (its connections open in a few milliseconds: no first second to drop).
    seconds: [
      {
        requests: f.requests,
        wallMs,
        serverCpuMs: server.cpuMs,
        // null where wrk's CPU could not be read: never 0, which would call it never saturated.
        generatorCpuMs: run.cpuMs,
        cpuWallMs: server.wallMs,
      },
    ],
    command: run.command,
    report: run.report,
    threads: run.parallel,
  };
}
