import fs from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { startApp, AppHandle } from "./apps";
import { runLoad, LoadResult } from "./load";
import { settings } from "./settings";
import { median, round } from "./stats";
import { startFailure } from "./exercise-report";
import { loadSpec, appRef, compareResponses, ExerciseSpec, ResponseDiff } from "./exercise-spec";

export * from "./exercise-spec";
export { printCheck } from "./exercise-report";

/**
 * The check of an exercise: start the starting point and the learner's app, compare their
 * answers, then measure both in the same run (alternating, medians) and compare the ratio with
 * the spec's threshold. Every failure is a result with a message, never a hang or a throw.
 */
export interface CheckOptions {
  /** The folder holding the learner's app/ (relative to the working directory). Default: the exercise folder. */
  submissionDir?: string;
  /** The folder holding check.json and start/. Default: exercises/<name>. */
  exerciseDir?: string;
  /** Measured rounds per app, seconds per round, seconds of warm-up. Default: settings(). */
  rounds?: number;
  duration?: number;
  warmup?: number;
  /** Run both apps on the same CPU (Linux with taskset): the same neighbours for both. Default true. */
  pin?: boolean;
}

export type CheckStage = "spec" | "start" | "responses" | "load" | "ratio";

export interface CheckResult {
  exercise: string;
  pass: boolean;
  /** How many times better than the starting point (null when it was not measured). */
  ratio: number | null;
  message: string;
  hints: string[];
  details: {
    stage: CheckStage; metric: string; threshold: number; baseline: number[]; submission: number[];
    responses: ResponseDiff[]; stderr: string; generatorSaturated: boolean; seconds: number;
  };
}

/** taskset onto the last CPU this process may use, on Linux with 2+ of them and taskset installed; else nothing. */
function pinning(): string[] {
  let allowed: string | undefined;
  try {
    allowed = fs.readFileSync("/proc/self/status", "utf8").match(/^Cpus_allowed_list:\s*(\S+)/m)?.[1];
  } catch { return []; }
  const cpu = allowed?.match(/(\d+)$/)?.[1];
  if (!allowed || !cpu || allowed === cpu || spawnSync("taskset", ["-V"]).status !== 0) return [];
  return ["taskset", "-c", cpu];
}

/** Check a learner's app against an exercise's spec (a name, a check.json path, or a spec object). */
export async function checkExercise(ref: string | ExerciseSpec, opts: CheckOptions = {}): Promise<CheckResult> {
  const t0 = Date.now();
  const s = settings();
  const plan = { rounds: opts.rounds ?? s.repeats, duration: opts.duration ?? s.durationSeconds, warmup: opts.warmup ?? s.warmupSeconds };
  const details: CheckResult["details"] = { stage: "spec", metric: "reqPerSec", threshold: 0, baseline: [], submission: [], responses: [], stderr: "", generatorSaturated: false, seconds: 0 };
  let exercise = typeof ref === "string" ? ref : ref.exercise;
  const done = (stage: CheckStage, pass: boolean, ratio: number | null, message: string, hints: string[] = []): CheckResult =>
    ({ exercise, pass, ratio, message, hints, details: { ...details, stage, seconds: round((Date.now() - t0) / 1000, 1) } });
  let spec: ExerciseSpec;
  try {
    spec = loadSpec(ref, opts.exerciseDir && path.resolve(opts.exerciseDir));
  } catch (err) {
    return done("spec", false, null, (err as Error).message);
  }
  exercise = spec.exercise;
  Object.assign(details, { metric: spec.metric ?? "reqPerSec", threshold: spec.threshold });
  const started: AppHandle[] = [];
  let finished = false;
  const keep = (app: AppHandle) => { started.push(app); if (finished) void app.stop(); return app; };
  const startMs = spec.startTimeoutMs ?? 10_000;
  const base = spec.baselineName ?? "the starting point";
  const Base = base[0].toUpperCase() + base.slice(1);
  const start = { startTimeoutMs: startMs, wrap: opts.pin === false ? [] : pinning() };

  async function run(): Promise<CheckResult> {
    const dir = path.resolve(opts.submissionDir ?? spec.dir!);
    const entry = path.join(dir, spec.app.entry);
    if (!fs.existsSync(entry)) return done("start", false, null, `There is no ${spec.app.entry} in ${dir}.`, ["Run the check from the exercise's folder, or pass { submissionDir }."]);
    let baseline: AppHandle;
    let mine: AppHandle;
    try {
      baseline = keep(await startApp(appRef(spec.baseline, spec, "starting point"), start));
    } catch (err) {
      return done("start", false, null, `${Base} itself did not start (is the exercise folder intact?): ${(err as Error).message}`);
    }
    try {
      mine = keep(await startApp({ entry, name: "your app", probe: spec.app.probe ?? null }, start));
    } catch (err) {
      const f = startFailure(err as Error, dir);
      details.stderr = f.stderr;
      return done("start", false, null, f.message, [...f.hints, ...(spec.hints?.start ?? [])]);
    }
    const reference = spec.reference ? keep(await startApp(appRef(spec.reference, spec, "reference"), start)) : baseline;
    details.responses = await compareResponses(reference.url, mine.url, spec.requests, spec.compare);
    const bad = details.responses.filter((r) => !r.ok);
    if (bad.length) {
      details.stderr = mine.stderr();
      return done("responses", false, null, `${bad.length} of ${details.responses.length} answers differ from ${spec.reference ? "the reference" : base}'s; ` +
        `first ${bad[0].request}: ${bad[0].problem}.`, [...(spec.hints?.responses ?? []), "A faster app must give the same answers: the check compares them before it measures."]);
    }
    if (reference !== baseline) await reference.stop();
    const higher = (spec.metric ?? "reqPerSec") === "reqPerSec";
    // Both apps warmed up first, then measured in turns (the order swaps every round): drift on a
    // shared machine falls on both alike.
    const steps: [string, AppHandle, number][] = plan.warmup > 0 ? [["start", baseline, 0], ["yours", mine, 0]] : [];
    for (let i = 0; i < plan.rounds; i++) steps.push(...(i % 2 ? [["yours", mine, 1], ["start", baseline, 1]] : [["start", baseline, 1], ["yours", mine, 1]]) as [string, AppHandle, number][]);
    for (const [who, app, measured] of steps) {
      const common = { target: app, warmup: 0, duration: measured ? plan.duration : plan.warmup, repeats: 1, live: false };
      let r: LoadResult;
      try {
        const bg = spec.background && runLoad({ ...common, path: spec.background.path, rate: spec.background.rate, connections: spec.background.connections ?? 1, timeout: 30, label: `${who} ${spec.background.path}` });
        [r] = await Promise.all([runLoad({ ...common, ...spec.load, connections: spec.load.connections ?? 50, label: `${who} ${spec.load.path ?? "/"}` }), bg]);
      } catch (err) {
        details.stderr = app.stderr();
        const msg = (err as Error).message.split("\n--- stderr")[0];
        return done("load", false, null, who === "yours" ? `Your app failed under load: ${msg}` : `${Base} failed under load: ${msg}`,
          who === "yours" ? ["Every request under load must succeed: no errors, no timeouts, no unexpected status."] : []);
      }
      if (!measured) continue;
      (who === "yours" ? details.submission : details.baseline).push(higher ? r.reqPerSec.median : r.latencyMs[spec.metric as "p50" | "p99"]);
      details.generatorSaturated ||= r.generator.saturated;
    }
    // Conservative on a noisy machine: the ratio of the medians and the median of the per-round
    // ratios must both reach the threshold; the smaller is reported.
    const [b, m] = [median(details.baseline), median(details.submission)];
    const better = (base: number, mine: number) => (higher ? mine / base : base / mine);
    const rounds = details.baseline.map((x, i) => better(x, details.submission[i]));
    const ratio = round(Math.min(better(b, m), median(rounds)), 2);
    const pass = ratio >= spec.threshold;
    const what = higher ? `served ${Math.round(m)} req/s against ${base}'s ${Math.round(b)}` : `had a ${spec.metric} latency of ${round(m, 2)} ms against ${base}'s ${round(b, 2)} ms`;
    const note = details.generatorSaturated ? " (the load generator was saturated: the real ratio is higher)" : "";
    return done("ratio", pass, ratio, `Your app ${what} (medians of ${plan.rounds} rounds, same run; ` +
      `round by round ${rounds.map((r) => `${round(r, 2)}x`).join(", ")}): ${ratio}x${note}; ` +
      `the exercise asks for at least ${spec.threshold}x. All ${details.responses.length} answers match.`, pass ? [] : spec.hints?.slow ?? []);
  }

  const limitMs = 3 * startMs + 30_000 + plan.rounds * 2 * (plan.duration + 15) * 1000 + 2 * plan.warmup * 1000;
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve(done("load", false, null, `The check did not finish within ${Math.round(limitMs / 1000)} s and was stopped.`)), limitMs);
  });
  try {
    return await Promise.race([run().catch((err) => done("load", false, null, `The check failed: ${(err as Error).message}`)), watchdog]);
  } finally {
    finished = true;
    clearTimeout(timer);
    await Promise.allSettled(started.map((app) => app.stop({ timeoutMs: 3000 })));
  }
}
