import os from "node:os";
import { measuringGenerator } from "./generator";
import { workbookVersion } from "./paths";
import { cpuList, pinning } from "./pinning";
import { limits } from "./quota";
import { readings } from "./readings";
import { settings } from "./settings";

/** Everything needed to tell whether two results came from comparable machines and runs. */
export interface Fingerprint {
  workbook: string;
  node: string;
  v8: string;
  platform: string;
  arch: string;
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  profile: string;
  /** Where the apps and the load generator ran: "apps on CPU 1, load generator on CPU 0", or why not pinned. */
  pinning: string;
  /** The CPU quota of this session's control group in CPUs (JupyterHub, Binder, containers), null when none. */
  cpuQuota: number | null;
  /** Where the quota was read ("cgroup v2 cpu.max 100000 100000 (/user.slice)"), null when none. */
  cpuQuotaSource: string | null;
  /** The cores the workbook pins its apps and its load generator to (all cores when not pinned). */
  pinnedCores: number;
  /** The control group's memory limit, MiB; null when none. */
  memoryLimitMB: number | null;
  /** The generator comparisons are measured with ("wrk debian/4.1.0-3+b2"), and why when it is not wrk. */
  generator: string;
  /** Where the platform readings come from (core/readings.ts): "proc", "portable" or "none", why, and the sources. */
  readings: { mode: string; why: string; source: string };
  /** The figures this platform could not measure, each with its reason ([] when none): said once under the fingerprint. */
  notMeasured: string[];
  ci: boolean;
  takenAt: string;
}

/** The cores the workbook splits between the apps and the load generator. */
function pinnedCores(cores: number): number {
  const p = pinning();
  if (!p.enabled) return cores;
  return new Set([...(cpuList(p.server!) ?? []), ...(cpuList(p.generator!) ?? [])]).size;
}

export function fingerprint(): Fingerprint {
  const cpus = os.cpus();
  const cores = os.availableParallelism ? os.availableParallelism() : cpus.length;
  const { cpu, memoryMB } = limits();
  const r = readings();
  return {
    workbook: workbookVersion(),
    node: process.version,
    v8: process.versions.v8,
    platform: `${os.type()} ${os.release()}`,
    arch: process.arch,
    cpuModel: cpus.length ? cpus[0].model.trim() : "unknown",
    cores,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    profile: settings().name,
    pinning: pinning().reason,
    cpuQuota: cpu?.cpus ?? null,
    cpuQuotaSource: cpu?.source ?? null,
    pinnedCores: pinnedCores(cores),
    memoryLimitMB: memoryMB === null ? null : Math.round(memoryMB),
    generator: measuringGenerator().note,
    readings: { mode: r.mode, why: r.why, source: r.source },
    notMeasured: r.notMeasured,
    ci: process.env.CI === "true",
    takenAt: new Date().toISOString(),
  };
}

/** Whether a CPU quota gives this session less than the cores the workbook pins to: every figure is then contended. */
export function quotaContended(fp: Pick<Fingerprint, "cpuQuota" | "pinnedCores">): boolean {
  return fp.cpuQuota !== null && fp.cpuQuota < fp.pinnedCores;
}

/**
 * The lines for the top of every notebook: Node, V8, CPU, cores, the workbook's version, the pinning
 * and the generator that measures (when it is not wrk, why, and how to install wrk, on a line of its
 * own); a CPU quota below the pinned cores, and a memory limit, each on a line of its own; where the
 * readings come from, and once, what this platform could not measure.
 */
export function describeMachine(fp: Fingerprint = fingerprint()): string {
  const [generator, ...why] = fp.generator.split(": ");
  const quota = quotaContended(fp)
    ? `\nNote: a CPU quota of ${fp.cpuQuota} CPU (${fp.cpuQuotaSource}) caps this session, below the ` +
      `${fp.pinnedCores} cores the workbook pins to: the server and the load generator share ${fp.cpuQuota} CPU ` +
      "of time whatever the pinning says, so every figure below is contended, and the kernel holds the " +
      "session back in each period (100 ms) its quota runs out, which shows in the latency's tail. Each " +
      "load reports how many periods were throttled."
    : "";
  const memory = fp.memoryLimitMB === null ? "" : `\nMemory is limited to ${fp.memoryLimitMB} MiB for this session.`;
  return (
    `Node ${fp.node} · V8 ${fp.v8} · ${fp.cpuModel} · ${fp.cores} cores · ${fp.memoryGiB} GiB · ` +
    `workbook ${fp.workbook} · profile ${fp.profile} · pinning ${fp.pinning} · measured with ${generator}` +
    (why.length ? `\nNote: ${why.join(": ")}.` : "") +
    quota +
    memory +
    // A fingerprint saved before the readings were recorded has neither field.
    (fp.readings ? `\nReadings: ${fp.readings.source}.` : "") +
    (fp.notMeasured?.length ? `\nNot measured on this platform: ${fp.notMeasured.join("; ")}.` : "")
  );
}
