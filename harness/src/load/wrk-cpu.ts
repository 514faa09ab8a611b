import { clockTickMs, procUsage } from "../apps/usage-proc";
import { type ReadingsMode, readings } from "../core/readings";

/**
 * wrk's own CPU time, the figure that says whether it was saturated. wrk is a process of its own, so
 * this process's counters do not see it:
 *   - "proc" readings (Linux): harness/wrk/report.lua reads /proc/self/stat as wrk ends, and the live
 *     chart reads /proc/<pid>/stat each second;
 *   - "portable" (macOS, or WORKBOOK_READINGS=portable): wrk runs under `sh -c 'wrk ...; times'`, and
 *     the shell's `times` builtin (POSIX, in every sh) prints its children's user and system time as it
 *     ends: the same figure as /proc's to the 10 ms tick (measured: harness README, "Platform
 *     readings"). No per-second figure: ps's TIME has whole seconds on Linux;
 *   - "none": null. Never 0: a 0 would call the generator never saturated.
 */

/** The shell script that runs wrk ("$@") and then prints the children's CPU times, keeping wrk's exit code. */
const TIMES_SCRIPT = '"$@"; status=$?; times; exit $status';

/** The command to spawn for wrk's argv: itself, or under sh with `times` (portable readings). */
export function wrkSpawnArgv(argv: readonly string[], mode: ReadingsMode = readings().mode): string[] {
  return mode === "portable" ? ["sh", "-c", TIMES_SCRIPT, "sh", ...argv] : [...argv];
}

const TIMES_LINE = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/;

/**
 * The lines `times` printed at the end of `stdout` (the shell's own, then its children's: "0m2.370000s
 * 0m0.410000s" from dash, "0m2.370s 0m0.410s" from bash), taken off: the children's user + system
 * time in ms (null when there are none), and what wrk printed.
 */
export function splitTimes(stdout: string): { cpuMs: number | null; stdout: string } {
  const lines = stdout.trimEnd().split("\n");
  const children = TIMES_LINE.exec(lines[lines.length - 1]?.trim() ?? "");
  const shell = TIMES_LINE.exec(lines[lines.length - 2]?.trim() ?? "");
  if (!children || !shell) return { cpuMs: null, stdout };
  const [, um, us, sm, ss] = children.map(Number);
  const cpuMs = Math.round((um * 60 + us + sm * 60 + ss) * 1000);
  return { cpuMs, stdout: `${lines.slice(0, -2).join("\n")}\n` };
}

/** wrk's CPU over its run, ms: from report.lua's clock ticks ("proc"), from `times` ("portable"), else null. */
export function wrkCpuMs(
  cpuTicks: number | null,
  timesMs: number | null,
  mode: ReadingsMode = readings().mode,
): number | null {
  if (mode === "portable") return timesMs;
  if (mode === "none") return null;
  const tick = clockTickMs();
  return cpuTicks === null || tick === null ? null : cpuTicks * tick;
}

/** wrk's CPU time now, for the live chart's seconds: a function of nothing, null where it cannot be read. */
export function wrkCpuNow(pid: number, mode: ReadingsMode = readings().mode): () => number | null {
  return mode === "proc" ? () => procUsage(pid)?.cpuMs ?? null : () => null;
}
