/**
 * @workbook/harness: the measurement harness of the Node Performance Workbook, as `wb.` in the
 * notebooks. Its runtime names are what at least two notebooks or exercises use, or what a learner
 * calls on a server of their own (tests/unit/architecture.test.js keeps both true, and at most 60);
 * each is named in harness/README.md and documented in its doc comment (`make reference`). What one lesson, a script or a sample needs besides sits
 * behind @workbook/harness/internal; grading behind @workbook/harness/exercises. The folders, lowest
 * first (each imports only from those before it): core, charts, apps, load, profiles, diagnose,
 * experiments, published, prose.
 */

// core/: settings, the machine, numbers, results, errors
export { WorkbookError } from "./core/errors";
export type { ErrorCode } from "./core/errors";
export { describeMachine } from "./core/fingerprint";
export type { Fingerprint } from "./core/fingerprint";
export { fmt, pct, times } from "./core/format";
export { measuringGenerator } from "./core/generator";
export type { GeneratorChoice, GeneratorName } from "./core/generator";
export { repoRoot } from "./core/paths";
export { pinning } from "./core/pinning";
export type { Pinning } from "./core/pinning";
export { saveResults } from "./core/results";
export { SATURATION_CPU_PERCENT, settings } from "./core/settings";
export type { Settings } from "./core/settings";
export { medianInterval, spread } from "./core/stats";
export type { Interval, Spread } from "./core/stats";

// charts/: the only folder that draws (Observable Plot, rendered to SVG + PNG + text)
export { barsWithSpread, groupedBars, percentileBars } from "./charts/bars";
export type { GroupedRow, PercentileBarRow, SpreadRow } from "./charts/bars";
export { markdown } from "./charts/display";
export type { Output } from "./charts/display";
export { flameChart, hotTable } from "./charts/flame-chart";
export type { FlameData, HotFrame } from "./charts/flame-chart";
export { lines } from "./charts/lines";
export type { SeriesPoint } from "./charts/lines";
export { memoryChart } from "./charts/memory";
export type { OpsRow } from "./charts/micro";
export { perSecond } from "./charts/per-second";
export { show, stack } from "./charts/plot";
export type { Chart, ChartMeta } from "./charts/plot";
export { markdownTable } from "./charts/tables";

// apps/: starting, watching and stopping servers; the framework registry
export type { ConformanceResult, RouteCheck } from "./apps/conformance";
export { frameworkByName, frameworkVersion } from "./apps/frameworks";
export type { FrameworkEntry } from "./apps/frameworks";
export { running, stopAll } from "./apps/lifecycle";
export type { AppRef } from "./apps/registry";
export type { RuntimeEntry } from "./apps/runtimes";
export { startApp, withApp, withApps } from "./apps/start";
export type { AppHandle, StartOptions } from "./apps/start";

// load/: every number measured under load
export type { ContentionResult, ContentionTotals } from "./load/contention";
export type { FreshLoadResult } from "./load/fresh";
export { pacedLoad } from "./load/paced";
export type { PacedResult } from "./load/paced";
export { advantage, interleavedLoads } from "./load/rounds";
export type { InterleavedRun, InterleaveTarget, RatioMetric, Advantage, RatioReading } from "./load/rounds";
export { runLoad } from "./load/run";
export type { RouteTiming } from "./load/timing";
export type { LatencySummary, LoadOptions, LoadResult, RunFigures } from "./load/types";

// profiles/: where the time and the memory go
export type { DoctorResult } from "./profiles/clinic";
export { cpuProfile } from "./profiles/cpu-profile";
export type { CpuProfileResult } from "./profiles/cpu-profile";
export { heapProfile } from "./profiles/heap-profile";
export type { HeapProfileResult } from "./profiles/heap-profile";
export { heapAfterGc, heapSnapshots, watchMemory } from "./profiles/memory";
export type { MemoryWatch, HeapSnapshotsResult } from "./profiles/memory";

// diagnose/: what holds a server back, from one short load (make diagnose)
export { diagnose } from "./diagnose/diagnose";
export type { DiagnoseOptions, Diagnosis } from "./diagnose/diagnose";

// compare/: is B faster than A? Two servers side by side, the verdict with its interval (make compare)
export { compare } from "./compare/compare";
export type { CompareOptions } from "./compare/compare";
export type { Comparison, Design, RoundPair, SideSummary } from "./compare/report";
export type { CompareSide } from "./compare/sides";
export type { Change, FloorRow, Verdict, VerdictKind } from "./compare/stats";

// experiments/: measurements outside a server
export type { MicrobenchOptions, MicrobenchResult, MicroTask, MicroGain } from "./experiments/microbench";
export { frameShare, gainCeiling } from "./experiments/request-share";
export type { GainPart } from "./experiments/request-share";
export { timerDrift } from "./experiments/timer-drift";
export type { V8View, V8ViewOptions, ShapesReport, Deopt } from "./experiments/v8-view";
export type { ValidatorCost } from "./experiments/validator-cost";

// prose/: sentences and tables that depend on the run, predictions, the code under test, checks
export { checklist } from "./prose/checks";
export { showCode, showDiff } from "./prose/code";
export { advantageText, commandText, saturationText, spreadText, toolText } from "./prose/describe";
export { eta } from "./prose/eta";
export { retainerText } from "./prose/findings";
export type { RequestLesson } from "./prose/micro";
export { predict, reveal } from "./prose/predict";
export type { Prediction } from "./prose/predict";
export { loadRow } from "./prose/tables";
