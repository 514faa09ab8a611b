import fs from "node:fs";
import path from "node:path";
import { fromWorkbook, repoRoot } from "../core/paths";

/**
 * An exercise's check spec (exercises/<name>/check.json, generated from solutions/<name>/):
 * which app the learner edits, what it is measured against, which answers must not change,
 * and the ratio to reach. See solutions/README.md.
 */
export interface ExerciseRequest {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** What must be identical: "status", "body", "json-shape" (keys, types, string lengths) or a header name. Default: the spec's `compare`. */
  compare?: string[];
  /** JSON keys whose value in the learner's answer must be a string matching this regular expression, e.g. `{ "data": "^[0-9a-f]{10000}$" }`. */
  match?: Record<string, string>;
  /** JSON keys whose value must differ from the learner's previous answer to the same path: made fresh per request, not served from a cache. */
  fresh?: string[];
}

/** An app file (relative to the exercise folder) or a registry name (`{ app: "etag-slow" }`). */
export type ExerciseApp = { entry: string; probe?: string } | { app: string; probe?: string };

export interface ExerciseSpec {
  exercise: string;
  title?: string;
  /** The learner's entry, relative to the submission folder; probe: a path that must answer < 400. */
  app: { entry: string; probe?: string };
  /** The starting point the learner's app is measured against, in the same run. */
  baseline: ExerciseApp;
  /** How messages name the baseline when it is not the learner's starting code (e.g. "the fixed server"). Default "the starting point". */
  baselineName?: string;
  /** Whose answers are right. Default: the baseline (a slow start with planted bugs names the fixed app here). */
  reference?: ExerciseApp;
  requests: ExerciseRequest[];
  /** Default for every request: ["status", "content-type", "body"]. */
  compare?: string[];
  /**
   * The measured load. reqPerSec: runLoad options (path default "/", connections default 50).
   * p50/p99: requests paced at `rate` a second, evenly spaced (pacedLoad: path, method, rate).
   * heapGrowth: `requests` requests paced at `rate` a second, between two readings of the heap after
   * a full garbage collection. Paced loads: `{i}` in the path takes the values 0 to `cycle` - 1 in
   * turn, request after request (a load spread over that many resources).
   */
  load: {
    path?: string;
    cycle?: number;
    connections?: number;
    rate?: number;
    requests?: number;
    method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD";
    headers?: Record<string, string>;
    body?: string;
  };
  /**
   * Load on another route of the same app while the measured load runs, evenly paced (exercise 02):
   * `rate` requests a second, or `busyShare` (0-1): the rate at which this route keeps the baseline
   * busy that share of the time, from the cost of one request timed on the baseline by the check.
   * `{name}` in the path becomes a name never asked before (lowercase letters), on every request.
   */
  background?: { path: string; rate?: number; busyShare?: number };
  /**
   * reqPerSec: higher is better; p50/p99 latency and heapGrowth (MB of heap still alive after the
   * measured requests) lower is better. The ratio is always "times better". Default reqPerSec.
   */
  metric?: "reqPerSec" | "p50" | "p99" | "heapGrowth";
  /** The ratio the learner's app must reach against the baseline, e.g. 1.5. */
  threshold: number;
  /** heapGrowth only: the learner's app's heap may grow at most this many MB over the measured requests. */
  maxGrowthMB?: number;
  /**
   * Environment variables every app of the check starts with (the learner's, the baseline, the
   * reference), e.g. `{ "QUOTE_MINUTE_MS": "50" }`: a clock the check sets, so that a load of seconds
   * spans many of the app's minutes. Messages name them.
   */
  env?: Record<string, string>;
  /** Default 10000. */
  startTimeoutMs?: number;
  /** Shown on a failure at that stage. */
  hints?: { start?: string[]; responses?: string[]; slow?: string[] };
  /** The exercise folder (filled in by loadSpec). */
  dir?: string;
}

/** A spec object, an exercise name ("04-hot-path" → exercises/04-hot-path/check.json), or a path to a check.json or its folder. */
export function loadSpec(ref: string | ExerciseSpec, exerciseDir?: string): ExerciseSpec {
  let spec: ExerciseSpec;
  if (typeof ref === "string") {
    const byName =
      /^[\w.-]+$/.test(ref) && !ref.endsWith(".json")
        ? path.join(exerciseDir ?? path.join(repoRoot, "exercises", ref), "check.json")
        : null;
    const file =
      byName ??
      (fs.existsSync(ref) && fs.statSync(ref).isDirectory() ? path.join(ref, "check.json") : path.resolve(ref));
    if (!fs.existsSync(file)) throw new Error(`no check spec at ${fromWorkbook(file)}`);
    spec = { ...JSON.parse(fs.readFileSync(file, "utf8")), dir: exerciseDir ?? path.dirname(file) };
  } else {
    spec = { ...ref, dir: exerciseDir ?? ref.dir ?? path.join(repoRoot, "exercises", ref.exercise) };
  }
  const missing = ["exercise", "app", "baseline", "requests", "load", "threshold"].filter(
    (k) => (spec as unknown as Record<string, unknown>)[k] === undefined,
  );
  if (missing.length) throw new Error(`check spec of ${spec.exercise ?? "an exercise"} lacks ${missing.join(", ")}`);
  const bad = (why: string) => new Error(`check spec of ${spec.exercise}: ${why}`);
  if (!(spec.threshold > 0)) throw bad("threshold must be a positive ratio");
  const metric = spec.metric ?? "reqPerSec";
  if (!["reqPerSec", "p50", "p99", "heapGrowth"].includes(metric))
    throw bad(`metric must be reqPerSec, p50, p99 or heapGrowth, not ${JSON.stringify(metric)}`);
  if (metric === "heapGrowth" && !(spec.load.requests! > 0 && spec.load.rate! > 0))
    throw bad("heapGrowth needs load.requests and load.rate: a fixed number of requests, paced");
  if (metric !== "reqPerSec" && !(spec.load.rate! > 0))
    throw bad(`a latency metric (${metric}) needs load.rate: the measured load is paced at a fixed rate`);
  if (spec.load.path?.includes("{i}") && !(Number.isInteger(spec.load.cycle) && spec.load.cycle! > 0))
    throw bad("{i} in load.path needs load.cycle, a whole number > 0: how many values {i} takes in turn");
  if (spec.env && Object.values(spec.env).some((v) => typeof v !== "string"))
    throw bad("env maps names to strings, as a shell sets them");
  const bg = spec.background;
  if (bg && (bg.rate === undefined) === (bg.busyShare === undefined))
    throw bad("background needs exactly one of rate (requests a second) and busyShare");
  if (bg && bg.rate !== undefined && !(bg.rate > 0)) throw bad("background.rate must be > 0");
  if (bg && bg.busyShare !== undefined && !(bg.busyShare > 0 && bg.busyShare < 1))
    throw bad("background.busyShare must be between 0 and 1 (0.5: busy half of the time)");
  return spec;
}

export type ExerciseAppRef = string | { entry: string; name: string; probe: string | null };

/** What startApp takes for one app of the spec (an entry's probe defaults to the learner app's). */
export function appRef(app: ExerciseApp, spec: ExerciseSpec, name: string): ExerciseAppRef {
  if ("app" in app) return app.app;
  return { entry: path.resolve(spec.dir!, app.entry), name, probe: app.probe ?? spec.app.probe ?? null };
}

/**
 * The spec, the starting point and the learner's app of an exercise, ready for startApp, withApp and
 * cpuProfile in a notebook (options as for checkExercise). Throws a plain Error for a missing or
 * invalid spec (a background with both or neither of `rate` and `busyShare`, a `busyShare` outside
 * 0-1, a latency metric without `load.rate`...).
 *
 * @example
 * const apps = ex.exerciseApps("02-unblock", { submissionDir: "." });
 * const profile = await wb.cpuProfile(apps.start, { load: { path: "/cheap" } });
 */
export function exerciseApps(
  ref: string | ExerciseSpec,
  opts: { submissionDir?: string; exerciseDir?: string } = {},
): { spec: ExerciseSpec; start: ExerciseAppRef; yours: ExerciseAppRef } {
  const spec = loadSpec(ref, opts.exerciseDir && path.resolve(opts.exerciseDir));
  const yours = {
    entry: path.resolve(opts.submissionDir ?? spec.dir!, spec.app.entry),
    name: "your-app",
    probe: spec.app.probe ?? null,
  };
  return { spec, start: appRef(spec.baseline, spec, "starting-point"), yours };
}
