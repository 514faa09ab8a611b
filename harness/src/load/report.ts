import { fmt, plural, times } from "../core/format";
import { cpuList } from "../core/pinning";
import { notMeasured } from "../core/readings";
import { SATURATION_CPU_PERCENT } from "../core/settings";
import type { LoadResult } from "./types";

/**
 * What set a load's pace, from the figures its table shows: a fixed rate, the load generator (at its
 * saturation line), the server (its cores busy), or, when neither was at its limit, the round trip:
 * with `c` connections each waiting for its answer, req/s is c / mean latency (Little's law). And the
 * figures that cannot be, each flagged with its likely cause rather than printed as if true. Every load
 * prints both, with its command, under the cell that ran it (loadReport, queued by runLoad).
 */

/** The server's cores: those it was pinned to, else every core of the machine. */
export function serverCores(r: Pick<LoadResult, "pinning" | "fingerprint">): number {
  return (r.pinning.server && cpuList(r.pinning.server)?.length) || r.fingerprint.cores;
}

/** A server this busy (% of all its cores) set the pace; the same line as the generator's. */
export const SERVER_BUSY_PERCENT = SATURATION_CPU_PERCENT;

/** Requests in flight by Little's law (req/s x mean latency) against what the connections can carry. */
function inFlight(r: LoadResult): { little: number; carried: number } {
  return { little: r.reqPerSec.median * (r.latencyMs.mean / 1000), carried: r.connections * r.pipelining };
}

/** What commandText() prints of a load (loadCommandText here): its command, and how its server was started. */
export interface CommandSource {
  label: string;
  command: string;
  serverCommand?: string | null;
  /** "ran": the command is what ran (wrk); "equivalent": the same load by another route (autocannon's API). Default "ran". */
  commandKind?: "ran" | "equivalent";
}

/**
 * What just ran, as command lines to paste into a terminal from the workbook's folder: one fenced
 * block, one line per load, each under a comment with its label when there are several. E.g.
 * "taskset -c 0 wrk -t1 -c100 -d5s --latency ... http://127.0.0.1:41235/json". A load that says how
 * its server was started (`serverCommand`) gets that line first, so that the block reproduces both.
 * Only what really ran is headed as such: a load whose command is an equivalent (autocannon's command
 * line for its JavaScript API, called in this process; autocannon at a fixed rate for the harness's own
 * pacer) is headed "the same load from the command line".
 */
export function loadCommandText(...loads: readonly CommandSource[]): string {
  const servers = loads.some((l) => l.serverCommand);
  // Loads of the same server (a paced load and its background, say) share its line.
  const groups = new Map<string, CommandSource[]>();
  for (const l of loads) groups.set(l.serverCommand ?? "", [...(groups.get(l.serverCommand ?? "") ?? []), l]);
  const lines = [...groups].flatMap(([server, group]) => {
    const name = (l: CommandSource) => (loads.length > 1 ? `${l.label}: ` : "");
    if (!servers) return group.flatMap((l) => (loads.length > 1 ? [`# ${l.label}`, l.command] : [l.command]));
    const by = groups.size > 1 && group.length > 1 ? ` of ${group.map((l) => l.label).join(", ")}` : "";
    const head = server ? [`# ${group.length === 1 ? name(group[0]) : ""}the server${by}`, server] : [];
    const load = (l: CommandSource) => [`# ${name(l)}the load${server ? ", from a second terminal" : ""}`, l.command];
    return [...head, ...group.flatMap(load)];
  });
  const ran = loads.every((l) => l.commandKind !== "equivalent");
  const many = loads.length > 1;
  const what = ran
    ? `The ${many ? "commands" : "command"} that ran`
    : `The same ${many ? "loads" : "load"} from the command line`;
  const when = servers ? "" : ", while the server runs";
  return `${what} (from the workbook's folder${when}):\n\n\`\`\`sh\n${lines.join("\n")}\n\`\`\``;
}

/** What set a load's pace, in a word or two (a table's column): see paceText for the sentence. */
export type Pace = "fixed rate" | "generator" | "server" | "round trip" | "not measured";

export function paceOf(r: LoadResult): Pace {
  if (r.rate != null) return "fixed rate";
  const saturated = r.generator.saturatedRuns;
  if (saturated !== null && saturated * 2 >= r.runs.length) return "generator";
  const serverPct = r.server?.cpuPercent.median ?? null;
  if (serverPct !== null && serverPct >= SERVER_BUSY_PERCENT * serverCores(r)) return "server";
  // The round trip only once the generator is known not to: where its CPU cannot be read, nothing is named.
  return saturated === null ? "not measured" : "round trip";
}

/** One sentence: what set this load's pace, with the figures it rests on. */
export function paceText(r: LoadResult): string {
  const cores = serverCores(r);
  const serverPct = r.server?.cpuPercent.median ?? null;
  const pace = paceOf(r);
  const server =
    serverPct === null
      ? "the server's CPU was not measured"
      : `the server used ${fmt(serverPct)} % of its ${cores === 1 ? "core" : `${cores} cores`}`;
  const genPct = r.generator.cpuPercent?.median ?? null;
  const gen =
    genPct === null
      ? `${r.generator.name}'s CPU was not measured`
      : `${r.generator.name} used ${fmt(genPct)} % of its core`;
  if (pace === "not measured")
    return `What set the pace: not known: ${r.generator.name}'s CPU was ${notMeasured()}; ${server}.`;
  if (pace === "fixed rate")
    return `What set the pace: the fixed rate, ${fmt(r.rate ?? Number.NaN)} req/s asked and ${fmt(r.reqPerSec.median)} served (${server}).`;
  if (pace === "generator")
    return (
      `What set the pace: the load generator (${gen}, at or above its ${SATURATION_CPU_PERCENT} % line in ` +
      `${r.generator.saturatedRuns} of ${r.runs.length} runs); ${server}: its req/s is a floor.`
    );
  if (pace === "server")
    return `What set the pace: the server: ${server.replace("the server used", "it used")}; ${gen}.`;
  const { little, carried } = inFlight(r);
  const perConnection = r.pipelining > 1 ? ` x ${r.pipelining} pipelined` : "";
  const rtt = `${plural(r.connections, "connection")}${perConnection} / ${fmt(r.latencyMs.mean)} ms mean latency`;
  const law = `${rtt} = ${fmt((carried * 1000) / r.latencyMs.mean)} req/s by Little's law, against ${fmt(r.reqPerSec.median)} measured`;
  const who = serverPct === null ? server : `neither was at its limit (${server}; ${gen})`;
  const wrkNote =
    r.generator.name === "wrk" && little > carried * 1.1
      ? " (wrk's mean counts the requests its latency correction adds: Little's law on it reads low)"
      : "";
  return `What set the pace: the round trip, as ${who}: ${law}${wrkNote}.`;
}

/**
 * Figures of a load that cannot be, each with its likely cause: a server using more CPU than the cores
 * it was pinned to (beyond the reading's resolution), and more requests in flight than its connections
 * carry. [] when every figure can be.
 */
export function implausibleFigures(r: LoadResult, tickMs = 10): string[] {
  const out: string[] = [];
  const cores = serverCores(r);
  const serverPct = r.server?.cpuPercent.median ?? null;
  if (serverPct !== null && serverPct > cores * 100) {
    // A reading of CPU time in clock ticks is off by up to a tick at each end of its window.
    const resolution = ((2 * tickMs) / (r.durationSeconds * 1000)) * 100;
    const why =
      serverPct <= cores * 100 + resolution
        ? `within the ±${fmt(resolution)} % a ${fmt(r.durationSeconds)}-s window of ${tickMs}-ms clock ticks allows: read it as ${fmt(cores * 100)} %`
        : "beyond the clock tick's error: the process was not held to its cores (a pin that did not apply, or threads started elsewhere)";
    out.push(
      `the server read ${fmt(serverPct)} % of its ${cores === 1 ? "core" : `${cores} cores`}, above their ${fmt(cores * 100)} %: ${why}`,
    );
  }
  // wrk corrects its latency for coordinated omission, adding requests that were never sent: its mean
  // reads above Little's law wherever a request took longer than the pace (paceText says so); for a
  // generator that reports only what it sent, more in flight than the connections carry cannot be.
  const { little, carried } = inFlight(r);
  if (r.generator.name !== "wrk" && little > carried * 1.1) {
    const why = "the mean latency and the req/s cover different windows (a short or uneven run)";
    out.push(
      `${fmt(little)} requests in flight by Little's law (${fmt(r.reqPerSec.median)} req/s x ${fmt(r.latencyMs.mean)} ms), ` +
        `more than the ${fmt(carried)} its connections carry (${times(little / carried)}): ${why}`,
    );
  }
  return out;
}

/** Above this many loads, their pace sentences fold under one summary line (a table beside them has the column). */
const FOLD_ABOVE = 3;

/**
 * What a cell prints under its loads by default: per load, its label, what set its pace and any figure
 * that cannot be, then the commands that reproduce them (one block). Many loads' sentences fold under a
 * line that counts each pace-setter (HTML details, which Jupyter and the book render); a flag is never folded.
 */
export function loadReport(loads: readonly LoadResult[]): string {
  const flagged = loads.flatMap((r) => implausibleFigures(r).map((f) => `**Check, ${r.label}:** ${f}.`));
  const lines = loads.map((r) => `${loads.length > 1 ? `**${r.label}**: ` : ""}${paceText(r)}`);
  if (loads.length <= FOLD_ABOVE) return [...lines, ...flagged, loadCommandText(...loads)].join("\n\n");
  const count = new Map<Pace, number>();
  for (const r of loads) count.set(paceOf(r), (count.get(paceOf(r)) ?? 0) + 1);
  const summary = [...count]
    .map(([pace, n]) => (pace === "not measured" ? `not measured in ${n}` : `the ${pace} in ${n}`))
    .join(", ");
  const folded = `<details><summary>What set the pace of these ${loads.length} loads: ${summary}</summary>\n\n${lines.join("\n\n")}\n\n</details>`;
  return [folded, ...flagged, loadCommandText(...loads)].join("\n\n");
}

/**
 * What a cell prints under paced loads (contentionRounds): the schedule set their pace by construction,
 * so the line says how well the generator kept it (its worst p99 lateness in the measured loads, against
 * the gap between two of their requests; every latency counts from when a request was due, so the
 * lateness is inside it), then the same loads from the command line (autocannon at a fixed rate: the
 * nearest equivalent, not what ran).
 */
interface PacedLine {
  label: string;
  command: string;
}
/** What pacedReport reads of a contention result (load/contention.ts). */
export interface PacedResults {
  key: string;
  cheap: { label: string; rate: number; sendLagMs: { p99: number } };
  runs: readonly { cheap: PacedLine; background: PacedLine | null }[];
}

export function pacedReport(results: readonly PacedResults[], servers: Record<string, string | null>): string {
  let worst = { lateMs: 0, label: "", gapMs: Number.POSITIVE_INFINITY };
  for (const r of results) {
    if (r.cheap.sendLagMs.p99 >= worst.lateMs)
      worst = { lateMs: r.cheap.sendLagMs.p99, label: r.cheap.label, gapMs: 1000 / r.cheap.rate };
  }
  const kept =
    worst.lateMs > worst.gapMs
      ? `more than the ${fmt(worst.gapMs)} ms between two of its requests: the generator fell behind, and its lateness is inside those latencies`
      : `less than the ${fmt(worst.gapMs)} ms between two of its requests`;
  const pace =
    "What set the pace: the schedule (each load paced by the harness's generator, a process of its own: a request every 1/rate s, " +
    `sent whether or not the last was answered); it sent at most ${fmt(worst.lateMs)} ms late at p99 (${worst.label}), ${kept}.`;
  const loads = results.flatMap((r) =>
    r.runs[0]
      ? [r.runs[0].cheap, ...(r.runs[0].background ? [r.runs[0].background] : [])].map((p) => ({
          label: p.label,
          command: p.command,
          serverCommand: servers[r.key] ?? null,
          commandKind: "equivalent" as const,
        }))
      : [],
  );
  return `${pace}\n\n${loadCommandText(...loads)}`;
}

/** What a cell prints under a load that stopped with an error: that it stopped, and the commands to run it again. */
export function stoppedLoadReport(err: Error, load: CommandSource): string {
  const why = (err as { summary?: string }).summary ?? err.message.split("\n")[0];
  return `**${load.label}**: the load stopped early: ${why}.\n\n${loadCommandText(load)}`;
}
