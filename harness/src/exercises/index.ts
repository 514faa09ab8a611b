/**
 * @workbook/harness/exercises: checking a learner's exercise against its spec, and grading.
 * The notebook API is @workbook/harness (../index.ts); these names serve the exercise notebooks,
 * scripts/check-exercise.js and scripts/exercises.py.
 */

export type { ResponseDiff } from "./answers";
export { checkExercise } from "./graded";
export type { BackgroundPlan } from "./load";
export { printCheck } from "./report";
export type { ExerciseApp, ExerciseAppRef, ExerciseRequest, ExerciseSpec } from "./spec";
export { exerciseApps } from "./spec";
export type { CheckDetails, CheckOptions, CheckResult, CheckStage } from "./types";
