/**
 * @workbook/harness: the measurement harness of the Node Performance Workbook, as notebooks, scripts
 * and samples use it. Every name below is documented in harness/README.md and used somewhere outside
 * the harness (tests/unit/architecture.test.js checks both). Grading lives in its own entry point,
 * @workbook/harness/exercises. The folders, lowest first (each imports only from those before it):
 * core, charts, apps, load, profiles, experiments, published, prose.
 */

// core/: settings, paths, the machine, statistics, formatting, errors, results
export { WorkbookError } from "./core/errors";
export type { ErrorCode } from "./core/errors";
export { describeMachine } from "./core/fingerprint";
export type { Fingerprint } from "./core/fingerprint";
export { fmt, pct, times } from "./core/format";
export { appsDir, repoRoot, resultsDir } from "./core/paths";
export { pinning } from "./core/pinning";
export type { Pinning } from "./core/pinning";
export { loadResults, saveResults } from "./core/results";
export { SATURATION_CPU_PERCENT, settings } from "./core/settings";
export type { Settings } from "./core/settings";
export { spread } from "./core/stats";
export type { Spread } from "./core/stats";

// charts/: the only folder that draws (Observable Plot, rendered to SVG + PNG + text)
export { barsWithSpread, groupedBars, percentileBars } from "./charts/bars";
export type { GroupedRow, PercentileBarRow, SpreadRow } from "./charts/bars";
export { markdown } from "./charts/display";
export type { Output } from "./charts/display";
export { flameChart, hotTable } from "./charts/flame-chart";
export type { FlameData, HotFrame } from "./charts/flame-chart";
export { lines } from "./charts/lines";
export type { SeriesPoint } from "./charts/lines";
export { perSecond } from "./charts/per-second";
export { show, stack } from "./charts/plot";
export type { Chart, ChartMeta } from "./charts/plot";
export { markdownTable, textTable } from "./charts/tables";

// apps/: starting, watching and stopping servers, and the registries of apps, frameworks and runtimes
export { validateChecks } from "./apps/conformance";
export type { ConformanceResult, RouteCheck } from "./apps/conformance";
export { frameworkByName, frameworks, frameworkVersion, payloadSizes, validateRequestBody } from "./apps/frameworks";
export type { FrameworkEntry } from "./apps/frameworks";
export { running, stopAll } from "./apps/lifecycle";
export type { AppRef } from "./apps/registry";
export { runtimes } from "./apps/runtimes";
export type { RuntimeEntry } from "./apps/runtimes";
export { startApp, withApp, withApps } from "./apps/start";
export type { AppHandle, StartOptions } from "./apps/start";

// load/: every number measured under load
export { contention, contentionRounds, generatorLag, loopUtilisation, runPercentiles } from "./load/contention";
export type { ContentionResult, ContentionTotals } from "./load/contention";
export { freshLoad } from "./load/fresh";
export type { FreshLoadResult } from "./load/fresh";
export { blockedStretches, loopMetrics } from "./load/loop-metrics";
export { pacedLoad } from "./load/paced";
export type { PacedResult } from "./load/paced";
export { interleavedLoads, roundRatios, advantage } from "./load/rounds";
export type { InterleavedRun, InterleaveTarget, RatioMetric, Advantage, RatioReading } from "./load/rounds";
export { statusShare } from "./load/outcome";
export { runLoad } from "./load/run";
export { rateForShare, timeRoute } from "./load/timing";
export type { RouteTiming } from "./load/timing";
export type { LatencySummary, LoadOptions, LoadResult, RunFigures } from "./load/types";

// profiles/: where the time (and the memory) goes
export { clinicDoctor, clinicFlame, doctorChart } from "./profiles/clinic";
export type { DoctorResult } from "./profiles/clinic";
export { cpuProfile } from "./profiles/cpu-profile";
export type { CpuProfileResult } from "./profiles/cpu-profile";
export { calleesOf, fileShare, selfTicksByLine } from "./profiles/profile-detail";

// experiments/: in-process experiments and timings outside a server
export { timerDrift } from "./experiments/timer-drift";
export { validatorCost } from "./experiments/validator-cost";
export type { ValidatorCost } from "./experiments/validator-cost";

// published/: figures quoted from articles and benchmarks, never measured here
export { publishedEtag, publishedEtagRatios } from "./published/etag";
export { published2022, publishedFastifyBenchmarks, publishedRatios, publishedTables } from "./published/frameworks";

// prose/: sentences and tables that depend on the run, predictions, the code under test, time estimates
export { showCode, showDiff } from "./prose/code";
export { spreadText, advantageText, saturationText } from "./prose/describe";
export { eta } from "./prose/eta";
export { slowdownText, doctorText, ceilingText, blockShareText, scheduleText, retainerText } from "./prose/findings";
export { predict, reveal } from "./prose/predict";
export type { Prediction } from "./prose/predict";
export { runRows, loadRow } from "./prose/tables";
export { checklist } from "./prose/checks";
// diagnose/: what holds a server back, from one short load: verdict, evidence, report (make diagnose)
export { diagnose } from "./diagnose/diagnose";
export type { DiagnoseOptions, Diagnosis } from "./diagnose/diagnose";
// profiles/ (memory): where memory goes, from inside the app
export { heapAfterGc, heapSnapshots, watchMemory } from "./profiles/memory";
export type { MemoryWatch, HeapSnapshotsResult } from "./profiles/memory";
export { heapProfile } from "./profiles/heap-profile";
export type { HeapProfileResult } from "./profiles/heap-profile";
export { memoryChart } from "./charts/memory";
export { measureScript } from "./experiments/script";
// micro-benchmarks (notebook 05): charts/micro.ts, experiments/microbench.ts, v8-view.ts, request-share.ts, prose/micro.ts
export { opsBars } from "./charts/micro";
export type { OpsRow } from "./charts/micro";
export { microbench, microTask, microGain } from "./experiments/microbench";
export type { MicrobenchOptions, MicrobenchResult, MicroTask, MicroGain } from "./experiments/microbench";
export { v8View } from "./experiments/v8-view";
export type { V8View, V8ViewOptions, ShapesReport, Deopt } from "./experiments/v8-view";
export { predictGain, gainCeiling, frameShare } from "./experiments/request-share";
export type { GainPart } from "./experiments/request-share";
export { microGainText, lieText, requestLessonText } from "./prose/micro";
export type { RequestLesson } from "./prose/micro";
