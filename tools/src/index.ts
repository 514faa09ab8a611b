/**
 * @workbook/tools: the workbook's two command-line tools, built on the harness (@workbook/harness and
 * its internal entry) and used by one notebook each: the diagnosis (`make diagnose`, notebook 06) and
 * the comparison of two servers (`make compare`, notebook 08). They import the harness only through
 * its entries (tests/unit/architecture.test.js), never a file of it; the harness imports nothing of
 * theirs. Folders: diagnose, compare (neither imports the other).
 */

// diagnose/: what holds a server back, from one short load (make diagnose)
export { diagnose } from "./diagnose/diagnose";
export type { DiagnoseOptions, Diagnosis } from "./diagnose/diagnose";
export { diagnoseRoutes } from "./diagnose/routes";
export type { RankedRoute, RouteSpec, RoutesDiagnosis } from "./diagnose/routes";
export { THRESHOLDS as diagnosisLines } from "./diagnose/thresholds";
export type { Thresholds as DiagnosisLines } from "./diagnose/thresholds";

// compare/: is B faster than A? Two servers side by side, the verdict with its interval (make compare)
export { compare } from "./compare/compare";
export type { CompareOptions } from "./compare/compare";
export { checkoutBase } from "./compare/git";
export type { Comparison, Design, RoundPair, SideSummary } from "./compare/report";
export type { CompareSide } from "./compare/sides";
export type { Change, FloorRow, Verdict, VerdictKind } from "./compare/stats";
