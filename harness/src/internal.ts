/**
 * @workbook/harness/internal: what scripts, samples and tests need and the public API (../index.ts,
 * `wb.`) leaves out (startApp, pacedLoad, perSecond...), and, until each moves beside its notebook
 * (notebooks/NN-name.ts), the names one notebook still imports as `lesson.`:
 * tests/unit/architecture.test.js lists those, and fails when the list should shrink. Not the
 * workbook's API. Every name is used outside the harness and documented in harness/README.md
 * ("The internal entry").
 */

// apps/: starting, watching and stopping servers; the framework registry
export { frameworks } from "./apps/frameworks";
export { stopAll } from "./apps/lifecycle";
export { runtimes } from "./apps/runtimes";
export { startApp } from "./apps/start";
// charts/: the only folder that draws (Observable Plot, rendered to SVG + PNG + text)
export { perSecond } from "./charts/per-second";
export { textTable } from "./charts/tables";
// compare/: make compare's git form
export { checkoutBase } from "./compare/git";
// core/: settings, the machine, numbers, results, errors
export { resultsDir } from "./core/paths";
export { loadResults } from "./core/results";
export { roundsToAgree } from "./core/stats";
// load/: every number measured under load
export { contentionRounds } from "./load/contention";
export { loopMetrics } from "./load/loop-metrics";
export { pacedLoad } from "./load/paced";
export { roundRatios } from "./load/rounds";
export { rateForShare, timeRoute } from "./load/timing";
// profiles/: where the time and the memory go
export { clinicDoctor, clinicFlame, doctorChart } from "./profiles/clinic";
export { calleesOf, callersOf, selfTicksByLine } from "./profiles/profile-detail";
