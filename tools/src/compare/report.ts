import {
  type Advantage,
  describeMachine,
  type Fingerprint,
  fmt,
  type LoadResult,
  pinning,
  type RatioMetric,
  type RatioReading,
  type Spread,
} from "@workbook/harness";
import { fingerprint, median, plural } from "@workbook/harness/internal";
import { makePath, type ResolvedSide } from "./sides";
import {
  type Change,
  changeOf,
  changeText,
  durationText,
  type FloorRow,
  floorTable,
  type Pace,
  p1,
  secondsToSee,
  type Verdict,
  verdictOf,
} from "./stats";

/** How the two servers share the rounds: loaded at once ("side-by-side") or one after the other ("rounds"). */
export type Design = "side-by-side" | "rounds";

/** One side's figures in one round. */
export interface PairSide {
  reqPerSec: number;
  cpuPerRequestUs: number | null;
  /** The generator's CPU, % of one core; null where it could not be read. */
  generatorCpuPercent: number | null;
  /** The server's CPU, % of one core; null where it could not be read. */
  serverCpuPercent: number | null;
  /** The generator at its saturation line; null where its CPU was not read (unknown, never "it kept up"). */
  saturated: boolean | null;
}

/** The i-th round of A and of B. */
export interface RoundPair {
  /** The session (fresh processes of both) it belongs to, from 1. */
  session: number;
  a: PairSide;
  b: PairSide;
}

/** What a side did over all its rounds, and how to run it again. */
export interface SideSummary {
  label: string;
  /** The server file, from the workbook's folder when inside it. */
  file: string;
  runtime: string;
  reqPerSec: Spread;
  cpuPerRequestUs: Spread | null;
  /** How the server was started, and one round's load, as command lines. */
  serverCommand: string | null;
  loadCommand: string;
}

/** A comparison's result: the verdict, every number it rests on, and the same as text, Markdown and JSON. */
export interface Comparison {
  /** The verdict line: "B is slower by 6.1 % [4.0-8.2]", "B is faster by ...", "no difference larger than 2.3 % seen". */
  headline: string;
  verdict: Verdict;
  /** --fail-if-slower: `failed` when B is slower beyond doubt and by more than `percent`. null without a gate. */
  gate: { percent: number; failed: boolean; text: string } | null;
  a: SideSummary;
  b: SideSummary;
  /** The figure that decided (req/s, or CPU per request where the generator was saturated), and what req/s is worth. */
  decidedOn: RatioMetric;
  reading: RatioReading;
  /** Both figures as changes of B against A, with their 95 % intervals (null where not measured). */
  reqPerSec: Change | null;
  cpuPerRequest: Change | null;
  saturatedRounds: { a: number; b: number };
  rounds: RoundPair[];
  design: Design;
  /** The order of the turns ("rounds" design); null side by side. */
  order: "alternate" | "random" | null;
  route: string;
  connections: number;
  generator: string;
  /** The noise floor this verdict used (a fraction: the standard deviation of two processes' difference). */
  noise: number;
  /** Sessions run (fresh processes of both servers each), and each one's median ratio on the deciding figure. */
  sessions: number;
  sessionRatios: number[];
  /** A and B are the same server: an A/A run, which measures the noise. */
  same: boolean;
  /** Why the rounds ended: "early: after 10 rounds the 99.8 % interval ... lies wholly below 0", or "at the time limit, 60 s". */
  stoppedBy: string;
  seconds: number;
  limitSeconds: number;
  pace: Pace;
  /** What comparisons of other lengths would detect at this run's spread (the noise-floor table). */
  floor: FloorRow[];
  /** How long a comparison would need to see a change of 2, 5, 10 and 20 %. */
  toSee: { size: number; seconds: number; text: string }[];
  /** The command that reproduces this comparison. */
  command: string;
  /** The verdict, then every number it rests on (a terminal's lines). */
  text: string;
  /** A summary short enough for a pull-request comment. */
  markdown: string;
  fingerprint: Fingerprint;
  /** What `make compare` exits with: 1 when the gate failed, else 0. */
  exitCode: 0 | 1;
}

export interface ReportInput {
  a: ResolvedSide;
  b: ResolvedSide;
  runA: LoadResult;
  runB: LoadResult;
  pairs: RoundPair[];
  /** advantage()'s figures, and why the deciding one was chosen (empty: advantage()'s own rule). */
  advantage: Advantage & { why: string };
  design: Design;
  order: "alternate" | "random" | null;
  noise: number;
  gate: number | null;
  same: boolean;
  sessions: number;
  stoppedBy: string;
  seconds: number;
  limit: number;
  pace: Pace;
  route: string;
  connections: number;
  command?: string;
}

const pc = (share: number) => `${p1(share)} %`;
function sideSummary(r: ResolvedSide, load: LoadResult): SideSummary {
  return {
    label: r.label,
    file: makePath(r.file),
    runtime: r.runtimeTitle,
    reqPerSec: load.reqPerSec,
    cpuPerRequestUs: load.cpuPerRequestUs,
    serverCommand: load.serverCommand,
    loadCommand: load.command,
  };
}

/** The `make compare` line for two sides given as files. */
function makeLine(i: ReportInput): string {
  const word = (v: string) => (/^[\w./@:=+-]+$/.test(v) ? v : `'${v.replace(/'/g, "'\\''")}'`);
  const parts = ["make compare", `A=${word(makePath(i.a.file))}`, `B=${word(makePath(i.b.file))}`];
  if (i.a.side.runtime) parts.push(`RUNTIME_A=${word(i.a.side.runtime)}`);
  if (i.b.side.runtime) parts.push(`RUNTIME_B=${word(i.b.side.runtime)}`);
  if (i.route !== "/") parts.push(`ROUTE=${word(i.route)}`);
  parts.push(`SECONDS=${i.limit}`);
  if (i.same) parts.push("SAME=1");
  if (i.design !== "side-by-side") parts.push(`DESIGN=${i.design}`);
  if (i.order === "random") parts.push("ORDER=random");
  if (i.gate !== null) parts.push(`FAIL_IF_SLOWER=${+(i.gate * 100).toFixed(2)}`);
  return parts.join(" ");
}

function designText(i: ReportInput, generator: string): string {
  const p = pinning();
  const where = p.enabled ? ` on CPU ${p.server}, ${generator} on CPU ${p.generator}` : ` (not pinned: ${p.reason})`;
  const how =
    i.design === "side-by-side"
      ? `both servers loaded at once in each round, sharing the server's ${p.serverCpus.length === 1 ? "core" : "cores"}`
      : `the servers loaded in turns, ${i.order === "random" ? "in a random order" : "A B, B A, ..."}`;
  return `${how}${where}; ${i.pairs.length} rounds of ${fmt(i.runA.durationSeconds)} s, ${i.connections} connections each, GET ${i.route}`;
}

/** Build a Comparison from what compare() measured: the verdict, the text, the Markdown. */
export function comparisonReport(i: ReportInput): Comparison {
  const adv = i.advantage;
  const luck = { noise: i.noise, sessions: i.sessions };
  const verdict = verdictOf(adv.ratio!.runs, luck);
  const reqPerSec = adv.reqPerSec ? changeOf(adv.reqPerSec.runs, luck) : null;
  const cpuPerRequest = adv.cpuPerRequest ? changeOf(adv.cpuPerRequest.runs, luck) : null;
  const sessionRatios = [...new Set(i.pairs.map((p) => p.session))].map((k) =>
    median(adv.ratio!.runs.filter((_, j) => i.pairs[j].session === k)),
  );
  const slower = -verdict.change;
  const gate =
    i.gate === null
      ? null
      : {
          percent: i.gate * 100,
          failed: verdict.high < 0 && slower > i.gate,
          text: "",
        };
  if (gate)
    gate.text = gate.failed
      ? `FAILED: B is slower by ${pc(slower)}, more than the ${pc(i.gate!)} allowed`
      : `passed: B is not slower by more than ${pc(i.gate!)} (${verdict.high < 0 ? `slower by ${pc(slower)}` : "not slower beyond doubt"})`;
  const generator = i.runA.generator.name;
  const floor = floorTable(adv.ratio!.runs, i.noise, i.pace);
  const toSee = [0.02, 0.05, 0.1, 0.2].map((size) => {
    const seconds = secondsToSee(adv.ratio!.runs, i.noise, i.pace, size);
    return { size, seconds, text: durationText(seconds) };
  });
  const a = sideSummary(i.a, i.runA);
  const b = sideSummary(i.b, i.runB);
  const command = i.command ?? makeLine(i);
  const metric = adv.decidedOn === "reqPerSec" ? "req/s, B's over A's" : "CPU time per request, A's over B's";
  const saturated = adv.saturatedRounds.a + adv.saturatedRounds.b;
  let kept = `${generator} kept up in every round`;
  if (saturated > 0)
    kept = `${generator} was saturated in ${adv.saturatedRounds.a} of A's and ${adv.saturatedRounds.b} of B's rounds, so req/s measures the generator there and CPU time per request, which still measures each server, decides`;
  else if (adv.reading === "unchecked") kept = `whether ${generator} kept up is unknown (its CPU was not read)`;
  const generatorLine = kept + (adv.why ? `; ${adv.why}` : "");
  const sideLine = (k: string, s: SideSummary) =>
    `  ${k}: ${s.label} (${s.runtime}): ${fmt(s.reqPerSec.median)} req/s (median of ${s.reqPerSec.runs.length} rounds, ${fmt(s.reqPerSec.min)}-${fmt(s.reqPerSec.max)}), ` +
    `${s.cpuPerRequestUs ? `${fmt(s.cpuPerRequestUs.median)} µs of CPU per request` : "CPU per request not read"}`;
  const text = [
    verdict.headline,
    sideLine("A", a),
    sideLine("B", b),
    `  decided on ${metric}, round by round: ${fmt(adv.ratio!.median)}x, change ${changeText(verdict)} (${verdict.level * 100} % interval, ${adv.ratio!.runs.length} rounds); ${generatorLine}`,
    `  req/s, B over A: ${reqPerSec ? changeText(reqPerSec) : "n/a"}; CPU per request, A over B: ${cpuPerRequest ? changeText(cpuPerRequest) : "n/a"}`,
    `  sessions: ${i.sessions} (fresh processes of both, warmed up), medians ${sessionRatios.map((r) => fmt(r)).join(", ")}; noise floor ${pc(i.noise)} (the standard deviation of two processes of one file, in the interval as ${pc(i.noise)} / sqrt(${i.sessions}))`,
    `  this run could have seen a change of ${verdict.seen} or more (80 % of the time)${i.same ? "; an A/A run: this is the machine's noise floor for a comparison this long" : ""}`,
    `  to see 2 % / 5 % / 20 %: ${toSee
      .filter((t) => t.size !== 0.1)
      .map((t) => t.text)
      .join(" / ")} at this run's spread`,
    `  stopped ${i.stoppedBy} (${fmt(Math.round(i.seconds))} s in all)`,
    `  design: ${designText(i, generator)}`,
    ...(gate ? [`  gate (fail if slower by more than ${fmt(gate.percent)} %): ${gate.text}`] : []),
    `  again: ${command}`,
  ].join("\n");
  const row = (k: string, s: SideSummary) =>
    `| ${k} | \`${s.file}\` (${s.runtime}) | ${fmt(s.reqPerSec.median)} | ${s.cpuPerRequestUs ? `${fmt(s.cpuPerRequestUs.median)} µs` : "n/a"} |`;
  const markdown = [
    `### Is it faster? ${verdict.headline}`,
    "",
    "| | server | req/s | CPU per request |",
    "|---|---|---:|---:|",
    row("A", a),
    row("B", b),
    "",
    `Decided on ${metric}: ${changeText(verdict)} (95 % interval, median of ${adv.ratio!.runs.length} rounds, ${i.design === "side-by-side" ? "both servers loaded side by side" : "in turns"}). ` +
      `${plural(i.sessions, "session")} of fresh processes; this run could have seen ${verdict.seen} or more. ${generatorLine[0].toUpperCase()}${generatorLine.slice(1)}. Stopped ${i.stoppedBy}.` +
      (gate ? ` **Gate: ${gate.text}.**` : ""),
    "",
    `<sub>\`${command}\` · ${describeMachine().split(" · ").slice(0, 4).join(" · ")} · ${fmt(Math.round(i.seconds))} s</sub>`,
  ].join("\n");
  return {
    headline: verdict.headline,
    verdict,
    gate,
    a,
    b,
    decidedOn: adv.decidedOn,
    reading: adv.reading,
    reqPerSec,
    cpuPerRequest,
    saturatedRounds: adv.saturatedRounds,
    rounds: i.pairs,
    design: i.design,
    order: i.order,
    route: i.route,
    connections: i.connections,
    generator,
    noise: i.noise,
    sessions: i.sessions,
    sessionRatios,
    same: i.same,
    stoppedBy: i.stoppedBy,
    seconds: i.seconds,
    limitSeconds: i.limit,
    pace: i.pace,
    floor,
    toSee,
    command,
    text,
    markdown,
    fingerprint: fingerprint(),
    exitCode: gate?.failed ? 1 : 0,
  };
}
