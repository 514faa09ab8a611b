import { execFile } from "node:child_process";
import type { ParentMap, ProcessUsage } from "./usage-types";

/**
 * Readings from `ps`, which every platform the workbook runs on has: macOS's (BSD) and Linux's
 * (procps-ng). Used through apps/usage.ts where there is no /proc, or with WORKBOOK_READINGS=portable:
 * for a process without the probe (Bun, wrk), a server's worker processes, and threads. A reading
 * spawns ps: about 17 ms of wall time, 3 ms of this process's CPU (harness README, "Platform readings").
 *
 * The two dialects differ in what they print:
 *   - procps (Linux): `ps -o pid=,ppid=,rss=,nlwp=,time=`, TIME as [DD-]HH:MM:SS (whole seconds);
 *   - BSD (macOS): no nlwp (threads are counted from `ps -M`, a line per thread), TIME as
 *     [[DD-]HH:]MM:SS.cc (hundredths of a second). RSS is in KiB in both.
 */
export type PsDialect = "procps" | "bsd";

/** The dialect of this platform's ps. */
export function psDialect(platform: NodeJS.Platform = process.platform): PsDialect {
  return platform === "linux" ? "procps" : "bsd";
}

/** ps's TIME column in ms: "00:01:05", "1-02:03:04" (procps), "1:05.27", "1:02:03.45" (BSD); null when not one. */
export function parsePsTime(text: string): number | null {
  const m = /^(?:(\d+)-)?(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)$/.exec(text.trim());
  if (!m) return null;
  const [days, hours, minutes, seconds] = [Number(m[1] ?? 0), Number(m[2] ?? 0), Number(m[3]), Number(m[4])];
  return Math.round((((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000);
}

/** The arguments that list `pids`' usage in a dialect. */
export function psUsageArgs(dialect: PsDialect, pids: readonly number[]): string[] {
  const columns = dialect === "procps" ? "pid=,ppid=,rss=,nlwp=,time=" : "pid=,ppid=,rss=,time=";
  return ["-o", columns, "-p", pids.join(",")];
}

/** ps's lines for psUsageArgs, by pid (threads null in the BSD dialect: see parsePsThreads). */
export function parsePsUsage(stdout: string, dialect: PsDialect): Map<number, ProcessUsage> {
  const out = new Map<number, ProcessUsage>();
  for (const line of stdout.split("\n")) {
    const cols = line.trim().split(/\s+/);
    if (cols.length !== (dialect === "procps" ? 5 : 4)) continue;
    const cpuMs = parsePsTime(cols[cols.length - 1]);
    const pid = Number(cols[0]);
    if (cpuMs === null || !Number.isInteger(pid)) continue;
    const rssKb = Number(cols[2]);
    out.set(pid, {
      cpuMs,
      rssMB: Number.isFinite(rssKb) ? rssKb / 1024 : null,
      threads: dialect === "procps" && Number.isFinite(Number(cols[3])) ? Number(cols[3]) : null,
    });
  }
  return out;
}

/**
 * macOS's `ps -M -p <pids>`: a header, then for each process one line per thread, the first with
 * USER, TT and COMMAND, the others without. The PID column is right-aligned under its heading, so
 * each line's pid is the last word before the heading's right edge. Threads by pid.
 */
export function parsePsThreads(stdout: string): Map<number, number> {
  const [header, ...lines] = stdout.split("\n");
  const edge = (header ?? "").indexOf("PID") + 3;
  const out = new Map<number, number>();
  if (edge < 3) return out;
  for (const line of lines) {
    const pid = Number(line.slice(0, edge).trim().split(/\s+/).pop());
    if (line.trim() && Number.isInteger(pid) && pid > 0) out.set(pid, (out.get(pid) ?? 0) + 1);
  }
  return out;
}

/** `ps -A -o pid=,ppid=` (both dialects) as a map of parents. */
export function parsePsParents(stdout: string): ParentMap {
  const out: ParentMap = new Map();
  for (const line of stdout.split("\n")) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (Number.isInteger(pid) && Number.isInteger(ppid)) out.set(pid, ppid);
  }
  return out;
}

/** ps's stdout, or null when it could not run; "" when no process matched (ps exits 1 then). */
function ps(args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile("ps", args, { encoding: "utf8" }, (error, stdout) => {
      if (!error) resolve(stdout);
      else resolve(typeof error.code === "number" ? stdout : null);
    });
  });
}

/** The usage of `pids` now, by pid (a process that is gone is left out); null when ps cannot run. `threads` OPTIONAL (default true): false skips macOS's `ps -M`. */
export async function psUsage(
  pids: readonly number[],
  opts: { threads?: boolean; dialect?: PsDialect } = {},
): Promise<Map<number, ProcessUsage> | null> {
  const dialect = opts.dialect ?? psDialect();
  const [usage, threads] = await Promise.all([
    ps(psUsageArgs(dialect, pids)),
    dialect === "bsd" && opts.threads !== false ? ps(["-M", "-p", pids.join(",")]) : Promise.resolve(null),
  ]);
  if (usage === null) return null;
  const out = parsePsUsage(usage, dialect);
  if (threads !== null) {
    const counted = parsePsThreads(threads);
    for (const [pid, u] of out) out.set(pid, { ...u, threads: counted.get(pid) ?? null });
  }
  return out;
}

/** Every process's parent, from ps; null when ps cannot run. */
export async function psParents(): Promise<ParentMap | null> {
  const out = await ps(["-A", "-o", "pid=,ppid="]);
  return out === null ? null : parsePsParents(out);
}
