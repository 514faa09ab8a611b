import os from "node:os";
import { measuringGenerator } from "./generator";
import { workbookVersion } from "./paths";
import { pinning } from "./pinning";
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
  /** The generator comparisons are measured with ("wrk debian/4.1.0-3+b2"), and why when it is not wrk. */
  generator: string;
  ci: boolean;
  takenAt: string;
}

export function fingerprint(): Fingerprint {
  const cpus = os.cpus();
  return {
    workbook: workbookVersion(),
    node: process.version,
    v8: process.versions.v8,
    platform: `${os.type()} ${os.release()}`,
    arch: process.arch,
    cpuModel: cpus.length ? cpus[0].model.trim() : "unknown",
    cores: os.availableParallelism ? os.availableParallelism() : cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    profile: settings().name,
    pinning: pinning().reason,
    generator: measuringGenerator().note,
    ci: process.env.CI === "true",
    takenAt: new Date().toISOString(),
  };
}

/**
 * The lines for the top of every notebook: Node, V8, CPU, cores, the workbook's version, the pinning
 * and the generator that measures (when it is not wrk, why, and how to install wrk, on a line of its own).
 */
export function describeMachine(fp: Fingerprint = fingerprint()): string {
  const [generator, ...why] = fp.generator.split(": ");
  return (
    `Node ${fp.node} · V8 ${fp.v8} · ${fp.cpuModel} · ${fp.cores} cores · ${fp.memoryGiB} GiB · ` +
    `workbook ${fp.workbook} · profile ${fp.profile} · pinning ${fp.pinning} · measured with ${generator}` +
    (why.length ? `\nNote: ${why.join(": ")}.` : "")
  );
}
