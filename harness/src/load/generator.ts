import os from "node:os";
import path from "node:path";
import { badOption } from "../core/errors";
import { type GeneratorName, measuringGenerator, WRK_INSTALL, wrkVersion } from "../core/generator";
import { repoRoot } from "../core/paths";
import { cpuList, pinning } from "../core/pinning";

/** The generator of one load, and the command line that reproduces it (the choice per machine: core/generator.ts). */

/** wrk's Lua script: method, body, status counts, and the figures the harness reads (one JSON line). */
export const WRK_SCRIPT = path.join(repoRoot, "harness", "wrk", "report.lua");

/** What a load asks of its generator, to choose one and to write its command line. */
export interface GeneratorLoad {
  url: string;
  method: string;
  connections: number;
  /** wrk's threads, when a load sets them (wrkThreads otherwise). */
  threads?: number;
  pipelining: number;
  seconds: number;
  timeoutSeconds: number;
  headers?: Record<string, string>;
  body?: string;
  rate?: number;
}

/**
 * The generator of one load: the one asked for, else the measuring generator, unless the load needs
 * autocannon (a capped rate, pipelining, HEAD, runs of a fraction of a second: wrk's stock build does
 * none of them; `load.seconds` is the shortest run of the load), which is then used.
 */
export function generatorFor(load: GeneratorLoad, asked?: GeneratorName): GeneratorName {
  const reasons: [boolean, string][] = [
    [Boolean(load.rate), "a capped rate"],
    [load.pipelining > 1, "pipelining"],
    [load.method === "HEAD", "HEAD requests"],
    [!Number.isInteger(load.seconds), "a run of a fraction of a second"],
  ];
  const needsAutocannon = reasons.find(([applies]) => applies)?.[1] ?? null;
  if (asked === "wrk" && needsAutocannon)
    throw badOption("runLoad", `wrk cannot run this load (${needsAutocannon}): use generator: "autocannon"`);
  if (asked === "wrk" && !wrkVersion())
    throw badOption("runLoad", `generator: "wrk", but no wrk is on PATH: ${WRK_INSTALL}`);
  if (asked) return asked;
  return needsAutocannon ? "autocannon" : measuringGenerator().name;
}

/** wrk's threads: one per CPU the generator is pinned to (else half the machine's), at most one per connection. */
export function wrkThreads(connections: number): number {
  return wrkParallel(connections);
}

/**
 * How many of wrk's threads can run at once: its threads, at most the CPUs it is given (pinned, its
 * own; else half the machine's). Saturation is judged per such thread: twelve threads on one CPU
 * saturate it at 90 % of that CPU, not at 90 % each.
 */
export function wrkParallel(threads: number): number {
  const p = pinning();
  const cpus = p.enabled ? (cpuList(p.generator!)?.length ?? 1) : Math.floor(os.availableParallelism() / 2);
  return Math.max(1, Math.min(threads, cpus));
}

/** The generator's CPUs in front of a command, when pinned: ["taskset", "-c", "0"]. */
export function generatorWrap(pinned: boolean): string[] {
  const p = pinning();
  return pinned && p.enabled ? ["taskset", "-c", p.generator!] : [];
}

/** wrk's argv and environment for a load (the script prints the figures the harness reads). */
export function wrkCommand(
  load: GeneratorLoad,
  pinned: boolean,
  statuses: boolean,
): { argv: string[]; env: Record<string, string>; threads: number; parallel: number } {
  const env: Record<string, string> = {};
  if (load.method !== "GET") env.WORKBOOK_WRK_METHOD = load.method;
  if (load.body !== undefined) env.WORKBOOK_WRK_BODY = load.body;
  if (statuses) env.WORKBOOK_WRK_STATUSES = "1";
  const threads = load.threads ?? wrkThreads(load.connections);
  const argv = [
    ...generatorWrap(pinned),
    "wrk",
    `-t${threads}`,
    `-c${load.connections}`,
    `-d${load.seconds}s`,
    "--latency",
    "--timeout",
    `${load.timeoutSeconds}s`,
    ...Object.entries(load.headers ?? {}).flatMap(([k, v]) => ["-H", `${k}: ${v}`]),
    "-s",
    path.relative(repoRoot, WRK_SCRIPT), // commands run from the workbook's folder
    load.url,
  ];
  return { argv, env, threads, parallel: wrkParallel(threads) };
}

/** The autocannon command line equivalent to a load the harness runs through autocannon's API. */
export function autocannonCommand(load: GeneratorLoad, pinned: boolean): string[] {
  return [
    ...generatorWrap(pinned),
    "npx",
    "autocannon",
    "-c",
    String(load.connections),
    "-d",
    String(load.seconds),
    ...(load.pipelining > 1 ? ["-p", String(load.pipelining)] : []),
    ...(load.method !== "GET" ? ["-m", load.method] : []),
    ...Object.entries(load.headers ?? {}).flatMap(([k, v]) => ["-H", `${k}=${v}`]),
    ...(load.body !== undefined ? ["-b", load.body] : []),
    ...(load.rate ? ["-R", String(load.rate)] : []),
    "-t",
    String(load.timeoutSeconds),
    load.url,
  ];
}
