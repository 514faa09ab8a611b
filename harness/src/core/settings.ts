import { badOption } from "./errors";

/**
 * The profile switch. WORKBOOK_PROFILE=quick gives CI short loads and fewer repeats;
 * `full` (the default) gives learners steadier numbers. Notebooks read durations from here.
 */
export interface Settings {
  name: "quick" | "full";
  /** Seconds of discarded load before the measured runs. */
  warmupSeconds: number;
  /** Seconds of each measured run. */
  durationSeconds: number;
  /** Measured runs per load test (the median and the spread are taken across them). */
  repeats: number;
  /** Seconds of load for a profiler run (clinic, --cpu-prof). */
  profileSeconds: number;
  /**
   * A comparison of servers (interleavedLoads): rounds on warm servers, each server loaded once per
   * round for `roundSeconds`, in turns. Many short rounds rather than a few long ones: the machine's
   * drift over seconds lands on both servers of a round alike (harness/METHOD.md, "Interleaved rounds and paired ratios").
   */
  rounds: number;
  roundSeconds: number;
}

const PROFILES: Record<Settings["name"], Settings> = {
  quick: {
    name: "quick",
    warmupSeconds: 1,
    durationSeconds: 1,
    repeats: 3,
    profileSeconds: 2,
    rounds: 3,
    roundSeconds: 1,
  },
  full: {
    name: "full",
    warmupSeconds: 2,
    durationSeconds: 5,
    repeats: 5,
    profileSeconds: 6,
    rounds: 20,
    roundSeconds: 1,
  },
};

/**
 * The active profile, read from `WORKBOOK_PROFILE` on every call: `quick` or `full`, any case; unset
 * or empty means `full`. Returns a fresh object. Any other value throws a plain `Error` naming it.
 *
 * | profile | warmupSeconds | durationSeconds | repeats | profileSeconds | rounds | roundSeconds |
 * |---|---|---|---|---|---|---|
 * | quick | 1 | 1 | 3 | 2 | 3 | 1 |
 * | full | 2 | 5 | 5 | 6 | 20 | 1 |
 *
 * `warmupSeconds` is the discarded load before the measured runs, `durationSeconds` each measured
 * run, `repeats` the measured runs per load, `profileSeconds` the load under a profiler (`cpuProfile`,
 * `heapProfile`, clinic), `rounds` and `roundSeconds` the rounds of a comparison (`interleavedLoads`,
 * the exercise checks). `diagnose` (warm-up 1 / 2 s, watched 4 / 8 s, profiled 3 / 5 s) and
 * `microbench` (150 / 1000 ms per task, 50 / 250 ms of warm-up) keep their own durations by profile.
 *
 * @example
 * const settings = wb.settings();
 * const RUNS = { seconds: Math.max(1.5, settings.durationSeconds), rounds: settings.repeats };
 */
export function settings(): Settings {
  const raw = (process.env.WORKBOOK_PROFILE || "full").toLowerCase();
  if (raw !== "quick" && raw !== "full") {
    throw badOption(
      "settings",
      `WORKBOOK_PROFILE must be "quick" or "full", got ${JSON.stringify(process.env.WORKBOOK_PROFILE)}`,
    );
  }
  return { ...PROFILES[raw] };
}

/**
 * The load generator is saturated, and a result's req/s is its limit rather than the server's, when
 * its main thread used at least this share of one core over the steady seconds of a run (in runs of
 * 3 s or more the first second, with its connections and JIT warm-up, is left out; a shorter run,
 * such as the quick profile's 1-s runs, counts all of it).
 * Measured on the 2-core CI machine with the generator and the server each pinned to a core
 * (scratch runs of node:http, fastify, express, koa, restify etag at 1-100 connections, 5 steady
 * seconds each): where the generator set the pace (the server below 96 % of its core) its main
 * thread read 91-97 % in every second; where the server set it (server at 96-101 %) the generator
 * read 40-87 %, one second of koa at 95 %. 90 sits between the two.
 */
export const SATURATION_CPU_PERCENT = 90;
