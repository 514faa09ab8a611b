import fs from "node:fs";
import path from "node:path";
import { fingerprint } from "./fingerprint";
import { repoRoot } from "./paths";
import { pinning } from "./pinning";
import { settings } from "./settings";

/**
 * The spread each notebook check's threshold was set from: every value the check measured in repeated
 * runs of its notebook, quiet and beside busy loops, by profile. `make spreads ... SPREAD_ARGS=--write`
 * (scripts/spreads.py) writes it; a checks cell prints it beside each check (prose/checks.ts), so the
 * measurement history lives in data, not in the lesson's text.
 */
export interface MeasuredSpread {
  /** The values measured with nothing else running, and beside a busy loop on every CPU. */
  quiet: number[];
  busy: number[];
  /** The day the last of them was measured (YYYY-MM-DD). */
  measured: string;
  /** The machine they were measured on ("Intel(R) Xeon(R) Processor, 2 cores"), where make spreads recorded it. */
  machine?: string;
  /** The threshold the check had in those runs, where recorded. */
  limit?: number | null;
}

/** This machine as a spread records it: its CPU model and cores ("Intel(R) Xeon(R) Processor, 2 cores"). */
export function spreadMachine(): string {
  const fp = fingerprint();
  return `${fp.cpuModel}, ${fp.cores} cores`;
}

/** notebooks/spreads.json: notebook -> check name -> profile (spreadProfile()) -> spread. */
export interface SpreadsFile {
  about: string;
  notebooks: Record<string, Record<string, Record<string, MeasuredSpread>>>;
}

/** Where the spreads are kept; WORKBOOK_SPREADS_FILE points elsewhere (the unit tests). */
export function spreadsFile(): string {
  return process.env.WORKBOOK_SPREADS_FILE || path.join(repoRoot, "notebooks", "spreads.json");
}

/** The measured spread of one check in one profile, or null when none was recorded. */
export function measuredSpread(notebook: string, check: string, profile: string): MeasuredSpread | null {
  let file: SpreadsFile;
  try {
    file = JSON.parse(fs.readFileSync(spreadsFile(), "utf8"));
  } catch {
    return null;
  }
  return file.notebooks?.[notebook]?.[check]?.[profile] ?? null;
}

/**
 * The key a check's figures are kept under and its spread read from: the profile ("quick", "full"),
 * with "-unpinned" when the run had no core pinning (core/pinning.ts). Unpinned, the load generator
 * shares the servers' cores, so a comparison spreads differently: its runs are kept apart.
 */
export function spreadProfile(): string {
  return `${settings().name}${pinning().enabled ? "" : "-unpinned"}`;
}
