import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { badOption } from "./errors";
import { plural } from "./format";
import { readings } from "./readings";

/**
 * Core pinning. On these small machines the load generator and the server each want a whole core;
 * left to the scheduler they share both, and a per-round ratio between two apps swung twice as much
 * (measured on the 2-core CI machine, harness/METHOD.md, "Measuring on few cores"). So, on Linux with two
 * or more CPUs and `taskset` (util-linux), every app runs on its own core(s) and the load generator
 * (this process: autocannon and the paced loads run in it) on the first one.
 *
 * Off with WORKBOOK_PIN=0 (or `pin: false` on a call) and with WORKBOOK_READINGS=portable or none
 * (core/readings.ts: as a platform without /proc and taskset would be); off by itself, with the
 * reason, elsewhere (macOS has no taskset; one CPU cannot be split). Results then say they ran
 * unpinned (LoadResult.pinning.note: "not pinned: ...").
 */
export interface Pinning {
  enabled: boolean;
  /** CPU list for apps, e.g. "1" (taskset's syntax); null when off. */
  server: string | null;
  /** CPU list for the load generator, e.g. "0"; null when off. */
  generator: string | null;
  /** How it is set, or why it is off: printed in the fingerprint and kept in every result. */
  reason: string;
  /** The apps' CPUs as numbers (`server` read), e.g. [1, 2, 3]; [] when off. */
  serverCpus: number[];
  /** The load generator's CPUs as numbers, e.g. [0]; [] when off. */
  generatorCpus: number[];
  /** The CPUs the apps and the load generator both use, so that every figure is contended; [] when none or off. */
  sharedCpus: number[];
}

/** A pinning in force: the two CPU lists read as numbers beside them. */
function pinned(server: string, generator: string, reason: string): Pinning {
  const serverCpus = cpuList(server) ?? [];
  const generatorCpus = cpuList(generator) ?? [];
  const shared = serverCpus.filter((c) => generatorCpus.includes(c));
  return { enabled: true, server, generator, reason, serverCpus, generatorCpus, sharedCpus: shared };
}

/** A CPU list in taskset's syntax ("0", "1-3", "0,2-3") as CPU numbers; null when it is not one. */
export function cpuList(list: string): number[] | null {
  const parts = list.trim().split(",");
  const cpus: number[] = [];
  for (const part of parts) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) return null;
    const [a, b] = [Number(m[1]), Number(m[2] ?? m[1])];
    if (b < a) return null;
    for (let i = a; i <= b; i++) cpus.push(i);
  }
  return cpus;
}

function allowedCpus(): number[] | null {
  try {
    const list = /^Cpus_allowed_list:\s*(\S+)/m.exec(fs.readFileSync("/proc/self/status", "utf8"))?.[1];
    return list ? cpuList(list) : null;
  } catch {
    return null;
  }
}

const ORIGINAL = allowedCpus(); // read once, before anything is pinned (harmless where pinning is off)
let decided: Pinning | null = null;

function decide(): Pinning {
  const off = (reason: string): Pinning => ({
    enabled: false,
    server: null,
    generator: null,
    reason,
    serverCpus: [],
    generatorCpus: [],
    sharedCpus: [],
  });
  if (process.env.WORKBOOK_PIN === "0") return off("off: WORKBOOK_PIN=0");
  const r = readings();
  if (r.mode !== "proc" && r.why.startsWith("WORKBOOK_READINGS"))
    return off(`off: ${r.why} (taken as a platform without /proc and taskset)`);
  if (process.platform !== "linux") return off(`off: core pinning needs Linux (taskset); this is ${process.platform}`);
  if (!ORIGINAL || ORIGINAL.length < 2)
    return off(
      `off: this process may use ${ORIGINAL ? plural(ORIGINAL.length, "CPU") : "an unknown number of CPUs"}; pinning needs 2`,
    );
  if (spawnSync("taskset", ["-V"]).status !== 0) return off("off: taskset (util-linux) is not installed");
  const chosen = chosenCpus(ORIGINAL);
  if (chosen) return chosen;
  const [first, ...rest] = ORIGINAL;
  const server = rest.join(",");
  return pinned(server, String(first), `apps on CPU ${server}, load generator on CPU ${first}`);
}

/**
 * WORKBOOK_SERVER_CPUS and WORKBOOK_GENERATOR_CPUS (taskset's syntax, both or neither): the cores of
 * the apps and of the load generator, for a machine with more cores than two (notebook 07:
 * `WORKBOOK_SERVER_CPUS=1-3 WORKBOOK_GENERATOR_CPUS=0`). They may overlap (the numbers are then
 * contended, and the reason says so). A CPU this process may not use is an error that names it.
 */
function chosenCpus(allowed: number[]): Pinning | null {
  const server = process.env.WORKBOOK_SERVER_CPUS;
  const generator = process.env.WORKBOOK_GENERATOR_CPUS;
  if (!server && !generator) return null;
  const bad = (why: string) =>
    badOption("pinning", `${why} (WORKBOOK_SERVER_CPUS=${server ?? ""} WORKBOOK_GENERATOR_CPUS=${generator ?? ""})`);
  if (!server || !generator) throw bad("set both WORKBOOK_SERVER_CPUS and WORKBOOK_GENERATOR_CPUS, or neither");
  const s = cpuList(server);
  const g = cpuList(generator);
  if (!s || !g) throw bad('each must be a CPU list such as "0", "1-3" or "0,2-3"');
  const missing = [...s, ...g].filter((c) => !allowed.includes(c));
  if (missing.length) throw bad(`CPU ${missing.join(", ")} is not one this process may use (${allowed.join(",")})`);
  const chosen = pinned(
    server,
    generator,
    `apps on CPU ${server}, load generator on CPU ${generator} (WORKBOOK_SERVER_CPUS, WORKBOOK_GENERATOR_CPUS)`,
  );
  const shared = chosen.sharedCpus;
  return shared.length
    ? { ...chosen, reason: `${chosen.reason}: CPU ${shared.join(", ")} shared, so the numbers are contended` }
    : chosen;
}

/**
 * The pinning in force for this process, decided once (harness/METHOD.md, "Measuring on few cores"):
 * with two or more CPUs allowed, on Linux, with `taskset`, the apps get every allowed CPU but the
 * first and the load generator the first (`WORKBOOK_SERVER_CPUS` and `WORKBOOK_GENERATOR_CPUS`, both
 * in taskset's syntax, choose others; `WORKBOOK_PIN=0` turns it off). `server` and `generator` are
 * CPU lists (`"1"`, `"0"`), null when off, and `serverCpus`, `generatorCpus` and `sharedCpus` the
 * same as CPU numbers; `reason` says how it is set or why it is off.
 *
 * @example
 * const SERVER_CORES = wb.pinning().serverCpus.length || os.availableParallelism();
 */
export function pinning(): Pinning {
  decided ??= decide();
  return { ...decided };
}

/** The command to put in front of an app's runtime: ["taskset", "-c", "1"], or [] when off. */
export function serverWrap(pin = true): string[] {
  const p = pinning();
  return pin && p.enabled ? ["taskset", "-c", p.server!] : [];
}

function setAffinity(cpus: string): void {
  spawnSync("taskset", ["-a", "-p", "-c", cpus, String(process.pid)], { stdio: "ignore" });
}

let holders = 0;

/**
 * Pin this process (every thread: autocannon, the live chart's renderer) to the generator's CPU
 * until the returned function is called. Calls nest: the last release restores the original CPUs.
 * Does nothing when pinning is off or `pin` is false.
 */
export function pinGenerator(pin = true): () => void {
  const p = pinning();
  if (!pin || !p.enabled) return () => {};
  if (holders++ === 0) setAffinity(p.generator!);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holders === 0) setAffinity(ORIGINAL!.join(","));
  };
}
