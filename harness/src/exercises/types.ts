import type { ResponseDiff } from "./answers";
import type { BackgroundPlan } from "./load";

/** What an exercise check takes and returns (check.ts), and what report.ts words. */

export interface CheckOptions {
  /** The folder holding the learner's app/ (relative to the working directory). Default: the exercise folder. */
  submissionDir?: string;
  /** The folder holding check.json and start/. Default: exercises/<name>. */
  exerciseDir?: string;
  /** Measured rounds per app, seconds per round, seconds of warm-up. Default: settings(). */
  rounds?: number;
  duration?: number;
  warmup?: number;
  /** Run the apps on their own core, the load generator on another (see pinning()). Default true. */
  pin?: boolean;
}

export type CheckStage = "spec" | "start" | "responses" | "load" | "ratio";

export interface CheckDetails {
  stage: CheckStage;
  metric: string;
  threshold: number;
  /** The measured figure of each round, for the baseline and for the learner's app (req/s, or latency in ms). */
  baseline: number[];
  submission: number[];
  /** Server CPU time per request of each round (reqPerSec checks; empty when it could not be read). */
  baselineCpuUs: number[];
  submissionCpuUs: number[];
  /** What the ratio was taken on: "reqPerSec", "cpuPerRequest" (when the load generator was saturated), or the latency metric. */
  decidedOn: string;
  /** The background load as run: its rate, and the cost of one request timed on the baseline (busyShare specs). */
  background: BackgroundPlan | null;
  responses: ResponseDiff[];
  stderr: string;
  generatorSaturated: boolean;
  seconds: number;
}

export interface CheckResult {
  exercise: string;
  pass: boolean;
  /** How many times better than the starting point (null when it was not measured). */
  ratio: number | null;
  message: string;
  hints: string[];
  details: CheckDetails;
  /** The command line that runs the same check from a terminal, from the workbook's folder (checkExercise's results). */
  command?: string;
}

/** A check that stopped before measuring: what to tell the learner. */
export interface Failure {
  message: string;
  stderr: string;
  hints: string[];
}
