// Notebook 08's own helpers (what only this lesson uses): the same server measured three ways, to see
// the machine's drift before make compare hides it. tests/unit/notebook-08.test.js requires this file.
import fs from "node:fs";
import * as wb from "@workbook/harness";

/** The load of the drift section: every way of measuring below loads the same route the same way. */
export interface DriftLoad {
  path: string;
  connections: number;
}

/** One way of measuring two copies of one server, as per-round ratios of the second to the first. */
export interface DriftDesign {
  design: string;
  /** The second's req/s over the first's, one value per round (one value in all for separate runs). */
  reqPerSec: number[];
  /** The first's CPU time per request over the second's, one value per round. */
  cpuPerRequest: number[];
  /** The loads that ran (the first's, the second's). */
  loads: wb.LoadResult[];
  /**
   * Side by side only: what the two processes did with the core they shared, and the commands (Markdown);
   * "" otherwise (in turns, each load's pace and commands print under the cell, as under any load).
   */
  report: string;
}

/**
 * The same server measured as a before/after comparison usually is: a fresh process, `rounds` 1-s
 * runs, stopped; then another fresh process, the same again. Their medians' ratio is what such a
 * comparison would call the change.
 */
export async function oneAfterTheOther(file: string, load: DriftLoad, rounds: number): Promise<DriftDesign> {
  const runs: wb.LoadResult[] = [];
  for (const label of ["first run", "second run"]) {
    const once = (app: wb.AppHandle) =>
      wb.runLoad({ ...load, target: app, repeats: rounds, duration: 1, label, live: false });
    runs.push(await wb.withApp({ entry: file, probe: load.path }, once));
  }
  const [first, second] = runs;
  return {
    design: "one run, then another",
    reqPerSec: [second.reqPerSec.median / first.reqPerSec.median],
    cpuPerRequest: [(first.cpuPerRequestUs?.median ?? NaN) / (second.cpuPerRequestUs?.median ?? NaN)],
    loads: runs,
    report: "",
  };
}

/** Two processes of the same server in `rounds` rounds of 1 s: in turns (A B, B A, ...) or side by side. */
export async function twoProcesses(
  file: string,
  load: DriftLoad,
  rounds: number,
  together: boolean,
): Promise<DriftDesign> {
  const targets = ["first", "second"].map((key) => ({
    key,
    app: { entry: file, probe: load.path },
    checks: [],
    load: { ...load, label: `${key} process`, live: false },
  }));
  // Side by side, each process's own CPU reads a share of the core they split: the per-load pace
  // sentence would call the core half idle, so this design says what both did together instead.
  const runs = await wb.interleavedLoads(targets, { rounds, together, report: !together });
  for (const r of runs.values()) if (r.error) throw new Error(`${r.key} process: ${r.error}`);
  const adv = wb.advantage(runs.get("second")!.rounds, runs.get("first")!.rounds);
  const loads = [runs.get("first")!.load!, runs.get("second")!.load!];
  return {
    design: together ? "side by side, 1-s rounds" : "in turns, 1-s rounds",
    reqPerSec: adv.reqPerSec?.runs ?? [],
    cpuPerRequest: adv.cpuPerRequest?.runs ?? [],
    loads,
    report: together ? sharedCoreText(loads) : "",
  };
}

/** Two loads side by side on one core: what they used of it together (a null reading said, never summed). */
export function sharedCoreLine(loads: readonly Pick<wb.LoadResult, "server">[]): string {
  const cpu = loads.map((l) => l.server?.cpuPercent.median ?? null);
  const used = cpu.every((c): c is number => c !== null)
    ? `together the two processes used ${wb.fmt(cpu[0] + cpu[1])} % of one core (${cpu.map((c) => wb.fmt(c)).join(" % + ")} %)`
    : "the servers' CPU could not be read on this platform";
  return `Side by side, sharing the server's core: ${used}.`;
}

/** sharedCoreLine, then the commands that ran. */
function sharedCoreText(loads: readonly wb.LoadResult[]): string {
  return `${sharedCoreLine(loads)}\n\n${wb.commandText(...loads)}`;
}

/**
 * The median of some ratios as a signed change in per cent, with its interval and what it lets a reader
 * conclude (`wb.compared`): "+5.9 %: one run, no interval"; "+1.4 % [-2.0 % to +5.0 %], the range of 5
 * (a 94 % interval): no difference seen"; from six on, the 95 % interval of the median.
 */
export function changeText(ratios: readonly number[]): string {
  const xs = ratios.filter(Number.isFinite);
  if (xs.length === 0) return "n/a";
  const signed = (r: number) => `${r >= 1 ? "+" : "-"}${(Math.abs(r - 1) * 100).toFixed(1)} %`;
  const c = wb.compared({ values: xs });
  if (c.kind === "one") return `${signed(c.median)}: one run, no interval`;
  const which = c.n >= 6 ? "95 % interval" : `the range of ${c.n} (a ${wb.pct(c.level ?? NaN)} interval)`;
  const seen = {
    same: "no difference seen",
    noise: "within the noise floor",
    more: "a difference",
    less: "a difference",
    few: "too few for a verdict",
    one: "",
  };
  return `${signed(c.median)} [${signed(c.low)} to ${signed(c.high)}], ${which}: ${seen[c.kind]}`;
}

/** How far single rounds strayed: the middle half of the per-round ratios, as +- per cent around 1. */
export function roundSpread(ratios: readonly number[]): number {
  const xs = ratios.filter(Number.isFinite).sort((a, b) => a - b);
  if (xs.length < 4) return NaN;
  const q = (p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
  return (q(0.75) - q(0.25)) / 2;
}

/** A design as a row of the drift table. */
export function designRow(d: DriftDesign): Record<string, string | number> {
  return {
    design: d.design,
    values: d.reqPerSec.length,
    "second over first, req/s": changeText(d.reqPerSec),
    "first over second, CPU per request": changeText(d.cpuPerRequest),
    "half the middle spread of single rounds, CPU":
      d.cpuPerRequest.length >= 4 ? wb.pct(roundSpread(d.cpuPerRequest), 1) : "n/a",
  };
}

/** Show the lines of `file` (from the notebook's folder) from the first containing `from` to the first after it containing `to`. */
export function showLines(file: string, from: string, to: string): void {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const start = lines.findIndex((l) => l.includes(from));
  const end = lines.findIndex((l, i) => i >= start && l.includes(to));
  if (start < 0 || end < 0)
    throw new Error(`${file} has no lines from ${JSON.stringify(from)} to ${JSON.stringify(to)}`);
  wb.markdown(
    `\`${file.replace(/^\.\.\//, "")}\`, lines ${start + 1}–${end + 1}:\n\n\`\`\`js\n${lines.slice(start, end + 1).join("\n")}\n\`\`\``,
  );
}
