/**
 * @workbook/harness/internal: what the tools (tools/: make diagnose, make compare), scripts, samples
 * and tests need and the public API (../index.ts, `wb.`) leaves out (startApp, pacedLoad, median,
 * loadReport...). Not the workbook's API: no notebook or exercise imports it (tests/unit/architecture.test.js
 * fails when one does). Every name is used outside the harness and documented in harness/README.md
 * ("The internal entry").
 */

// apps/: starting, watching and stopping servers; the runtimes
export type { ProbeSample } from "./apps/channel";
export { PROBE_FILE } from "./apps/channel";
export { running, stopAll } from "./apps/lifecycle";
export { resolveApp } from "./apps/registry";
export { runtimeByName } from "./apps/runtimes";
export type { ExitInfo } from "./apps/spawn";
export { startApp } from "./apps/start";
export type { ThreadKind, ThreadsUsage } from "./apps/usage";
export { readThreads, THREAD_KINDS } from "./apps/usage";
// charts/: the only folder that draws (Observable Plot, rendered to SVG + PNG + text)
export { atCellEnd } from "./charts/display";
export type { Frame } from "./charts/flame-chart";
export { perSecond } from "./charts/per-second";
export { textTable } from "./charts/tables";
// core/: settings, the machine, numbers, results, errors
export { fingerprint } from "./core/fingerprint";
export { plural } from "./core/format";
export { measuringGenerator } from "./core/generator";
export { resultsDir } from "./core/paths";
export { loadResults } from "./core/results";
export { shellLine } from "./core/shell";
export { commonSlope, median, medianInterval, roundsToAgree, slope } from "./core/stats";
// exercises/: the check itself, in this process (scripts/check-exercise.js, tests)
export { checkInProcess } from "./exercises/check";
// load/: every number measured under load
export { answeredNothing } from "./load/checks";
export { pacedLoad } from "./load/paced";
export { loadReport } from "./load/report";
export { combineLoads, roundRatios } from "./load/rounds";
// profiles/: where the time and the memory go
export { profileDir } from "./profiles/cpu-profile";
export type { V8CpuProfile, V8HeapProfile } from "./profiles/flame";
export { cpuFlame, frameOf, heapFlame, sourceLines } from "./profiles/flame";
// published/: the studies' commands run at their own length (make as-published)
export type { AsPublishedEntry, AsPublishedRecord, ParsedLoad, RanLoad } from "./published/as-published";
export { AS_PUBLISHED_FILE, asPublishedEntry, readAsPublished, thisMachine } from "./published/as-published";
export type { PlannedRun } from "./published/as-published-plan";
export { asPublishedPlan } from "./published/as-published-plan";
