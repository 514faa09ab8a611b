import fs from "node:fs";
import path from "node:path";
import { type AppHandle, startApp } from "../apps/start";
import { roundOrder } from "../core/order";
import { fromWorkbook } from "../core/paths";
import { settings } from "../core/settings";
import { median, pairedRatios, round } from "../core/stats";
import { compareResponses } from "./answers";
import { backgroundPlan, exerciseRun, GROWTH_FLOOR_MB } from "./load";
import { crashFailure, firstRequest, ratioMessage, startFailure } from "./report";
import { appRef, type ExerciseSpec, loadSpec } from "./spec";
import type { CheckDetails, CheckOptions, CheckResult, CheckStage, Failure } from "./types";

/**
 * How many times better the learner's app did, from each app's figure per round: the smaller of the
 * ratio of the medians and the median of the per-round ratios (conservative on a noisy machine).
 * `higher`: a bigger figure is better (req/s); else a smaller one is (latency, CPU per request).
 */
export function checkRatio(
  baseline: readonly number[],
  submission: readonly number[],
  higher: boolean,
): { ratio: number; rounds: number[] } {
  const [a, b] = higher ? [submission, baseline] : [baseline, submission];
  const rounds = pairedRatios(a, b)?.runs ?? [];
  return { ratio: round(Math.min(median(a) / median(b), median(rounds)), 2), rounds };
}

/** The details of a check that measured nothing yet. */
function emptyDetails(): CheckDetails {
  return {
    stage: "spec",
    metric: "reqPerSec",
    threshold: 0,
    baseline: [],
    submission: [],
    baselineCpuUs: [],
    submissionCpuUs: [],
    decidedOn: "reqPerSec",
    background: null,
    responses: [],
    stderr: "",
    generatorSaturated: false,
    seconds: 0,
  };
}

/** A check that could not run at all (its spec is broken, its process did not start or ran out of time). */
export function failedCheck(exercise: string, message: string, seconds: number): CheckResult {
  return {
    exercise,
    pass: false,
    ratio: null,
    message,
    hints: [],
    details: { ...emptyDetails(), stage: "spec", seconds: round(seconds, 1) },
  };
}

/**
 * The most a check may take, in ms, before its watchdog stops it: three starts, the answers, the
 * learner's first request (5 s at most), with a busyShare the timing of the background route on the
 * baseline (6 requests; 30 s is far more than they take), and every round of both apps with 15 s of
 * slack each, plus the warm-ups.
 */
export function checkLimitMs(spec: ExerciseSpec, plan: { rounds: number; duration: number; warmup: number }): number {
  const startMs = spec.startTimeoutMs ?? 10_000;
  return (
    3 * startMs +
    30_000 +
    5_000 +
    (spec.background?.busyShare !== undefined ? 30_000 : 0) +
    plan.rounds * 2 * (plan.duration + 15) * 1000 +
    2 * plan.warmup * 1000
  );
}

/**
 * The check of an exercise, in this process: what `scripts/check-exercise.js` runs (`make grade`, and
 * an exercise notebook's check cell through checkExercise, each in a process of its own), and what
 * tests run on spec objects. Start the starting point and the learner's app, compare their
 * answers, then measure both in the same run (taking turns, medians) and compare the ratio with
 * the spec's threshold. For a req/s check whose load generator was saturated, the ratio is taken
 * on the server's CPU time per request instead (req/s was the generator's limit). Every failure is
 * a result with a message, never a hang or a throw.
 *
 * Steps: read the spec; start the starting point (the spec's `baseline`) and the learner's app
 * (bounded by `startTimeoutMs`, default 10000), asking the learner's first request (`app.probe`)
 * itself, so that a crash on it is told apart from a 500; ask both the spec's `requests` and compare
 * the answers (the reference app's, when the spec names one), failing fast on the first difference;
 * time the background on the starting point when the spec gives a `busyShare` (`backgroundPlan`);
 * load both in the same run (`exerciseRun`): one warm-up each (unless `warmup` is 0; for heapGrowth
 * the measured load itself, which fills what the app keeps), then `rounds` runs each, taking turns
 * and swapping the order every round. The ratio is "times better than the starting point" (req/s:
 * yours over theirs; latency and heap growth: theirs over yours), the smaller of the ratio of the
 * medians and the median of the per-round ratios, to two decimals. A heap growth below 0.25 MB
 * counts as 0.25 MB, and `maxGrowthMB` bounds the learner's. Messages call the baseline
 * "the starting point" unless the spec's `baselineName` says otherwise.
 *
 * `ref`: an exercise name ("04-hot-path" is `exercises/04-hot-path/check.json`), a path to a
 * `check.json` or its folder, or a spec. `submissionDir`: the folder holding the learner's `app/`
 * ("." in a notebook; default the exercise folder). `rounds`, `duration`, `warmup` default to
 * `settings()`; `pin` default true. `details.stage` says where it stopped: `spec` (the spec is
 * broken), `start` (missing, a syntax error, a crash at start or on the first request, never listens,
 * answers >= 400 to it), `responses` (answers differently, or crashes answering), `load` (errors,
 * times out or dies under load, or the check ran out of time), `ratio` (measured, pass or fail).
 * From a terminal: `node_modules/node/bin/node scripts/check-exercise.js 04-hot-path --submission-dir
 * solutions/04-hot-path` (exit 0 on pass, 1 on fail).
 *
 * @example
 * const internal = require("@workbook/harness/internal");
 * const result = await internal.checkInProcess("04-hot-path", { submissionDir: "solutions/04-hot-path" });
 */
export async function checkInProcess(ref: string | ExerciseSpec, opts: CheckOptions = {}): Promise<CheckResult> {
  const t0 = Date.now();
  const details: CheckDetails = emptyDetails();
  let exercise = typeof ref === "string" ? ref : ref.exercise;
  const done = (
    stage: CheckStage,
    pass: boolean,
    ratio: number | null,
    message: string,
    hints: string[] = [],
  ): CheckResult => ({
    exercise,
    pass,
    ratio,
    message,
    hints,
    details: { ...details, stage, seconds: round((Date.now() - t0) / 1000, 1) },
  });
  let spec: ExerciseSpec;
  let plan: { rounds: number; duration: number; warmup: number };
  try {
    const s = settings();
    // The comparisons' design (settings().rounds of roundSeconds, the apps taking turns), for every metric.
    plan = {
      rounds: opts.rounds ?? s.rounds,
      duration: opts.duration ?? s.roundSeconds,
      warmup: opts.warmup ?? s.warmupSeconds,
    };
    spec = loadSpec(ref, opts.exerciseDir && path.resolve(opts.exerciseDir));
  } catch (err) {
    return done("spec", false, null, (err as Error).message);
  }
  exercise = spec.exercise;
  Object.assign(details, {
    metric: spec.metric ?? "reqPerSec",
    decidedOn: spec.metric ?? "reqPerSec",
    threshold: spec.threshold,
  });
  const started: AppHandle[] = [];
  let finished = false;
  const keep = (app: AppHandle) => {
    started.push(app);
    if (finished) void app.stop();
    return app;
  };
  const startMs = spec.startTimeoutMs ?? 10_000;
  const base = spec.baselineName ?? "the starting point";
  const Base = base[0].toUpperCase() + base.slice(1);
  const start = { startTimeoutMs: startMs, pin: opts.pin, env: spec.env };

  async function run(): Promise<CheckResult> {
    const dir = path.resolve(opts.submissionDir ?? spec.dir!);
    const entry = path.join(dir, spec.app.entry);
    // The app's file as the learner types it from the workbook's folder; a copy elsewhere (make grade's)
    // as it lies in the learner's own workbook.
    const typed = fromWorkbook(entry);
    const learner = {
      dir,
      file: path.isAbsolute(typed) ? path.join("exercises", spec.exercise, spec.app.entry) : typed,
    };
    if (!fs.existsSync(entry))
      return done("start", false, null, `There is no ${spec.app.entry} in ${fromWorkbook(dir)}.`, [
        "Run the check from the exercise's folder, or pass { submissionDir }.",
      ]);
    let baseline: AppHandle;
    let mine: AppHandle;
    try {
      baseline = keep(await startApp(appRef(spec.baseline, spec, "starting point"), start));
    } catch (err) {
      return done(
        "start",
        false,
        null,
        `${Base} itself did not start (is the exercise folder intact?): ${(err as Error).message}`,
      );
    }
    const failed = (stage: CheckStage, f: Failure, hints: string[] = []) => {
      details.stderr = f.stderr;
      return done(stage, false, null, f.message, [...f.hints, ...hints]);
    };
    try {
      // Started without a probe: the check asks the first request itself, to tell a crash from a 500.
      mine = keep(await startApp({ entry, name: "your app", probe: null }, { ...start, probe: false }));
    } catch (err) {
      return failed("start", startFailure(err as Error, learner), spec.hints?.start);
    }
    const first = spec.app.probe ? await firstRequest(mine, spec.app.probe, learner) : null;
    if (first) return failed("start", first, spec.hints?.start);
    const reference = spec.reference
      ? keep(await startApp(appRef(spec.reference, spec, "reference"), start))
      : baseline;
    details.responses = await compareResponses(reference.url, mine.url, spec.requests, spec.compare);
    const bad = details.responses.filter((r) => !r.ok);
    const crash = await crashFailure(
      mine,
      `while answering ${bad[0]?.request ?? "the check's requests"}`,
      learner,
      bad.length ? 500 : 0,
    );
    if (crash) return failed("responses", crash);
    if (bad.length) {
      details.stderr = mine.stderr();
      return done(
        "responses",
        false,
        null,
        `${bad.length} of ${details.responses.length} answers differ from ${spec.reference ? "the reference" : base}'s; ` +
          `first ${bad[0].request}: ${bad[0].problem}.`,
        [
          ...(spec.hints?.responses ?? []),
          "A faster app must give the same answers: the check compares them before it measures.",
        ],
      );
    }
    if (reference !== baseline) await reference.stop();
    try {
      details.background = spec.background ? await backgroundPlan(spec, baseline) : null;
    } catch (err) {
      return done(
        "load",
        false,
        null,
        `${Base} failed while the check timed ${spec.background!.path}: ${(err as Error).message}`,
      );
    }
    // Both apps warmed up first, then measured in turns (the order swaps every round): drift on a
    // shared machine falls on both alike.
    const both: ["start" | "yours", AppHandle][] = [
      ["start", baseline],
      ["yours", mine],
    ];
    const steps: ["start" | "yours", AppHandle, boolean][] = plan.warmup > 0 ? both.map(([w, a]) => [w, a, false]) : [];
    for (let i = 0; i < plan.rounds; i++)
      steps.push(
        ...roundOrder(both, i, "alternate").map(([w, a]) => [w, a, true] as ["start" | "yours", AppHandle, boolean]),
      );
    for (const [who, app, measured] of steps) {
      const r = await exerciseRun(
        app,
        spec,
        details.background,
        measured ? plan.duration : plan.warmup,
        who === "yours" ? "your app" : base,
      );
      if (r.failure) {
        details.stderr = app.stderr();
        if (who === "start") return done("load", false, null, `${Base} failed under load: ${r.failure}`);
        return failed(
          "load",
          (await crashFailure(app, "under load", learner)) ?? {
            message: `Your app failed under load: ${r.failure}`,
            stderr: app.stderr(),
            hints: [],
          },
          ["Every request under load must succeed: no errors, no timeouts, no unexpected status."],
        );
      }
      if (!measured) continue;
      (who === "yours" ? details.submission : details.baseline).push(r.value);
      if (r.cpuPerRequestUs !== null)
        (who === "yours" ? details.submissionCpuUs : details.baselineCpuUs).push(r.cpuPerRequestUs);
      details.generatorSaturated ||= r.generatorSaturated;
    }
    const higher = details.metric === "reqPerSec";
    const cpuKnown = details.baselineCpuUs.length === plan.rounds && details.submissionCpuUs.length === plan.rounds;
    const onCpu = higher && details.generatorSaturated && cpuKnown;
    if (onCpu) details.decidedOn = "cpuPerRequest";
    // Heap growth below the resolution of a reading after a full collection counts as that floor, so
    // that a ratio of two near-zero growths (or a negative one) means nothing it cannot.
    const floored = (xs: number[]) =>
      details.metric === "heapGrowth" ? xs.map((x) => Math.max(GROWTH_FLOOR_MB, x)) : xs;
    const { ratio, rounds } = onCpu
      ? checkRatio(details.baselineCpuUs, details.submissionCpuUs, false)
      : checkRatio(floored(details.baseline), floored(details.submission), higher);
    const bounded = spec.maxGrowthMB === undefined || median(details.submission) <= spec.maxGrowthMB;
    const pass = ratio >= spec.threshold && bounded;
    return done(
      "ratio",
      pass,
      ratio,
      ratioMessage(spec, base, details, rounds, ratio),
      pass ? [] : (spec.hints?.slow ?? []),
    );
  }

  const limitMs = checkLimitMs(spec, plan);
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(
      () =>
        resolve(
          done("load", false, null, `The check did not finish within ${Math.round(limitMs / 1000)} s and was stopped.`),
        ),
      limitMs,
    );
  });
  try {
    return await Promise.race([
      run().catch((err) => done("load", false, null, `The check failed: ${(err as Error).message}`)),
      watchdog,
    ]);
  } finally {
    finished = true;
    clearTimeout(timer);
    await Promise.allSettled(started.map((app) => app.stop({ timeoutMs: 3000 })));
  }
}
