import type { AppHandle } from "../apps/start";
import { type Measured, processTree, readTreeUsage } from "../apps/usage";
import { atCellEnd } from "../charts/display";
import { LiveChart } from "../charts/live";
import type { SecondSample } from "../charts/per-second";
import { badOption } from "../core/errors";
import { fingerprint, quotaContended } from "../core/fingerprint";
import { loopbackUrl } from "../core/loopback";
import { pinGenerator, pinning } from "../core/pinning";
import { limits, throttledBetween, throttling } from "../core/quota";
import { settings } from "../core/settings";
import { shellLine } from "../core/shell";
import { median, spread } from "../core/stats";
import { autocannonPass, requestTimeoutSeconds } from "./autocannon";
import { checkResult, checkWarmup, preflight } from "./checks";
import { autocannonCommand, type GeneratorLoad, generatorFor, wrkCommand } from "./generator";
import { generatorFigures, histogram, summarise, sumOutcomes } from "./outcome";
import { loadReport, stoppedLoadReport } from "./report";
import { type Pass, type PassContext, SecondCounter, steadyFigures } from "./seconds";
import type { LoadOptions, LoadResult, RunFigures } from "./types";
import { wrkPass } from "./wrk";

/**
 * Load a loopback target: one warm-up run (discarded, but checked), then `repeats` measured runs of
 * `duration` seconds, with wrk or autocannon (`generator`; default: the measuring generator, wrk when
 * installed, see generator.ts). It reads the server's CPU time and memory from the server's own
 * counters and the generator's CPU, so each run reports req/s, the server's CPU time per request and
 * whether the generator was saturated: over autocannon's steady seconds, or over wrk's whole run.
 * Every result carries the command line that reproduces it. Throws LoadTestError on unexpected
 * statuses, errors or timeouts (in the warm-up or the measured runs), or an app that dies under load.
 *
 * One request goes first (the preflight). With autocannon, latency is recorded for every response at
 * microsecond resolution (autocannon's own percentiles are whole milliseconds); with wrk it is wrk's
 * distribution, corrected for coordinated omission, rebuilt from its percentiles each at its upper
 * value (so `mean` and `stdev` read a little above wrk's own: `stdev` 5-11 % above at 10 and 100
 * connections; wrk's own report is in `generator.report`). `path` (default "/") is resolved against
 * the target like a link; one that leads off loopback is refused before a request is sent.
 * `connections` default 100, `pipelining` default 1. wrk cannot run a `rate`, `pipelining`, `HEAD` or
 * a fraction of a second: those default to autocannon, and asking wrk for them throws `WB_BAD_OPTION`.
 * With wrk, `statusCodes` counts each status only when some non-2xx status is allowed; otherwise it
 * is `{ "2xx/3xx": n, "4xx/5xx": m }`, and a `4xx/5xx` fails the load.
 *
 * Codes: `WB_LOAD` (the preflight failed or answered an unexpected status, with a hint for a 404; the
 * warm-up or the measured runs saw unexpected statuses, errors or timeouts, or no response: then the
 * error carries the record in `result`), `WB_APP_DIED` (with its stderr), `WB_BAD_OPTION` (unless
 * `repeats >= 1` and `duration > 0`), `WB_NOT_LOOPBACK`.
 *
 * @example
 * const r = await wb.withApp("hello-http", (app) => wb.runLoad({ target: app, connections: 10 }));
 * wb.markdown(wb.markdownTable([wb.loadRow("hello-http, 10 connections", r)]));
 * wb.markdown(`${wb.saturationText(r)} Pinning: ${r.pinning.note}.`);
 */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const s = settings();
  const app: AppHandle | null = typeof opts.target === "string" ? null : opts.target;
  const target = loopbackUrl(typeof opts.target === "string" ? opts.target : opts.target.url, opts.path ?? "/");
  const url = target.href;
  const cfg = {
    method: opts.method ?? "GET",
    connections: opts.connections ?? 100,
    pipelining: opts.pipelining ?? 1,
    duration: opts.duration ?? s.durationSeconds,
    warmup: opts.warmup ?? s.warmupSeconds,
    repeats: opts.repeats ?? s.repeats,
  };
  if (!(cfg.repeats >= 1) || !(cfg.duration > 0)) throw badOption("runLoad", "repeats must be >= 1 and duration > 0");
  const load = (seconds: number): GeneratorLoad => ({
    url,
    method: cfg.method,
    connections: cfg.connections,
    threads: opts.threads,
    pipelining: cfg.pipelining,
    seconds,
    timeoutSeconds: opts.timeout ?? requestTimeoutSeconds(seconds),
    headers: opts.headers,
    body: opts.body,
    rate: opts.rate,
  });
  const generator = generatorFor(
    { ...load(cfg.duration), seconds: Math.min(cfg.duration, cfg.warmup || cfg.duration) },
    opts.generator,
  );
  if (opts.threads !== undefined) {
    if (generator !== "wrk")
      throw badOption("runLoad", `threads: ${opts.threads} sets wrk's -t; ${generator} runs on one`);
    if (!(Number.isInteger(opts.threads) && opts.threads >= 1 && opts.threads <= cfg.connections))
      throw badOption(
        "runLoad",
        `threads must be a whole number from 1 to the connections (${cfg.connections}), got ${opts.threads}`,
      );
  }
  const label = opts.label ?? `${app ? app.name : target.host} ${target.pathname}`;
  const allowed = new Set(opts.allowStatuses ?? []);
  await preflight(url, cfg.method, opts, allowed, app);

  const pinned = opts.pin ?? app?.cpus != null;
  const release = pinGenerator(pinned);
  const live = new LiveChart(
    `${label} · ${generator}`,
    (opts.live ?? true) && cfg.warmup + cfg.duration * cfg.repeats > 3,
  );
  const measured: Measured | null = app ? { pid: app.pid, channel: app.channel } : null;
  const counter = new SecondCounter(measured);
  const rssStartMB = measured
    ? ((await readTreeUsage(measured, await processTree(measured.pid)))?.rssMB ?? null)
    : null;
  const quota = limits().cpu;
  const throttledBefore = throttling(quota);
  const series: SecondSample[] = [];
  const all = histogram();
  const runs: { figures: RunFigures; pass: Pass }[] = [];
  try {
    await live.ready(); // the renderer thread starts before the load does, not during it
    const plan: [string, number][] = [
      ...(cfg.warmup > 0 ? [["warm-up", cfg.warmup] as [string, number]] : []),
      ...Array.from({ length: cfg.repeats }, (_, i) => [`run ${i + 1}`, cfg.duration] as [string, number]),
    ];
    for (const [run, seconds] of plan) {
      const measured = run !== "warm-up";
      const context: PassContext = {
        url,
        load: load(seconds),
        opts,
        app,
        pinned,
        counter,
        started: () => {
          if (measured && runs.length === 0) opts.onMeasured?.("start", performance.now());
        },
        second: (sample) => {
          series.push({ run, ...sample });
          live.update(series, measured ? `${run} of ${cfg.repeats}` : "warm-up (discarded)");
        },
      };
      const pass = generator === "wrk" ? await wrkPass(context) : await autocannonPass(context);
      if (!measured) {
        checkWarmup(label, pass.outcome, allowed, opts.allowErrors ?? false, app);
        continue;
      }
      runs.push({ figures: steadyFigures(run, pass.seconds, summarise(pass.latency), pass.threads), pass });
      all.add(pass.latency);
    }
    opts.onMeasured?.("end", performance.now());
  } catch (e) {
    live.close();
    if (opts.report !== false) {
      const statuses = (opts.allowStatuses ?? []).length > 0;
      const wrk = wrkCommand(load(cfg.duration), pinned, statuses);
      const command =
        generator === "wrk" ? shellLine(wrk.argv, wrk.env) : shellLine(autocannonCommand(load(cfg.duration), pinned));
      const kind = generator === "wrk" ? "ran" : "equivalent";
      atCellEnd(
        stoppedLoadReport(e as Error, { label, command, serverCommand: app?.command ?? null, commandKind: kind }),
      );
    }
    throw e;
  } finally {
    release();
  }
  const throttled = throttledBetween(throttledBefore, throttling(quota));
  const figures = runs.map((r) => r.figures);
  const cpu = figures.map((f) => f.cpuPerRequestUs);
  const p = pinning();
  const fp = fingerprint();
  const contended = quotaContended(fp)
    ? `; contended: a CPU quota of ${fp.cpuQuota} CPU for ${fp.pinnedCores} cores`
    : "";
  const last = runs[runs.length - 1].pass;
  const record: LoadResult = {
    label,
    app: app?.name ?? null,
    url,
    method: cfg.method,
    connections: cfg.connections,
    pipelining: cfg.pipelining,
    rate: opts.rate ?? null,
    durationSeconds: cfg.duration,
    warmupSeconds: cfg.warmup,
    repeats: cfg.repeats,
    command: last.command,
    commandKind: generator === "wrk" ? "ran" : "equivalent",
    serverCommand: app?.command ?? null,
    reqPerSec: spread(figures.map((f) => f.reqPerSec)),
    cpuPerRequestUs: cpu.every((c) => c !== null) ? spread(cpu as number[]) : null,
    latencyMs: summarise(all),
    runs: figures,
    bytesPerSec: median(runs.map((r) => r.pass.bytesPerSec)),
    ...sumOutcomes(runs.map((r) => r.pass.outcome)),
    server:
      app && figures.every((f) => f.serverCpuPercent !== null)
        ? {
            cpuPercent: spread(figures.map((f) => f.serverCpuPercent!)),
            rssStartMB,
            rssPeakMB: counter.rssPeakMB,
            threadsPeak: counter.threadsPeak,
          }
        : null,
    generator: generatorFigures(generator, last.report, figures),
    throttled,
    pinning: {
      server: app?.cpus ?? null,
      generator: pinned && p.enabled ? p.generator : null,
      note:
        (app?.cpus != null && pinned && p.enabled
          ? `server on CPU ${app.cpus}, load generator on CPU ${p.generator}`
          : `not pinned: ${p.enabled ? "turned off for this load" : p.reason.replace(/^off: /, "")}`) + contended,
    },
    series,
    fingerprint: fp,
    startedAt: new Date().toISOString(),
  };
  live.finish(series, `done: median ${Math.round(record.reqPerSec.median)} req/s over ${record.repeats} runs`);
  checkResult(record, allowed, opts.allowErrors ?? false, app);
  if (opts.report !== false) atCellEnd(loadReport([record]));
  return record;
}
