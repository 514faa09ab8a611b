// Notebook 03's own helpers (the shared harness, `wb`, keeps what two notebooks use).
import { spawnSync } from "node:child_process";
import * as wb from "@workbook/harness";

/** A load generator's flags as a command line gives them: threads (-t), connections (-c), duration (-d or -z). */
export interface Flags {
  tool: string;
  threads: number | null;
  connections: number | null;
  seconds: number | null;
}

const SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600 };

/** The flags of a wrk or oha command line ("wrk -t12 -c500 -d5m --latency", "oha -c 450 -z 10s"). */
export function flagsOf(command: string): Flags {
  const found = /(?:^|[\s/])(wrk|oha|autocannon)\b/.exec(command);
  const tool = found?.[1] ?? "?";
  const args = found ? command.slice(found.index + found[0].length) : command; // not taskset's -c
  const flag = (name: string) => new RegExp(`(?:^|\\s)-${name}\\s*(\\S+)`).exec(args)?.[1] ?? null;
  const number = (v: string | null) => (v === null ? null : Number.parseInt(v, 10));
  const time = flag("d") ?? flag("z");
  const unit = time ? (/[smh]$/.exec(time)?.[0] ?? "s") : "s";
  return {
    tool,
    threads: number(flag("t")),
    connections: number(flag("c")),
    seconds: time === null ? null : Number.parseFloat(time) * SECONDS[unit],
  };
}

/** Whether a command is on this machine's PATH. */
const installed = (cmd: string) => spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0;

/**
 * What differs between a study's command and the one that ran here, one phrase each: the generator,
 * its threads, the connections and the duration, read from the two command lines; nothing where
 * they agree.
 */
export function differences(published: string, ran: wb.LoadResult): string[] {
  const [p, r] = [flagsOf(published), flagsOf(ran.command)];
  const out: string[] = [];
  if (p.tool !== r.tool) {
    const why = installed(p.tool) ? "the harness loads with wrk" : `${p.tool} is not installed here`;
    out.push(`${r.tool} in place of ${p.tool} (${why})`);
  }
  if (p.threads !== null && p.threads !== r.threads)
    out.push(`${r.threads ?? "?"} wrk thread${r.threads === 1 ? "" : "s"}, not ${p.threads}: one per core it is given`);
  if (p.connections !== null && p.connections !== r.connections)
    out.push(`${r.connections} connections, not ${p.connections}`);
  if (p.seconds !== null && p.seconds !== ran.durationSeconds)
    out.push(`${ran.durationSeconds} s a run, not ${p.seconds} s (the ${wb.settings().name} profile)`);
  return out;
}

/** A study's command beside the command that ran here and what differs: a Markdown table. */
export function asPublished(rows: { study: string; published: string; ran: wb.LoadResult; also?: string }[]): string {
  return wb.markdownTable(
    rows.map((row) => ({
      study: row.study,
      "as published": `\`${row.published}\``,
      "ran here": `\`${row.ran.command}\``,
      "what differs": [...differences(row.published, row.ran), ...(row.also ? [row.also] : [])].join("; ") || "nothing",
    })),
  );
}
