/**
 * @workbook/harness/internal: what one lesson, a script or a sample needs and the public API
 * (../index.ts, `wb.`) leaves out: a notebook imports it as `lesson.`. Not the workbook's API: a
 * learner's own code needs none of it. Every name is used outside the harness and documented in
 * harness/README.md ("The internal entry"); tests/unit/architecture.test.js keeps both true.
 */

export type { CompiledApp } from "./apps/compile";
export { withBunCompiled } from "./apps/compile";
// apps/: starting, watching and stopping servers; the framework registry
export { validateChecks } from "./apps/conformance";
export { frameworks, payloadSizes, validateRequestBody } from "./apps/frameworks";
export { runtimes } from "./apps/runtimes";
export { warningTrace } from "./apps/warnings";
// charts/: the only folder that draws (Observable Plot, rendered to SVG + PNG + text)
export { opsBars } from "./charts/micro";
export { textTable } from "./charts/tables";
// compare/: make compare's git form
export { checkoutBase } from "./compare/git";
// core/: settings, the machine, numbers, results, errors
export { appsDir, resultsDir } from "./core/paths";
export { cpuList, sharedCpus } from "./core/pinning";
export { notMeasured } from "./core/readings";
export { loadResults } from "./core/results";
export { roundsToAgree } from "./core/stats";
// experiments/: measurements outside a server
export { readProcessStats, spreading, workerLevels } from "./experiments/every-core";
export { microbench, microGain, microTask } from "./experiments/microbench";
export { predictGain } from "./experiments/request-share";
export { measureScript } from "./experiments/script";
export { v8View } from "./experiments/v8-view";
export { validatorCost } from "./experiments/validator-cost";
// load/: every number measured under load
export { contention, contentionRounds, generatorLag, loopUtilisation, runPercentiles } from "./load/contention";
export { freshLoad } from "./load/fresh";
export { blockedStretches, loopMetrics } from "./load/loop-metrics";
export { statusShare } from "./load/outcome";
export { roundRatios } from "./load/rounds";
export { rateForShare, timeRoute } from "./load/timing";
// profiles/: where the time and the memory go
export { clinicDoctor, clinicFlame, doctorChart } from "./profiles/clinic";
export { calleesOf, callersOf, fileShare, frameSource, selfTicksByLine } from "./profiles/profile-detail";
// prose/: sentences and tables that depend on the run, predictions, the code under test, checks
export {
  blockShareText,
  ceilingText,
  coresPlanText,
  doctorText,
  inFlightText,
  openConnectionsText,
  routeGapText,
  scheduleText,
  slowdownText,
} from "./prose/findings";
export { lieText, microGainText, requestLessonText } from "./prose/micro";
export { runRows } from "./prose/tables";
export { perCore, publishedThreading } from "./published/cores";
// published/: figures quoted from articles and benchmarks, never measured
export { publishedEtag, publishedEtagInFlight, publishedEtagRatios } from "./published/etag";
export {
  published2022,
  publishedElysiaEncore,
  publishedInFlight,
  publishedRatios,
  publishedTables,
  publishedValidationCosts,
} from "./published/frameworks";
export { littlesLaw } from "./published/little";
export { publishedOsgood } from "./published/osgood";
export { publishedSwiftNode } from "./published/swift-node";
