import { spawnSync } from "node:child_process";
import path from "node:path";
import { badOption } from "./errors";
import { repoRoot } from "./paths";

/**
 * Which load generator measures on this machine (a property of the machine, like pinning; the
 * fingerprint names it).
 *
 * autocannon (in this process, JavaScript) is the learner's first load test and feeds the live
 * chart with each second's latency; it needs a whole core to keep up with a fast Node server, so
 * against one it measures itself. wrk (C, a process of its own) drives the same server to 100 % of
 * its core at 63-80 % of its own (harness/METHOD.md, "The load generators"). So every load that
 * decides a comparison runs on the **measuring generator**: wrk when it is installed, autocannon
 * when it is not (said once, with the install command). WORKBOOK_GENERATOR=autocannon|wrk forces one.
 */
export type GeneratorName = "wrk" | "autocannon";

export const WRK_INSTALL = "sudo apt-get install wrk (Debian, Ubuntu), brew install wrk (macOS)";

let wrkFound: string | null | undefined;

/** wrk's version ("debian/4.1.0-3+b2"), or null when no `wrk` is on PATH. Looked up once. */
export function wrkVersion(): string | null {
  if (wrkFound !== undefined) return wrkFound;
  const r = spawnSync("wrk", ["-v"], { encoding: "utf8" }); // prints its version, exits 1
  wrkFound = r.error ? null : (/wrk (\S+)/.exec(`${r.stdout}${r.stderr}`)?.[1] ?? "unknown version");
  return wrkFound;
}

export interface GeneratorChoice {
  name: GeneratorName;
  /** "wrk debian/4.1.0-3+b2", "autocannon 8.0.0". */
  version: string;
  /** Why this one: for the fingerprint and for every sentence about a comparison. */
  note: string;
}

function autocannonVersion(): string {
  try {
    return require(path.join(repoRoot, "node_modules", "autocannon", "package.json")).version;
  } catch {
    return "unknown version";
  }
}

/**
 * The generator every comparison is measured with, on this machine: `name` is `"wrk"` when a `wrk`
 * is on `PATH`, else `"autocannon"`; `version` (`"wrk debian/4.1.0-3+b2"`); `note` says why when it
 * is not wrk, with the install command. `WORKBOOK_GENERATOR=wrk|autocannon` forces one; another
 * value, or `wrk` without a wrk on `PATH`, throws `WB_BAD_OPTION`.
 *
 * @example
 * const generators = internal.measuringGenerator().name === "wrk" ? ["wrk", "autocannon"] : ["autocannon"];
 */
export function measuringGenerator(): GeneratorChoice {
  const forced = process.env.WORKBOOK_GENERATOR;
  if (forced && forced !== "wrk" && forced !== "autocannon")
    throw badOption(
      "measuringGenerator",
      `WORKBOOK_GENERATOR must be "wrk" or "autocannon", got ${JSON.stringify(forced)}`,
    );
  const wrk = wrkVersion();
  if (forced === "wrk" && !wrk)
    throw badOption("measuringGenerator", `WORKBOOK_GENERATOR=wrk, but no wrk is on PATH: ${WRK_INSTALL}`);
  if (forced === "autocannon")
    return {
      name: "autocannon",
      version: `autocannon ${autocannonVersion()}`,
      note: "autocannon (WORKBOOK_GENERATOR=autocannon)",
    };
  if (wrk) return { name: "wrk", version: `wrk ${wrk}`, note: `wrk ${wrk}` };
  return {
    name: "autocannon",
    version: `autocannon ${autocannonVersion()}`,
    note: `autocannon: wrk is not installed, so comparisons are measured with autocannon, which may be the limit against fast servers (install wrk: ${WRK_INSTALL})`,
  };
}
