import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "./paths";

/**
 * An exercise's check spec (exercises/<name>/check.json, generated from solutions/<name>/):
 * which app the learner edits, what it is measured against, which answers must not change,
 * and the ratio to reach. Written for exercises 01-04; see solutions/README.md.
 */
export interface ExerciseRequest {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** What must be identical: "status", "body", "json-shape" (keys, types, string lengths) or a header name. Default: the spec's `compare`. */
  compare?: string[];
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
  /** The measured load (runLoad options; path default "/", connections default 50). Give a `rate` when the metric is a latency. */
  load: { path?: string; connections?: number; rate?: number; method?: "GET" | "POST" | "PUT" | "DELETE" | "HEAD"; headers?: Record<string, string>; body?: string };
  /** Load on another route of the same app while the measured load runs, at a fixed rate (exercise 02). */
  background?: { path: string; rate: number; connections?: number };
  /** reqPerSec: higher is better; p50/p99 latency: lower is better. The ratio is always "times better". Default reqPerSec. */
  metric?: "reqPerSec" | "p50" | "p99";
  /** The ratio the learner's app must reach against the baseline, e.g. 1.5. */
  threshold: number;
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
    const byName = /^[\w.-]+$/.test(ref) && !ref.endsWith(".json") ? path.join(exerciseDir ?? path.join(repoRoot, "exercises", ref), "check.json") : null;
    const file = byName ?? (fs.existsSync(ref) && fs.statSync(ref).isDirectory() ? path.join(ref, "check.json") : path.resolve(ref));
    if (!fs.existsSync(file)) throw new Error(`no check spec at ${file}`);
    spec = { ...JSON.parse(fs.readFileSync(file, "utf8")), dir: exerciseDir ?? path.dirname(file) };
  } else {
    spec = { ...ref, dir: exerciseDir ?? ref.dir ?? path.join(repoRoot, "exercises", ref.exercise) };
  }
  const missing = ["exercise", "app", "baseline", "requests", "load", "threshold"].filter((k) => (spec as unknown as Record<string, unknown>)[k] === undefined);
  if (missing.length) throw new Error(`check spec of ${spec.exercise ?? "an exercise"} lacks ${missing.join(", ")}`);
  if (!(spec.threshold > 0)) throw new Error(`check spec of ${spec.exercise}: threshold must be a positive ratio`);
  return spec;
}

export type ExerciseAppRef = string | { entry: string; name: string; probe: string | null };

/** What startApp takes for one app of the spec (an entry's probe defaults to the learner app's). */
export function appRef(app: ExerciseApp, spec: ExerciseSpec, name: string): ExerciseAppRef {
  if ("app" in app) return app.app;
  return { entry: path.resolve(spec.dir!, app.entry), name, probe: app.probe ?? spec.app.probe ?? null };
}

/** The starting point and the learner's app of an exercise, ready for startApp/cpuProfile in a notebook. */
export function exerciseApps(ref: string | ExerciseSpec, opts: { submissionDir?: string; exerciseDir?: string } = {}):
  { spec: ExerciseSpec; start: ExerciseAppRef; yours: ExerciseAppRef } {
  const spec = loadSpec(ref, opts.exerciseDir && path.resolve(opts.exerciseDir));
  const yours = { entry: path.resolve(opts.submissionDir ?? spec.dir!, spec.app.entry), name: "your-app", probe: spec.app.probe ?? null };
  return { spec, start: appRef(spec.baseline, spec, "starting-point"), yours };
}

export interface ResponseDiff {
  request: string;
  ok: boolean;
  problem?: string;
}

interface Answer { status: number; headers: Headers; body: string }

async function ask(base: string, r: ExerciseRequest, timeoutMs: number): Promise<Answer | string> {
  try {
    const res = await fetch(base + r.path, { method: r.method ?? "GET", headers: r.headers, body: r.body, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    return { status: res.status, headers: res.headers, body: await res.text() };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return e.name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : `the request failed (${e.cause?.code ?? e.message})`;
  }
}

const show = (s: string | null, at = 0) => (s === null ? "none" : JSON.stringify(s.length > 60 ? `${at > 0 ? "..." : ""}${s.slice(at, at + 60)}...` : s));
const norm = (v: string | null) => (v === null ? null : v.toLowerCase().replace(/\s+/g, ""));

/**
 * The shape of a JSON body, for answers that differ on every request (random data, time stamps):
 * the same keys in the same order, the same types, strings of the same length. Not JSON: "not JSON".
 */
export function jsonShape(body: string): string {
  const shape = (v: unknown): unknown => Array.isArray(v) ? v.map(shape)
    : v !== null && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]))
      : typeof v === "string" ? `string(${v.length})` : v === null ? "null" : typeof v;
  try {
    return JSON.stringify(shape(JSON.parse(body)));
  } catch {
    return "not JSON";
  }
}

/** Ask both apps the same requests, one after the other; say what differs in the learner's answers. */
export async function compareResponses(referenceUrl: string, submissionUrl: string, requests: ExerciseRequest[],
  defaults: string[] = ["status", "content-type", "body"], timeoutMs = 5000): Promise<ResponseDiff[]> {
  const out: ResponseDiff[] = [];
  for (const r of requests) {
    const label = `${r.method ?? "GET"} ${r.path}`;
    const [want, got] = [await ask(referenceUrl, r, timeoutMs), await ask(submissionUrl, r, timeoutMs)];
    if (typeof want === "string") throw new Error(`the reference app gave no answer to ${label}: ${want}`);
    let problem: string | undefined;
    if (typeof got === "string") problem = got;
    else {
      for (const field of r.compare ?? defaults) {
        if (field === "status" && got.status !== want.status) problem = `status ${got.status}, expected ${want.status} (body ${show(got.body)})`;
        else if (field === "body" && got.body !== want.body) {
          let at = 0;
          while (got.body[at] === want.body[at]) at++;
          problem = `body differs at character ${at}: ${show(got.body, Math.max(0, at - 20))}, expected ${show(want.body, Math.max(0, at - 20))}`;
        } else if (field === "json-shape") {
          const [g, w] = [jsonShape(got.body), jsonShape(want.body)];
          if (g !== w) problem = `the JSON's shape ${show(g)}, expected ${show(w)}`;
        } else if (field !== "status" && field !== "body" && norm(got.headers.get(field)) !== norm(want.headers.get(field))) {
          problem = `${field} ${show(got.headers.get(field))}, expected ${show(want.headers.get(field))}`;
        }
        if (problem) break;
      }
    }
    out.push({ request: label, ok: !problem, ...(problem ? { problem } : {}) });
  }
  return out;
}
