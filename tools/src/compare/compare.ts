import {
  type Advantage,
  type AppRef,
  advantage,
  commandText,
  type GeneratorName,
  type InterleavedRun,
  interleavedLoads,
  type LoadResult,
  pct,
  pinning,
  settings,
  WorkbookError,
} from "@workbook/harness";
import { atCellEnd, combineLoads, loadReport, median, plural } from "@workbook/harness/internal";
import { type Comparison, comparisonReport, type Design, type RoundPair } from "./report";
import { type CompareSide, type ResolvedSide, resolveSide, sameServer } from "./sides";
import { type Pace, sessionsFor, settled } from "./stats";

export interface CompareOptions {
  /** OPTIONAL: the route loaded on both. Default "/". */
  route?: string;
  /** OPTIONAL: the whole comparison's time limit, start to verdict, in seconds. Default 60 (20 in the quick profile). */
  seconds?: number;
  /** OPTIONAL: connections of each side's load. Default 50. */
  connections?: number;
  /** OPTIONAL: "side-by-side" (both loaded at once in every round: the default) or "rounds" (in turns). */
  design?: Design;
  /** OPTIONAL: the order of the turns in the "rounds" design: "alternate" (A B, B A, ...: the default) or "random". */
  order?: "alternate" | "random";
  /** OPTIONAL: the noise floor, a fraction: changes within +-noise are not called slower or faster. Default NOISE_FLOOR. */
  noise?: number;
  /** OPTIONAL: a fraction: the comparison's gate fails when B is slower by more than this (make compare's exit code). */
  failIfSlower?: number | null;
  /** OPTIONAL: allow A and B to be the same server (an A/A run, the noise-floor mode). Default false: that is refused. */
  same?: boolean;
  /** OPTIONAL: stop once the rounds settle the question (stats.ts, `settled`). Default true. */
  stopEarly?: boolean;
  /** OPTIONAL: seconds of warm-up, both sides, before the first round. Default: the profile's warm-up. */
  warmup?: number;
  /** OPTIONAL: the load generator. Default: the measuring one (wrk when installed). */
  generator?: GeneratorName;
  /** OPTIONAL: the command that reproduces this comparison, printed with it. Default: the `make compare` line. */
  command?: string;
  /**
   * OPTIONAL: sessions, each with fresh processes of both servers, warmed up, sharing the time limit
   * equally. Default: one per SESSION_SECONDS (15) seconds of the limit, at least one.
   */
  sessions?: number;
  /** OPTIONAL: called after each round (a progress line in a terminal). */
  onRound?: (progress: { round: number; session: number; seconds: number; ratio: number | null }) => void;
}

/**
 * The noise floor: the standard deviation of the difference between two processes of the same server
 * file, measured side by side on the 2-core development machine by A/A sessions (README, "Is it
 * faster?"). A process's luck (where its heap and code landed, what the JIT decided) stays with it for
 * its life, so no number of rounds with the same two processes narrows it: sessions with fresh
 * processes do (stats.ts).
 */
export const NOISE_FLOOR = 0.02;

/** A's and B's rounds as pairs: the i-th round of each, loaded side by side or in turns close together. */
function pairsOf(a: readonly LoadResult[], b: readonly LoadResult[], session: readonly number[]): RoundPair[] {
  const side = (r: LoadResult) => ({
    reqPerSec: r.reqPerSec.median,
    cpuPerRequestUs: r.cpuPerRequestUs?.median ?? null,
    generatorCpuPercent: r.generator.cpuPercent?.median ?? null,
    serverCpuPercent: r.server?.cpuPercent.median ?? null,
    saturated: r.generator.saturated,
  });
  return a.slice(0, b.length).map((ra, i) => ({ session: session[i] ?? 0, a: side(ra), b: side(b[i]) }));
}

/** The share of the servers' cores both servers used together, side by side, at or above which they are CPU-bound. */
const FULL_CORE = 0.9;

/** How the figure that decides was chosen: advantage()'s rule, or side by side on a full core. */
export type Decision = Advantage & { why: string };

/**
 * Which figure decides. In turns, advantage()'s rule: req/s, unless the generator was saturated. Side
 * by side, the two servers share the server's core(s): when together they kept them busy (the median
 * round at FULL_CORE of them or more, both CPU-bound), each round's req/s ratio moves with how the
 * scheduler split the core, by several % from round to round, while the CPU time each request took
 * does not depend on that split: CPU time per request decides. Where they left the core idle (a
 * server that waits on I/O or timers), req/s does: a slower answer that costs no CPU shows there only.
 */
export function decide(adv: Advantage, pairs: readonly RoundPair[], design: Design): Decision {
  const cores = pinning().serverCpus.length || null; // null: not pinned
  const used = pairs.map((p) => ((p.a.serverCpuPercent ?? NaN) + (p.b.serverCpuPercent ?? NaN)) / 100);
  const busy = median(used);
  if (design !== "side-by-side" || adv.cpuPerRequest === null || cores === null || adv.decidedOn === "cpuPerRequest")
    return { ...adv, why: "" };
  const theirCores = cores === 1 ? "the server's core" : `the server's ${cores} cores`;
  if (!(busy >= FULL_CORE * cores))
    return {
      ...adv,
      why: `together the servers used ${pct(busy / cores)} of ${theirCores}: not CPU-bound, so req/s decides`,
    };
  return {
    ...adv,
    decidedOn: "cpuPerRequest",
    ratio: adv.cpuPerRequest,
    why: `together the servers kept ${theirCores} busy (${pct(busy / cores)}), so CPU time per request decides: each round's req/s ratio moves with how the scheduler split the core`,
  };
}

/** The error of a side that failed, with the side named first; the harness's own code, hint and output kept. */
function sideError(which: string, side: ResolvedSide, run: InterleavedRun): WorkbookError {
  const cause = run.cause as Partial<WorkbookError> | null;
  const bun = /^Bun/.test(side.runtimeTitle) && cause?.code === "WB_APP_SILENT";
  const hint = bun
    ? "on Bun the harness learns a server's port only from the workbook's contract line (apps/lib/contract.js): print it when the server listens, or compare this server on Node"
    : (cause?.hint ?? "run the server by itself (node <file>) and request the route with curl: does it answer 200?");
  return new WorkbookError(
    cause?.code ?? "WB_LOAD",
    `${which} (${side.label}) could not be measured: ${cause?.summary ?? run.error}`,
    { hint, stdout: cause?.stdout, stderr: cause?.stderr },
  );
}

/**
 * Is B faster than A? Both servers started and warmed up, then loaded in rounds of the profile's
 * `roundSeconds` (side by side by default, else in turns), each round giving one ratio of B to A on
 * req/s and on CPU time per request; the median ratio with its 95 % interval decides, against the
 * noise floor. Stops when the rounds settle the question or at the time limit. Stops both servers
 * whatever happens. Throws WB_BAD_OPTION (bad input, or A and B the same server without `same`) or
 * the side's start or load error, its message starting "A (label) could not be measured:" (or B), with
 * the harness's code, hint and the server's last output.
 *
 * `a`, `b`: a server file or registry name, or a CompareSide (`runtime` a name of runtimes() or a path;
 * `label` how prose names it). Resolves to a Comparison (report.ts): `headline` ("B is slower by 6.1 %
 * [4.0-8.2]", "B is faster by ...", "no difference larger than 2.3 % seen"), the `verdict` with its
 * interval and the change it could have detected, both figures' changes, every round (`rounds`), what a
 * run of 15 s to 10 min would detect at this spread (`floor`, `toSee`), `text` (the verdict, then every
 * number it rests on), `markdown` (a pull-request summary) and `exitCode` (1 when the gate failed).
 *
 * @example
 * const c = await tools.compare("../exercises/03-faster-framework/start/server.js",
 *   "../solutions/03-faster-framework/app/server.js", { route: "/json" });
 * wb.markdown(c.text);
 */
export async function compare(
  givenA: CompareSide | AppRef,
  givenB: CompareSide | AppRef,
  opts: CompareOptions = {},
): Promise<Comparison> {
  const s = settings();
  const limit = opts.seconds ?? (s.name === "quick" ? 20 : 60);
  const design: Design = opts.design ?? "side-by-side";
  const noise = opts.noise ?? NOISE_FLOOR;
  const gate = opts.failIfSlower ?? null;
  if (!(limit >= 10)) throw badCompare(`seconds is the time limit and must be at least 10, not ${opts.seconds}`);
  if (!["side-by-side", "rounds"].includes(design))
    throw badCompare(`design must be "side-by-side" or "rounds", not ${JSON.stringify(design)}`);
  if (!(noise >= 0) || (gate !== null && !(gate >= 0)))
    throw badCompare("noise and failIfSlower are fractions of at least 0 (0.05 for 5 %)");
  const a = resolveSide(givenA, "A");
  const b = resolveSide(givenB, "B");
  const same = sameServer(a, b);
  if (same && !opts.same)
    throw new WorkbookError("WB_BAD_OPTION", `A and B are the same server: ${a.label}`, {
      hint: "compare two different files (or runtimes); to measure this machine's noise floor with the same one twice, pass same: true (make compare ... SAME=1)",
    });
  const load = {
    path: opts.route ?? "/",
    connections: opts.connections ?? 50,
    warmup: opts.warmup ?? s.warmupSeconds,
    live: false,
    generator: opts.generator,
  };
  const target = (key: "A" | "B", r: ResolvedSide) => ({
    key,
    app: { entry: r.file, name: key === "A" ? "A" : "B", probe: opts.route ?? "/" },
    start: { runtime: r.runtime, env: r.side.env, cwd: r.side.cwd },
    checks: [],
    load: { ...load, label: `${key}: ${r.label}` },
  });
  const t0 = performance.now();
  const now = () => (performance.now() - t0) / 1000;
  const sessions = Math.max(1, Math.floor(opts.sessions ?? sessionsFor(limit)));
  const rounds: { A: LoadResult[]; B: LoadResult[]; session: number[] } = { A: [], B: [], session: [] };
  const overheads: number[] = [];
  const durations: number[] = [];
  let stoppedBy = `at the time limit, ${limit} s`;
  let stopped = false;
  let decided = null as Decision | null;
  for (let k = 0; k < sessions && !stopped; k++) {
    const begin = now();
    const deadline = (limit * (k + 1)) / sessions;
    const ends: number[] = [];
    const runs = await interleavedLoads([target("A", a), target("B", b)], {
      rounds: Number.MAX_SAFE_INTEGER,
      together: design === "side-by-side",
      order: opts.order ?? "alternate",
      report: false, // the comparison's own report, once, below
      until: (sofar, round) => {
        const t = now();
        ends.push(t);
        if ([...sofar.values()].some((r) => r.error)) return true;
        const ra = [...rounds.A, ...sofar.get("A")!.rounds];
        const rb = [...rounds.B, ...sofar.get("B")!.rounds];
        decided = decide(advantage(rb, ra), pairsOf(ra, rb, []), design);
        opts.onRound?.({ round: ra.length, session: k + 1, seconds: t, ratio: decided.ratio?.median ?? null });
        const luck = { noise, sessions: k + 1 };
        const why = opts.stopEarly === false ? null : settled(decided.ratio?.runs ?? [], luck, gate);
        if (why) {
          stoppedBy = `early: ${why}`;
          stopped = true;
          return true;
        }
        const next = round === 0 ? Math.max(1, t - begin - (opts.warmup ?? s.warmupSeconds)) : t - ends[round - 1];
        return t + next > deadline;
      },
    });
    const [runA, runB] = [runs.get("A")!, runs.get("B")!];
    if (runA.error) throw sideError("A", a, runA);
    if (runB.error) throw sideError("B", b, runB);
    const n = Math.min(runA.rounds.length, runB.rounds.length);
    rounds.A.push(...runA.rounds.slice(0, n));
    rounds.B.push(...runB.rounds.slice(0, n));
    rounds.session.push(...Array.from({ length: n }, () => k + 1));
    durations.push(...ends.slice(1).map((e, i) => e - ends[i]));
    if (ends.length) overheads.push(ends[0] - begin);
  }
  const pairs = pairsOf(rounds.A, rounds.B, rounds.session);
  const adv = decided ?? decide(advantage(rounds.B, rounds.A), pairs, design);
  if (!adv.ratio || adv.ratio.runs.length < 2)
    throw badCompare(`${limit} s left time for ${plural(adv.ratio?.runs.length ?? 0, "round")}: give it at least 10 s`);
  const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
  const secondsPerRound = durations.length ? mean(durations) : mean(overheads);
  const pace: Pace = { secondsPerRound, sessionOverheadSeconds: Math.max(0, mean(overheads) - secondsPerRound) };
  const [runA, runB] = [combineLoads(rounds.A), combineLoads(rounds.B)];
  // In a notebook, under the cell: in turns, each side's pace and commands, as under any load. Side by
  // side the two servers share the core, so each side's own CPU reads a share of it and a pace sentence
  // would call the core idle: the verdict's text says what the core did; the commands follow it.
  atCellEnd(design === "rounds" ? loadReport([runA, runB]) : commandText(runA, runB));
  return comparisonReport({
    a,
    b,
    runA,
    runB,
    pairs,
    sessions: new Set(rounds.session).size,
    advantage: adv,
    design,
    order: design === "rounds" ? (opts.order ?? "alternate") : null,
    noise,
    gate,
    same,
    stoppedBy,
    seconds: (performance.now() - t0) / 1000,
    limit,
    pace,
    route: load.path,
    connections: load.connections,
    command: opts.command,
  });
}

function badCompare(why: string): WorkbookError {
  return new WorkbookError("WB_BAD_OPTION", `compare: ${why}`);
}
