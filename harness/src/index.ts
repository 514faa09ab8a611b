/**
 * @workbook/harness: the measurement harness of the Node Performance Workbook, as `wb.` in the
 * notebooks. Its runtime names are what at least two notebooks or exercises use
 * (tests/unit/architecture.test.js keeps that true, and at most 60);
 * each is named in harness/README.md and documented in its doc comment (`make reference`). What one
 * notebook alone uses lives beside it (notebooks/NN-name.ts); what scripts, samples and tests need
 * besides sits behind @workbook/harness/internal; grading behind @workbook/harness/exercises. The
 * folders, lowest first (each imports only from those before it): core, charts, apps, load,
 * profiles, experiments, published, prose.
 */

// core/: settings, the machine, numbers, results, errors
export { WorkbookError } from "./core/errors";
export type { ErrorCode } from "./core/errors";
export { describeMachine } from "./core/fingerprint";
export type { Fingerprint } from "./core/fingerprint";
export { fmt, pct, times } from "./core/format";
export type { GeneratorChoice, GeneratorName } from "./core/generator";
export { repoRoot } from "./core/paths";
export { pinning } from "./core/pinning";
export { notMeasured } from "./core/readings";
export type { Pinning } from "./core/pinning";
export { saveResults } from "./core/results";
export { SATURATION_CPU_PERCENT, settings } from "./core/settings";
export type { Settings } from "./core/settings";
export { spread } from "./core/stats";
export type { Interval, Spread } from "./core/stats";

// charts/: the only folder that draws (Observable Plot, rendered to SVG + PNG + text)
export { barsWithSpread, groupedBars, percentileBars } from "./charts/bars";
export type { GroupedRow, PercentileBarRow, SpreadRow } from "./charts/bars";
export { markdown } from "./charts/display";
export type { Output } from "./charts/display";
export { flameChart, hotTable } from "./charts/flame-chart";
export type { FlameData, HotFrame, LineTicks } from "./charts/flame-chart";
export { lines } from "./charts/lines";
export type { SeriesPoint } from "./charts/lines";
export { memoryChart } from "./charts/memory";
export { show, stack } from "./charts/plot";
export type { Chart, ChartMeta } from "./charts/plot";
export { markdownTable } from "./charts/tables";

// apps/: starting, watching and stopping servers; the framework registry
export type { ConformanceResult, RouteCheck } from "./apps/conformance";
export { frameworks } from "./apps/frameworks";
export type { FrameworkEntry } from "./apps/frameworks";
export type { AppRef } from "./apps/registry";
export { runtimes } from "./apps/runtimes";
export type { RuntimeEntry } from "./apps/runtimes";
export { withApp, withApps } from "./apps/start";
export type { AppHandle, StartOptions } from "./apps/start";

// load/: every number measured under load
export { contentionRounds } from "./load/contention";
export type {
  ContentionResult,
  ContentionRoundsOptions,
  ContentionTotals,
  ContentionVariant,
} from "./load/contention";
export type { LoopMetricsHistogram, LoopMetricsRow, LoopMetricsSnapshot } from "./load/loop-metrics";
export type { PacedResult } from "./load/paced";
export { advantage, interleavedLoads } from "./load/rounds";
export type { InterleavedRun, InterleaveTarget, RatioMetric, Advantage, RatioReading } from "./load/rounds";
export { runLoad } from "./load/run";
export { rateForShare, timeRoute } from "./load/timing";
export type { RouteTiming } from "./load/timing";
export type { LatencySummary, LoadOptions, LoadResult, RunFigures } from "./load/types";

// profiles/: where the time and the memory go
export { cpuProfile } from "./profiles/cpu-profile";
export type { CpuProfileResult } from "./profiles/cpu-profile";
export { heapProfile } from "./profiles/heap-profile";
export type { HeapProfileResult } from "./profiles/heap-profile";
export { heapAfterGc, heapSnapshots, watchMemory } from "./profiles/memory";
export type { MemoryWatch, HeapSnapshotsResult } from "./profiles/memory";

// experiments/: measurements outside a server
export { frameShare, gainCeiling } from "./experiments/request-share";
export type { GainPart } from "./experiments/request-share";
export { measureScript } from "./experiments/script";
export type { ScriptOptions, ScriptRun } from "./experiments/script";
export { timerDrift } from "./experiments/timer-drift";

// published/: figures quoted from articles and benchmarks, never measured, that two notebooks read
export type { AsPublishedRow, LoadDifference } from "./published/as-published";
export type { EtagPublished, EtagPublishedRow, EtagStep, EtagTarget } from "./published/etag";
export type { PublishedValidationRow, PublishedValidationTable } from "./published/frameworks";
export type { PublishedRow, PublishedTable, Row2022, Table2022 } from "./published/frameworks2022";
export { littlesLaw } from "./published/little";
export type { InFlight } from "./published/little";
export type { PublishedHelloRow, PublishedHelloTable } from "./published/osgood";
export { published } from "./published/studies";
export type { StudyClaim, StudyLoad } from "./published/study";

// prose/: sentences and tables that depend on the run, predictions, the code under test, checks
export { checklist } from "./prose/checks";
export { compared } from "./prose/compare";
export type { Comparison, ComparisonKind, ComparisonWords, GivenInterval, RatioEvidence } from "./prose/compare";
export { showCode, showDiff } from "./prose/code";
export { advantageText, commandText, saturationText, spreadText } from "./prose/describe";
export type { ToolRun } from "./prose/describe";
export { eta } from "./prose/eta";
export { retainerText } from "./prose/findings";
export { predict, reveal } from "./prose/predict";
export type { Prediction } from "./prose/predict";
export { loadRow } from "./prose/tables";
