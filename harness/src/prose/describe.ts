import path from "node:path";
import { badOption } from "../core/errors";
import { fmt, pct, plural, rangeText, times } from "../core/format";
import { fromWorkbook } from "../core/paths";
import type { Throttling } from "../core/quota";
import { notMeasured } from "../core/readings";
import { SATURATION_CPU_PERCENT } from "../core/settings";
import type { Spread } from "../core/stats";
import { type CommandSource, loadCommandText } from "../load/report";
import type { Advantage, RatioReading } from "../load/rounds";
import type { LoadResult } from "../load/types";
import { compared } from "./compare";

/**
 * Sentences that depend on the run, written once and tested (tests/unit/prose.test.js), so that a
 * notebook's prose stays true whatever the numbers: a cell renders them with markdown().
 */

/** "61,234 req/s (median of 3 runs, 57,630–65,270)", or just the median for one value. */
export function spreadText(s: Spread, unit: string, of = "runs"): string {
  const n = s.runs.length;
  if (n <= 1) return `${fmt(s.median)} ${unit}`;
  return `${fmt(s.median)} ${unit} (median of ${n} ${of}, ${rangeText(s.min, s.max)})`;
}

/**
 * A ratio with its evidence, as `compared` writes it: "1.45x (median of 20 rounds, 95 % interval
 * 1.41x–1.46x)"; from two to five values their range with its confidence ("1.52x (median of 5 rounds,
 * range 1.40x–1.61x, a 94 % interval)"); one value "1.52x from one round".
 */
export function ratioText(s: Spread, of = "rounds"): string {
  return s.runs.some(Number.isFinite) ? compared({ values: s.runs, of }).evidence : times(s.median);
}

const READINGS: Record<RatioReading, string> = {
  measured: "the load generator kept up in every round, so the req/s ratio measures both servers",
  "lower bound":
    "the load generator was saturated in the first one's rounds, so its req/s is a floor and the req/s ratio a lower bound",
  "upper bound":
    "the load generator was saturated in the second one's rounds, so its req/s is a floor and the req/s ratio an upper bound",
  "both capped":
    "the load generator was saturated in both servers' rounds, so the req/s ratio measures the generator, not the servers",
  unchecked:
    "the load generator's CPU was not measured on this platform, so whether it kept up is unknown and the req/s ratio may be the generator's",
};

/** What a req/s ratio is worth, given where the generator was saturated: one clause. */
export function readingText(reading: RatioReading): string {
  return READINGS[reading];
}

/**
 * How `a` compares with `b` (an Advantage from advantage()), in the words its interval allows
 * (`compared`), on the figure that measures the servers, and why that figure: "By requests per second,
 * Fastify was faster than Express by 65 %: 1.65x (median of 7 rounds, 95 % interval 1.58x–1.71x). The
 * load generator kept up in every round, so the req/s ratio measures both servers." `a` and `b` stand
 * mid-sentence: "the optimised server", not "The optimised server".
 */
export function advantageText(a: string, b: string, adv: Advantage): string {
  if (adv.ratio === null) return `${a} and ${b} have no round in common: no ratio.`;
  const on = adv.decidedOn === "reqPerSec" ? "requests per second" : "the server's CPU time per request";
  const c = compared({ values: adv.ratio.runs }, { a, b, more: "faster", less: "slower" });
  const why =
    adv.decidedOn === "reqPerSec"
      ? readingText(adv.reading)
      : `${readingText(adv.reading)}; CPU time per request still measures each server`;
  return `By ${on}, ${c.text}. ${why[0].toUpperCase()}${why.slice(1)}.`;
}

/** Where the load generator stood in a load's runs: one sentence, with the 90 % line ("The load generator kept up: wrk used … % of a core …"); under a CPU quota, how many periods it throttled. Where the generator's CPU was not read, it says whether it kept up is unknown. */
export function saturationText(r: Pick<LoadResult, "generator" | "runs"> & { throttled?: Throttling | null }): string {
  return generatorText(r) + (r.throttled ? ` ${throttledText(r.throttled)}` : "");
}

/**
 * What the session's CPU quota did to a load (LoadResult.throttled, from cpu.stat): in how many of
 * its periods the kernel held the session back, and for how long in all.
 */
export function throttledText(t: Throttling): string {
  if (t.throttled === 0) return `The CPU quota held nothing back: 0 of ${fmt(t.periods)} periods throttled.`;
  return (
    `The CPU quota held this session back in ${fmt(t.throttled)} of ${fmt(t.periods)} periods ` +
    `(${pct(t.throttled / Math.max(1, t.periods))}, ${fmt(Math.round(t.throttledMs))} ms in all): the server and ` +
    "the generator waited for the next period, and the tail latency shows it."
  );
}

function generatorText(r: Pick<LoadResult, "generator" | "runs">): string {
  const { saturatedRuns, cpuPercent, name } = r.generator;
  if (cpuPercent === null || saturatedRuns === null)
    return `The load generator's CPU was ${notMeasured()}: whether it kept up is unknown, so the req/s may be its limit rather than the server's.`;
  const n = r.runs.length;
  const use =
    name === "wrk"
      ? `wrk used ${fmt(cpuPercent.median)} % of a core (median of the runs)`
      : `autocannon's thread used ${fmt(cpuPercent.median)} % of a core (median of the runs' steady seconds)`;
  if (saturatedRuns === 0) return `The load generator kept up: ${use}, below the ${SATURATION_CPU_PERCENT} % line.`;
  // In some runs only, the median of all the runs may sit below the line: the line is said of those runs.
  const which =
    saturatedRuns === n
      ? `in every run (${plural(n, "run")}): ${use}, at or above the ${SATURATION_CPU_PERCENT} % line`
      : `in ${saturatedRuns} of ${n} runs, at or above the ${SATURATION_CPU_PERCENT} % line in those; over all ${n}, ${use}`;
  return (
    `The load generator was saturated ${which}. ` +
    "There the req/s is the generator's limit, a floor for the server; the server's CPU time per request still measures it."
  );
}

/** "about 45 s", "about 3 min". */
export function durationText(seconds: number): string {
  if (seconds < 90) return `about ${Math.max(5, Math.round(seconds / 5) * 5)} s`;
  return `about ${Math.round(seconds / 60)} min`;
}

/** How to open each kind of file a profile writes. */
const OPENS_IN: Record<string, string> = {
  ".cpuprofile":
    "Chrome DevTools (chrome://inspect → Open dedicated DevTools for Node → Performance → Load profile) or https://www.speedscope.app",
  ".heapprofile": "Chrome DevTools (chrome://inspect → Open dedicated DevTools for Node → Memory → Load)",
  ".heapsnapshot":
    "Chrome DevTools (chrome://inspect → Open dedicated DevTools for Node → Memory → Load; load both, then Comparison)",
  ".html": "any browser",
};

/**
 * What a profile, heap snapshots, a script or a diagnosis ran: its `command` (the server's, or the
 * script's), what it wrote (`file`, `files`) and the load that ran meanwhile (`load`). Anything with a
 * `command` and no `label` (a load has one).
 */
export interface ToolRun {
  command: string;
  /** "equivalent": the command does by hand what the harness did another way (a snapshot its probe took). Default "ran". */
  commandKind?: "ran" | "equivalent";
  file?: string;
  files?: readonly (string | null)[];
  load?: { label: string; command: string };
}

/**
 * What just ran, as command lines to paste into a terminal from the workbook's folder, in one fenced
 * block: printed under every load and profile, so that a learner can repeat it without the workbook.
 * Loads (a LoadResult, a paced load: anything with a `label` and a `command`): one line per load, each
 * under a comment with its label when there are several, the server's command first where a load
 * says how its server was started (`serverCommand`); e.g. "taskset -c 0 wrk -t1 -c100 -d5s --latency
 * ... http://127.0.0.1:41235/json". A tool's run (a CpuProfileResult, HeapProfileResult or
 * HeapSnapshotsResult as it is; `{ command: run.command }` for a ScriptRun, whose `file` is the script,
 * not a file it wrote; `{ command: d.server, files: [d.report, ...d.files], load: d.load }` for a
 * Diagnosis), one per call: the files it wrote as paths from the workbook's
 * folder, each with what opens it (a `.cpuprofile` Chrome DevTools' Performance panel or speedscope,
 * a `.heapprofile` or `.heapsnapshot` its Memory panel, a report a browser), then its command and the
 * load that ran meanwhile. Only what really ran is headed as such: a command that is an equivalent
 * (autocannon's command line for its JavaScript API, called in this process; `kill -USR2` for a
 * snapshot the probe took) is headed "the same ... from the command line". Throws `WB_BAD_OPTION`
 * for a tool's run beside anything else.
 */
export function commandText(...sources: readonly (CommandSource | ToolRun)[]): string {
  const loads = sources.filter((s): s is CommandSource => "label" in s);
  if (loads.length === sources.length) return loadCommandText(...loads);
  if (sources.length > 1)
    throw badOption("commandText", "a profile's, a script's or a diagnosis's run is printed on its own: one per call");
  const r = sources[0] as ToolRun;
  const files = [...(r.file ? [r.file] : []), ...(r.files ?? [])].filter((f): f is string => f !== null);
  const opens = (f: string) => OPENS_IN[path.extname(f)] ?? "a text editor";
  const written = files.map((f) => `* \`${fromWorkbook(f)}\`: open it in ${opens(f)}`);
  const lines = [r.command, ...(r.load ? ["# meanwhile, the load:", r.load.command] : [])];
  return [
    ...(written.length
      ? [`${files.length > 1 ? "The files it wrote" : "The file it wrote"}:`, "", ...written, ""]
      : []),
    `${r.commandKind === "equivalent" ? "The same from the command line" : "What ran"}, from the workbook's folder:` +
      `\n\n\`\`\`sh\n${lines.join("\n")}\n\`\`\``,
  ].join("\n");
}
