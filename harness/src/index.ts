/**
 * @workbook/harness: the measurement harness of the Node Performance Workbook, as notebooks, scripts
 * and samples use it. Every name below is documented in harness/README.md and used somewhere outside
 * the harness (tests/unit/api.test.js checks both). Grading lives in its own entry point,
 * @workbook/harness/exercises. The folders, lowest first (each imports only from those before it):
 * core, charts, apps, load, profiles, experiments, published, prose.
 */

export type { ConformanceResult, RouteCheck } from "./apps/conformance";
export { checkRoutes, DEFAULT_CHECKS, validateChecks } from "./apps/conformance";
export type { FrameworkEntry } from "./apps/frameworks";
export { frameworkByName, frameworks, frameworkVersion, payloadSizes, validateRequestBody } from "./apps/frameworks";
export { running, stopAll } from "./apps/lifecycle";
export type { AppRef } from "./apps/registry";
export { apps } from "./apps/registry";
export type { RuntimeEntry } from "./apps/runtimes";
export { runtimes } from "./apps/runtimes";
export type { AppHandle, StartOptions } from "./apps/start";
// apps/: starting, watching and stopping servers
export { startApp, withApp, withApps } from "./apps/start";
export type { GroupedRow, PercentileBarRow, SpreadRow } from "./charts/bars";
export { barsWithSpread, groupedBars, percentileBars } from "./charts/bars";
export type { Output } from "./charts/display";
export { markdown, newOutput } from "./charts/display";
export type { FlameData, HotFrame } from "./charts/flame-chart";
export { flameChart, hotTable } from "./charts/flame-chart";
export type { SeriesPoint } from "./charts/lines";
export { lines } from "./charts/lines";
export { perSecond } from "./charts/per-second";
export type { Chart, ChartMeta } from "./charts/plot";
// charts/: the only folder that draws (Observable Plot, rendered to SVG + PNG + text)
export { beside, show, stack } from "./charts/plot";
export { markdownTable, textTable } from "./charts/tables";
export type { ErrorCode } from "./core/errors";
export { AppStartError, LoadTestError, WorkbookError } from "./core/errors";
export type { Fingerprint } from "./core/fingerprint";
export { describeMachine, fingerprint } from "./core/fingerprint";
export { fmt, pct, plural, times } from "./core/format";
export { loopbackUrl } from "./core/loopback";
export { appsDir, repoRoot, resultsDir } from "./core/paths";
export type { Pinning } from "./core/pinning";
export { pinning } from "./core/pinning";
export { loadResults, saveResults } from "./core/results";
export type { Settings } from "./core/settings";
// core/: settings, paths, the machine, statistics, formatting, errors, results
export { SATURATION_CPU_PERCENT, settings } from "./core/settings";
export type { Spread } from "./core/stats";
export { median, percentile, round, slope, spread } from "./core/stats";
// experiments/: in-process experiments and timings outside a server
export { timerDrift } from "./experiments/timer-drift";
export type { ValidatorCost } from "./experiments/validator-cost";
export { validatorCost } from "./experiments/validator-cost";
export type { ContentionResult, ContentionTotals } from "./load/contention";
export { contention, contentionRounds, generatorLag, runPercentiles } from "./load/contention";
export type { FreshLoadResult, StepFigures } from "./load/fresh";
export { freshLoad, stepFigures } from "./load/fresh";
export { blockedStretches, loopMetrics, loopSeries } from "./load/loop-metrics";
export type { PacedResult } from "./load/paced";
export { pacedFailure, pacedLoad } from "./load/paced";
export type { InterleavedRun, InterleaveTarget, RatioMetric } from "./load/rounds";
export { interleavedLoads, roundRatios } from "./load/rounds";
// load/: every number measured under load
export { runLoad } from "./load/run";
export type { RouteTiming } from "./load/timing";
export { rateForShare, timeRoute } from "./load/timing";
export type { LatencySummary, LoadOptions, LoadResult, RunFigures } from "./load/types";
export type { DoctorResult } from "./profiles/clinic";
export { clinicDoctor, clinicFlame, doctorChart } from "./profiles/clinic";
export type { CpuProfileResult } from "./profiles/cpu-profile";
// profiles/: where the time (and the memory) goes
export { cpuProfile } from "./profiles/cpu-profile";
export { doctorSampling } from "./profiles/doctor";
export { cpuFlame, heapFlame } from "./profiles/flame";
export { calleesOf, fileShare, selfTicksByLine } from "./profiles/profile-detail";

// published/: figures quoted from articles and benchmarks, never measured here
export { publishedEtag, publishedEtagRatios } from "./published/etag";
export { published2022, publishedFastifyBenchmarks, publishedRatios, publishedTables } from "./published/frameworks";
