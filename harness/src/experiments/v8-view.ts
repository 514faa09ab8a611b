import { reportOf, runChild } from "./script";

/**
 * What V8 itself says about a script's objects and functions: a script run with natives syntax
 * (%HasFastProperties, %GetOptimizationStatus, %GetFeedback...) that prints one JSON line starting
 * {"v8view": ...}, and the --trace-deopt lines V8 prints while it runs.
 */

/** One --trace-deopt line: a function thrown out of optimised code, and why. */
export interface Deopt {
  /** The function's name, "(anonymous)" for a nameless one. */
  fn: string;
  /** "deopt-eager", "deopt-lazy"... */
  kind: string;
  /** V8's reason, e.g. "wrong map" (an object of a shape the optimised code was not built for). */
  reason: string;
  /** The optimised code thrown away: "TURBOFAN_JS", "MAGLEV". */
  code: string;
  /** The line as V8 printed it. */
  line: string;
}

export interface V8View<T> {
  file: string;
  nodeArgs: string[];
  pinned: string;
  /** The script's JSON line. */
  report: T;
  deopts: Deopt[];
}

/** The objects and read sites of apps/micro/shapes-v8.js, as V8 saw them. */
export interface ShapesReport {
  v8view: "shapes";
  v8: string;
  objects: { builtBy: string; fastProperties: boolean; sameShapeAsLiteral: boolean }[];
  sites: {
    site: string;
    shapes: number;
    /** The first property read's inline-cache state: MONOMORPHIC, POLYMORPHIC, MEGAMORPHIC. */
    inlineCache: string;
    /** Which tier runs the function: "TurboFan (optimised)", "Ignition (interpreted)"... */
    tier: string;
    /** The same after an object of a new shape reached it, or null. */
    after: { inlineCache: string; tier: string } | null;
  }[];
}

const BAILOUT =
  /^\[bailout \(kind: ([^,]+), reason: (.*?)\): begin\. deoptimizing [^<]*<JSFunction ?([^ (>][^ >]*)?[^>]*>, [^<]*<Code ([A-Z_]+)>/;

/** The --trace-deopt lines of a run's output. */
export function deoptLines(stdout: string): Deopt[] {
  return stdout.split("\n").flatMap((line) => {
    const m = BAILOUT.exec(line);
    return m ? [{ fn: m[3] || "(anonymous)", kind: m[1], reason: m[2], code: m[4], line }] : [];
  });
}

export interface V8ViewOptions {
  /** Runtime flags. Default ["--allow-natives-syntax", "--trace-deopt"]. */
  nodeArgs?: string[];
  /** Default 60,000 ms. */
  timeoutMs?: number;
  /** Run on the apps' CPU (core/pinning.ts). Default true. */
  pin?: boolean;
}

/**
 * Run a natives-syntax script of apps/ (e.g. "micro/shapes-v8.js") and return its report (its last
 * `{"v8view": ...}` line) and the deopts V8 traced (each `--trace-deopt` bailout: function, kind,
 * reason such as "wrong map", the optimised code thrown away, line). `nodeArgs` default
 * `["--allow-natives-syntax", "--trace-deopt"]`, `timeoutMs` 60000, `pin` true. Fails like `microbench`.
 *
 * @example
 * const v8 = await lesson.v8View<wb.ShapesReport>("micro/shapes-v8.js");
 * const wrongMap = v8.deopts.filter((d) => d.reason === "wrong map");
 */
export async function v8View<T = Record<string, unknown>>(file: string, opts: V8ViewOptions = {}): Promise<V8View<T>> {
  const who = `v8View(${file})`;
  const run = await runChild(file, {
    who,
    nodeArgs: opts.nodeArgs ?? ["--allow-natives-syntax", "--trace-deopt"],
    timeoutMs: opts.timeoutMs ?? 60_000,
    pin: opts.pin,
  });
  const report = reportOf(run, "v8view", who) as T;
  return { file: run.file, nodeArgs: run.nodeArgs, pinned: run.pinned, report, deopts: deoptLines(run.stdout) };
}
