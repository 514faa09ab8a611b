import fs from "node:fs";
import { badOption } from "./errors";

/**
 * Where the platform readings come from: the CPU time, memory and threads of the servers and of the
 * load generator, the process trees of servers that fork, the CPU quota, and the pinning. Decided once
 * per process, from WORKBOOK_READINGS:
 *   - unset or "auto" (the default): "proc" on Linux (it has /proc), "portable" elsewhere (macOS);
 *   - "proc": /proc and the cgroup files (Linux only: an error elsewhere);
 *   - "portable": what a platform without /proc has, forced (on Linux, to test that path): a Node
 *     app's own counters through its probe, `ps` for any other process and for process trees, wrk's CPU
 *     from the shell's `times`, no cgroup quota, and no pinning (there is no taskset either);
 *   - "none": no platform reading at all: every such figure is null, and says why. For testing
 *     that the notebooks survive a platform that gives nothing.
 * Nothing here reads a figure: apps/usage.ts is the one module that does (the seam).
 */
export type ReadingsMode = "proc" | "portable" | "none";

export interface Readings {
  mode: ReadingsMode;
  /** Why this mode: "Linux, /proc" or "WORKBOOK_READINGS=portable". */
  why: string;
  /** Where each reading comes from, one phrase: printed in the fingerprint. */
  source: string;
  /** The figures this platform cannot give, each with the reason: said once, under the fingerprint. */
  notMeasured: string[];
}

const MODES = ["auto", "proc", "portable", "none"];

/** The readings for an environment and a platform (tests give their own; `readings()` decides for this process). */
export function decideReadings(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  hasProc: boolean = fs.existsSync("/proc/self/stat"),
): Readings {
  const raw = (env.WORKBOOK_READINGS || "auto").toLowerCase();
  if (!MODES.includes(raw))
    throw badOption(
      "readings",
      `WORKBOOK_READINGS must be one of ${MODES.join(", ")}, got ${JSON.stringify(env.WORKBOOK_READINGS)}`,
    );
  if (raw === "proc" && !hasProc)
    throw badOption("readings", `WORKBOOK_READINGS=proc needs /proc, which ${platform} does not have: unset it`);
  const forced = raw !== "auto";
  const auto: ReadingsMode = platform === "linux" && hasProc ? "proc" : "portable";
  const mode = forced ? (raw as ReadingsMode) : auto;
  const why = forced ? `WORKBOOK_READINGS=${raw}` : autoWhy(auto, platform);
  return { mode, why, ...sources(mode, why) };
}

function autoWhy(mode: ReadingsMode, platform: NodeJS.Platform): string {
  return mode === "proc" ? "Linux, /proc" : `${platform}: no /proc`;
}

function sources(mode: ReadingsMode, why: string): Pick<Readings, "source" | "notMeasured"> {
  if (mode === "proc")
    return {
      source: "/proc (servers and wrk: CPU time, memory, threads, workers); cgroups (CPU limits)",
      notMeasured: [],
    };
  if (mode === "portable")
    return {
      source:
        "a Node app's own counters through its probe (CPU time, memory); ps (threads, workers, other runtimes); " +
        "the shell's `times` (wrk's CPU); this process's own counters (autocannon's CPU)",
      notMeasured: [
        `the CPU quota (cgroups are Linux's: ${why})`,
        `wrk's CPU second by second (its CPU is measured for each whole run: ${why})`,
      ],
    };
  return {
    source: `none (${why})`,
    notMeasured: [
      `the servers' CPU time, memory and threads (${why})`,
      `the load generator's CPU, so whether it was saturated (${why})`,
      `the CPU quota (${why})`,
    ],
  };
}

let decided: Readings | null = null;

/** The readings in force for this process (decided once, like the pinning). */
export function readings(): Readings {
  decided ??= decideReadings();
  return { ...decided, notMeasured: [...decided.notMeasured] };
}

/** "not measured on this platform (why)": how every null reading is printed. */
export function notMeasured(why: string = readings().why): string {
  return `not measured on this platform (${why})`;
}
