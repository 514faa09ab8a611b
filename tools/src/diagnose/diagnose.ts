import path from "node:path";
import { type AppRef, type LoadResult, repoRoot, type StartOptions, settings } from "@workbook/harness";
import { atCellEnd, resolveApp, shellLine } from "@workbook/harness/internal";
import { type DiagnosisCharts, diagnosisCharts } from "./charts";
import { type Collected, type CollectOptions, collect } from "./collect";
import { type Evidence, gather } from "./evidence";
import { undecided } from "./memory";
import { measureReferences, type References } from "./reference";
import { reportHtml, writeReport } from "./report";
import { THRESHOLDS } from "./thresholds";
import { decide, type Verdict, verdictMarkdown } from "./verdict";

export interface DiagnoseOptions {
  /** The path to load. Default "/". */
  route?: string;
  /** Concurrent connections of the load. Default 10: enough to queue, few enough that latency stays readable. */
  connections?: number;
  /** Seconds watched (the probe's samples, no profiler). Default: 4 with WORKBOOK_PROFILE=quick, 8 with full. */
  seconds?: number;
  /** Seconds profiled after that (CPU and allocations). Default: 3 quick, 5 full. */
  profileSeconds?: number;
  /** Seconds of warm-up before. Default: 1 quick, 2 full. */
  warmupSeconds?: number;
  /** The probe's sampling interval, ms. Default 200. */
  sampleMs?: number;
  /** The live chart while the watched load runs (in a kernel). Default true. */
  live?: boolean;
  /** Write the HTML report. Default true. */
  report?: boolean;
  /** Method, headers, body, allowed statuses... of the load (runLoad's options). */
  load?: CollectOptions["load"];
  /**
   * How to start the app (startApp's options: env, args, cwd...). Its `port` defaults to "free": the
   * app gets a free port in PORT and, when it listens on several (a metrics port beside its own), the
   * one on that port is loaded; a number names the port to load (`make diagnose ... PORT=N`).
   */
  start?: StartOptions;
  /**
   * Seconds the diagnosis may go on loading, a full collection a second, while the memory's trend is
   * undecided (memory.ts). Default: 8 quick, 16 full; 0 never.
   */
  longerSeconds?: number;
  /**
   * Measure the yardstick's references beside the app (reference.ts: a bare node:http answer, and
   * the hello route of the framework its profile shows), and judge its CPU per request against them.
   * Default true; false: no yardstick, the shares of busy time alone decide (2-5 s less).
   */
  references?: boolean;
}

/**
 * The stretches of a diagnosis by profile, its own (not the load tests' durations): the thresholds
 * were set on runs of the quick one; the full one watches twice as long, for steadier slopes.
 */
export const DIAGNOSE_SECONDS = {
  quick: { warmup: 1, watched: 4, profiled: 3, longer: 8 },
  full: { warmup: 2, watched: 8, profiled: 5, longer: 16 },
} as const;

export interface Diagnosis {
  app: string;
  route: string;
  verdict: Verdict;
  evidence: Evidence;
  /** The verdict as printed: its lines joined. */
  text: string;
  /** The verdict for a notebook (markdown()). */
  markdown: string;
  /** The HTML report's path (null with report: false), in `dir` beside the two profiles. */
  report: string | null;
  dir: string;
  /** The watched load (its `command`: the load that ran). */
  load: LoadResult;
  /**
   * What ran, as a learner would type it: `make diagnose APP=... ROUTE=...` (this diagnosis from a
   * terminal), and the server's own command (`node server.js`, pinned). The load is `load.command`.
   */
  command: string;
  server: string;
  /** The two profiles it took (open them in Chrome DevTools, or the CPU one in speedscope), beside the report. */
  files: [string, string];
  charts: DiagnosisCharts;
  /** How long the whole diagnosis took, start to report, in seconds. */
  tookSeconds: number;
}

/**
 * Diagnose a server under a short load: start it (any Node server file, or a registered app), warm
 * it up, watch its event loop, CPU, memory and GC with no profiler attached, then profile its CPU
 * and its allocations under the same load; compare the evidence with named thresholds
 * (thresholds.ts) and write one self-contained HTML report (`results/diagnose/<app>-<time>/`, with
 * the `.cpuprofile` and `.heapprofile`). The rules, the lines and how they were calibrated:
 * harness/METHOD.md, "The diagnosis". The loads last 8 s with the quick profile, 15 s with full.
 *
 * Options: `route` ("/"), `connections` (10: enough for requests to queue behind a blocked loop; the
 * thresholds were set at 10), `seconds` watched (4 / 8), `profileSeconds` (3 / 5), `warmupSeconds`
 * (1 / 2), `sampleMs` (200), `live` (true), `report` (true), `load` (`runLoad` options for the
 * requests but `target`, `path`, `connections`, `warmup`, `repeats`, `duration`, `live`), `start`.
 * `command` is the same diagnosis from a terminal (`make diagnose APP=... ROUTE=...`). Fails like
 * `startApp` and `runLoad`; throws `WB_BAD_OPTION` on Bun (no probe) and `WB_NO_REPORT` when the probe
 * cannot take a profile or its samples cover less than half the watched seconds.
 *
 * @example
 * const primes = await tools.diagnose("your-server/server.js", { route: "/primes?n=10000", connections: 10 });
 * wb.markdown(primes.markdown);
 * wb.show(primes.charts.flame);
 */
export async function diagnose(app: AppRef, opts: DiagnoseOptions = {}): Promise<Diagnosis> {
  const started = performance.now();
  const collected = await collectRoute(app, opts);
  const refs = opts.references === false ? null : await measureReferences([collected], referenceOptions(opts));
  const d = finish(app, collected, refs, opts);
  // Its loads print nothing of their own (a warm-up and a dozen short loads): what reproduces it is this.
  atCellEnd(`The same diagnosis from a terminal (from the workbook's folder):\n\n\`\`\`sh\n${d.command}\n\`\`\``);
  return { ...d, tookSeconds: (performance.now() - started) / 1000 };
}

/** One route's run (collect.ts), with the stretches of the profile in force unless given. */
export function collectRoute(app: AppRef, opts: DiagnoseOptions): Promise<Collected> {
  const s = DIAGNOSE_SECONDS[settings().name];
  return collect(app, {
    route: opts.route ?? "/",
    connections: opts.connections ?? 10,
    seconds: opts.seconds ?? s.watched,
    profileSeconds: opts.profileSeconds ?? s.profiled,
    warmupSeconds: opts.warmupSeconds ?? s.warmup,
    sampleMs: opts.sampleMs ?? 200,
    heapIntervalBytes: 64 * 1024,
    live: opts.live,
    load: opts.load,
    start: { ...opts.start, port: opts.start?.port ?? "free" },
    memoryEverySeconds: 1,
    longerSeconds: opts.longerSeconds ?? s.longer,
    watchLonger: (points) => undecided(points, THRESHOLDS),
  });
}

/** The references are loaded as the app was: its connections, its load generator, its rate cap. */
export const referenceOptions = (opts: DiagnoseOptions) => ({
  connections: opts.connections ?? 10,
  generator: opts.load?.generator ?? ("autocannon" as const),
  rate: opts.load?.rate,
});

/** A collected run judged against its references: the verdict, the charts, the report (`tookSeconds` left for the caller). */
export function finish(app: AppRef, collected: Collected, refs: References | null, opts: DiagnoseOptions): Diagnosis {
  const evidence = gather(collected, refs);
  const command = (more: string[] = []) =>
    shellLine(["make", "diagnose", `APP=${appArg(app)}`, `ROUTE=${collected.route}`, ...more]);
  const verdict = decide(evidence, THRESHOLDS, {
    rerun: (seconds) => `${command([`WATCH=${seconds}`])} (in a notebook: seconds: ${seconds})`,
  });
  const charts = diagnosisCharts(collected, evidence);
  const report =
    (opts.report ?? true) ? writeReport(collected, reportHtml(collected, evidence, verdict, charts)) : null;
  return {
    app: collected.app,
    route: collected.route,
    verdict,
    evidence,
    text: verdict.lines.join("\n"),
    markdown: verdictMarkdown(verdict),
    report,
    dir: collected.dir,
    load: collected.load,
    command: command(),
    server: collected.server,
    files: [collected.cpuProfileFile, collected.heapProfileFile],
    charts,
    tookSeconds: 0,
  };
}

/** The APP= a learner passes to `make diagnose` (run from the workbook's folder) for `app`: a registered app's name, or its file's path. */
export function appArg(app: AppRef): string {
  const resolved = resolveApp(app);
  return resolved.registered ? resolved.name : path.relative(repoRoot, resolved.entryPath);
}
