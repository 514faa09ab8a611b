import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { markdownTable } from "../charts/tables";
import { fmt } from "../core/format";
import { repoRoot } from "../core/paths";
import { pinning } from "../core/pinning";
import { settings } from "../core/settings";
import type { LoadResult } from "../load/types";
import type { StudyLoad } from "./study";

/**
 * A study's command beside the one that ran here: what each says of the load (generator, route,
 * connections, threads, duration, warm-up, where the generator ran, the versions) and every aspect in
 * which they differ, with the last full-length run of `make as-published` (notebooks/as-published.json)
 * where there is one. tests/unit/as-published.test.js.
 */

/** A load as a command line gives it, the tool's defaults filled in where the command sets none. */
export interface ParsedLoad {
  /** "wrk", "autocannon", "oha" (or the first word, for another tool). */
  tool: string;
  method: string;
  /** The route its URL names, query included ("/blog", "/"); null where the command names no URL. */
  path: string | null;
  connections: number | null;
  /** wrk's threads (its default 2 where the command sets none); null for a tool without the flag. */
  threads: number | null;
  /** Seconds of load; null where the tool runs to a count of requests instead (oha without -z). */
  seconds: number | null;
}

interface ToolSpec {
  /** Flags that take a value (a word after them, or joined: "-c100"). */
  valued: string[];
  connections: string;
  duration: string | null;
  method: string | null;
  threads: string | null;
  defaults: { connections: number; threads: number | null; seconds: number | null };
}

// Each tool's flags and defaults, as its own help gives them (wrk 4, autocannon 8, oha 1).
const TOOLS: Record<string, ToolSpec> = {
  wrk: {
    valued: ["-c", "-t", "-d", "-s", "-H", "--timeout"],
    connections: "-c",
    duration: "-d",
    method: null,
    threads: "-t",
    defaults: { connections: 10, threads: 2, seconds: 10 },
  },
  autocannon: {
    valued: ["-c", "-d", "-a", "-m", "-p", "-H", "-b", "-t", "-w", "-R", "-i", "-o"],
    connections: "-c",
    duration: "-d",
    method: "-m",
    threads: null,
    defaults: { connections: 10, threads: null, seconds: 10 },
  },
  oha: {
    valued: ["-c", "-z", "-n", "-m", "-H", "-d", "-q", "-T", "-A", "-a"],
    connections: "-c",
    duration: "-z",
    method: "-m",
    threads: null,
    defaults: { connections: 50, threads: null, seconds: null },
  },
};

/** A command line's words, quotes removed: 'a b' and "a b" are one word. */
function words(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** "10m", "5m", "60", "10s", "2h" as seconds. */
function secondsOf(value: string): number {
  const m = /^(\d+(?:\.\d+)?)([smh]?)$/.exec(value);
  if (!m) return Number.NaN;
  return Number(m[1]) * { "": 1, s: 1, m: 60, h: 3600 }[m[2] as "" | "s" | "m" | "h"];
}

/** The route a URL-like word names: "http://h:(PORT)/blog" is "/blog", "localhost:3000/seed/v1" "/seed/v1", "http://127.0.0.1:8080" "/". */
function routeOf(word: string): string {
  const rest = word.replace(/^[a-z]+:\/\//i, "");
  const slash = rest.indexOf("/");
  return slash === -1 ? "/" : rest.slice(slash);
}

const looksLikeUrl = (w: string) => /^[a-z]+:\/\//i.test(w) || /^[\w.-]+:[^\s/]*\//.test(w) || /^localhost[:/]/.test(w);

/**
 * A load generator's command line read as the tool reads it (after any `VAR=value` words, `taskset -c
 * N` and `npx`): its tool, method, route, connections, threads and seconds, each tool's default filled in
 * where the command sets none (wrk: 10 connections, 2 threads, 10 s; autocannon: 10 connections, 10 s;
 * oha: 50 connections, and a count of requests rather than seconds without -z). Flags may be joined to
 * their value ("-c100") or not ("-c 100").
 */
export function parseLoad(command: string): ParsedLoad {
  const all = words(command);
  let i = 0;
  while (i < all.length && /^[A-Z_][A-Z0-9_]*=/.test(all[i])) i++;
  if (all[i] === "taskset") i += 3;
  if (all[i] === "npx") i++;
  const tool = all[i] ?? "?";
  const spec = TOOLS[tool];
  const flags = new Map<string, string>();
  let url: string | null = null;
  for (let j = i + 1; j < all.length; j++) {
    const w = all[j];
    const joined = spec?.valued.find((f) => f.length === 2 && w.startsWith(f) && w.length > 2 && !w.startsWith("--"));
    if (spec?.valued.includes(w)) {
      flags.set(w, all[j + 1] ?? "");
      j++;
    } else if (joined) flags.set(joined, w.slice(2));
    else if (!w.startsWith("-") && url === null && looksLikeUrl(w)) url = w;
  }
  const get = (flag: string | null | undefined) => (flag ? (flags.get(flag) ?? null) : null);
  const connections = get(spec?.connections);
  const threads = get(spec?.threads);
  const duration = get(spec?.duration);
  return {
    tool,
    method: (get(spec?.method) ?? "GET").toUpperCase(),
    path: url === null ? null : routeOf(url),
    connections: connections !== null ? Number(connections) : (spec?.defaults.connections ?? null),
    threads: threads !== null ? Number(threads) : (spec?.defaults.threads ?? null),
    seconds: duration !== null ? secondsOf(duration) : (spec?.defaults.seconds ?? null),
  };
}

/** One aspect in which a study's load and the one here differ, each side in words. */
export interface LoadDifference {
  aspect: string;
  published: string;
  here: string;
}

/** What ran here, as the differences read it: a load's own fields, or a full-length record's. */
export interface RanLoad {
  tool: string;
  method: string;
  path: string;
  connections: number;
  /** wrk's -t; null for autocannon. */
  threads: number | null;
  seconds: number;
  warmupSeconds: number;
}

/** A LoadResult as RanLoad: its generator, method, route (query included), connections, wrk's -t, seconds and warm-up. */
export function ranLoad(r: LoadResult): RanLoad {
  const url = new URL(r.url);
  const t = /\s-t(\d+)\b/.exec(r.command);
  return {
    tool: r.generator.name,
    method: r.method,
    path: url.pathname + url.search,
    connections: r.connections,
    threads: r.generator.name === "wrk" && t ? Number(t[1]) : null,
    seconds: r.durationSeconds,
    warmupSeconds: r.warmupSeconds,
  };
}

/** What the row says besides the two loads: the versions here, the route's meaning, anything else. */
export interface DifferenceContext {
  /** The versions that ran here, by the names the study uses ("Node", "express"); compared with the study's. */
  versions?: Record<string, string>;
  /** Why a route of another name answers the same here ("/random here answers what its /json answered"). */
  route?: string;
  /** Where the duration here comes from ("the quick profile"); default the active profile. */
  durationFrom?: string;
}

/** Whether a tool is on this machine's PATH (oha, for one, usually is not). */
function installed(tool: string): boolean {
  return (process.env.PATH ?? "")
    .split(path.delimiter)
    .some((dir) => dir !== "" && fs.existsSync(path.join(dir, tool)));
}

/**
 * Every aspect in which a study's load and the one that ran here differ: the load generator (and why:
 * the tool is not installed, or the workbook measures with wrk), the route (method and path, the
 * study's where its command names one), connections, wrk's threads, seconds, warm-up (where the study
 * says), where the generator ran (here: on this machine, on a core of its own when pinned), and each
 * version either side names. Nothing where they agree; the machine is said once under a table
 * (`asPublished`), not per row.
 */
export function loadDifferences(study: StudyLoad, ran: RanLoad, ctx: DifferenceContext = {}): LoadDifference[] {
  const p = parseLoad(study.command);
  const out: LoadDifference[] = [];
  const add = (aspect: string, published: string, here: string) => out.push({ aspect, published, here });
  if (p.tool !== ran.tool) {
    const why = installed(p.tool) ? "the workbook measures with wrk" : `${p.tool} is not installed here`;
    add("load generator", p.tool, `${ran.tool} (${why})`);
  }
  const route = `${ran.method} ${ran.path}`;
  if (p.path === null) add("route", "none named in its command", route);
  else if (p.path !== ran.path || p.method !== ran.method)
    add("route", `${p.method} ${p.path}`, ctx.route ? `${route} (${ctx.route})` : route);
  if (p.connections !== null && p.connections !== ran.connections)
    add("connections", fmt(p.connections), fmt(ran.connections));
  if (p.threads !== null && ran.threads !== null && p.threads !== ran.threads)
    add("threads", fmt(p.threads), `${fmt(ran.threads)} (one per CPU the generator is given)`);
  else if (p.tool !== ran.tool && ran.threads !== null)
    add("threads", `${p.tool}'s own`, `${fmt(ran.threads)} (one per CPU the generator is given)`);
  if (p.seconds !== null && p.seconds !== ran.seconds) {
    const from = ctx.durationFrom ?? `the ${settings().name} profile`;
    add("duration", `${fmt(p.seconds)} s`, `${fmt(ran.seconds)} s (${from})`);
  }
  if (study.warmupSeconds !== undefined && study.warmupSeconds !== ran.warmupSeconds)
    add("warm-up", `${fmt(study.warmupSeconds)} s`, `${fmt(ran.warmupSeconds)} s`);
  if (study.generatorOnServer !== true) {
    const pin = pinning();
    const here = pin.enabled
      ? `on this machine, on CPU ${pin.generator} (the server on CPU ${pin.server})`
      : "on this machine";
    add("where the load generator ran", study.generatorOnServer === null ? "not stated" : study.generatorRan, here);
  }
  const names = new Set([...Object.keys(study.versions), ...Object.keys(ctx.versions ?? {})]);
  for (const name of names) {
    const [then, now] = [study.versions[name], ctx.versions?.[name]];
    if (then === now || now === undefined) continue;
    add(`${name} version`, then ?? "none named", now);
  }
  return out;
}

/** One entry of `make as-published`'s record: a study's command run at its own length on this machine. */
export interface AsPublishedEntry {
  /** The study's title and what ran ("Osgood 0.1 -> 0.2 (2019), node:http"). */
  study: string;
  /** OPTIONAL: when this run ran, where the record was made in parts (`--merge`); else the record's `ranAt`. */
  ranAt?: string;
  /** The study's command, verbatim. */
  published: string;
  /** What ran, as RanLoad reads it. */
  ran: RanLoad;
  /** The command that ran (wrk's; for autocannon, its CLI's equivalent). */
  command: string;
  serverCommand: string | null;
  /** The req/s of each run (several where the study kept the best of several), and the median. */
  reqPerSecRuns: number[];
  reqPerSec: number;
  latencyMs: { mean: number; p99: number; max: number };
  cpuPerRequestUs: number | null;
  generatorSaturated: boolean | null;
  errors: number;
  statusCodes: Record<string, number>;
  bytesPerSec: number;
  rssPeakMB: number | null;
  threadsPeak: number | null;
}

/** `make as-published`'s record: when, where and how long, and each study's runs by key. */
export interface AsPublishedRecord {
  ranAt: string;
  /** The machine it ran on, in words, and its fingerprint's short line. */
  machine: string;
  node: string;
  generator: string;
  pinning: string;
  /** How long the whole run took, s (made in parts: every part's time added). */
  tookSeconds: number;
  /** OPTIONAL: how many runs the whole plan has, so a record made in parts says how many it holds. */
  planned?: number;
  runs: Record<string, AsPublishedEntry>;
  /** The runs that could not run, each with why (Bun absent, an app that failed). */
  skipped?: Record<string, string>;
}

/** Where `make as-published` writes its record (committed: the notebooks show it beside their quick runs). */
export const AS_PUBLISHED_FILE = path.join(repoRoot, "notebooks", "as-published.json");

/** `make as-published`'s last record, or null where there is none (or it cannot be read). */
export function readAsPublished(file: string = AS_PUBLISHED_FILE): AsPublishedRecord | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as AsPublishedRecord;
  } catch {
    return null;
  }
}

/** A load as an entry of the record: its figures, what ran, and the study's command beside it. */
export function asPublishedEntry(study: string, published: StudyLoad, r: LoadResult): AsPublishedEntry {
  return {
    study,
    published: published.command,
    ran: ranLoad(r),
    command: r.command,
    serverCommand: r.serverCommand,
    reqPerSecRuns: r.reqPerSec.runs,
    reqPerSec: r.reqPerSec.median,
    latencyMs: { mean: r.latencyMs.mean, p99: r.latencyMs.p99, max: r.latencyMs.max },
    cpuPerRequestUs: r.cpuPerRequestUs?.median ?? null,
    generatorSaturated: r.generator.saturated,
    errors: r.errors + r.timeouts,
    statusCodes: r.statusCodes,
    bytesPerSec: r.bytesPerSec,
    rssPeakMB: r.server?.rssPeakMB ?? null,
    threadsPeak: r.server?.threadsPeak ?? null,
  };
}

/** This machine in words: its CPU and how many CPUs. */
export function thisMachine(): string {
  const cpus = os.cpus();
  return `${cpus.length ? cpus[0].model.trim() : "an unknown CPU"}, ${os.availableParallelism()} CPUs`;
}

export interface AsPublishedRow {
  /** OPTIONAL: the row's key in `make as-published`'s record, where it runs this load at full length. */
  key?: string;
  /** What the row is ("Osgood 0.1 -> 0.2 (2019), node:http"). */
  study: string;
  /** The study's load, as it gives it (a `load` of wb.published's tables). */
  published: StudyLoad;
  /** The load that ran here; null where none ran in this run (the full-length record alone is shown). */
  ran: LoadResult | null;
  /** OPTIONAL: the versions that ran here, by the study's names. Default: this Node. */
  versions?: Record<string, string>;
  /** OPTIONAL: why a route of another name answers the same here. */
  route?: string;
  /** OPTIONAL: anything else that differs, in words. */
  also?: string[];
}

/** The days a record's runs ran on: the record's own, and each part's where it was made in parts. */
function recordDates(record: AsPublishedRecord): string {
  const days = [record.ranAt, ...Object.values(record.runs).map((e) => e.ranAt ?? record.ranAt)].map((d) =>
    d.slice(0, 10),
  );
  const unique = [...new Set(days)].sort();
  return unique.length > 1 ? `${unique.slice(0, -1).join(", ")} and ${unique.at(-1)}` : unique[0];
}

/** How many runs the record holds, of how many the plan has where it says. */
function recordedRuns(record: AsPublishedRecord): string {
  const n = Object.keys(record.runs).length;
  const runs = `${fmt(n)} run${n === 1 ? "" : "s"}`;
  if (record.planned === undefined) return runs;
  return n >= record.planned ? `all ${fmt(record.planned)} runs` : `${runs} of the ${fmt(record.planned)} planned`;
}

const fullLength = (e: AsPublishedEntry | undefined, skipped: string | undefined) => {
  if (!e) return skipped ? `not run: ${skipped}` : "not in the record";
  const best =
    e.reqPerSecRuns.length > 1 ? `best of ${e.reqPerSecRuns.length} ${fmt(Math.max(...e.reqPerSecRuns))}, median ` : "";
  const sat = e.generatorSaturated ? ", the generator saturated" : "";
  return `${best}${fmt(e.reqPerSec)} req/s, mean ${fmt(e.latencyMs.mean)} ms, p99 ${fmt(e.latencyMs.p99)} ms, ${fmt(e.ran.seconds)} s${sat}`;
};

/**
 * A study's loads beside the ones that ran here, as a Markdown table: the study's command, the command
 * that ran, every aspect in which they differ (`loadDifferences`: generator, route, connections, threads,
 * duration, warm-up, where the generator ran, versions) and, where `make as-published` has run the row's
 * `key`, its full-length run (req/s, mean and p99 latency). Under it, the machines (the study's and this
 * one) and when the full-length record was taken, where, and how long `make as-published` took.
 * `rows[i].ran` null: no load in this run (the row shows the record's, and the differences of the
 * record's run). A study that printed no command for a row (`printed: false`) is marked so.
 *
 * @example
 * wb.markdown(wb.published.beside([{ key: "osgood/node-http", study: "Osgood 0.2, node:http",
 *   published: wb.published.osgood.load, ran: hello }]));
 */
export function asPublished(rows: readonly AsPublishedRow[], record = readAsPublished()): string {
  const table = markdownTable(
    rows.map((row) => {
      const entry = row.key ? record?.runs[row.key] : undefined;
      const ran = row.ran ? ranLoad(row.ran) : (entry?.ran ?? null);
      const ctx: DifferenceContext = {
        versions: row.versions ?? { Node: row.ran ? process.versions.node : (record?.node ?? process.versions.node) },
        route: row.route,
        durationFrom: row.ran ? undefined : "make as-published",
      };
      const diffs = ran ? loadDifferences(row.published, ran, ctx) : [];
      const said = [
        ...diffs.map((d) => `${d.aspect}: here ${d.here}, in the study ${d.published}`),
        ...(row.also ?? []),
      ];
      const cmd = `\`${row.published.command}\`${row.published.printed === false ? " (its caption, written out: it printed no command)" : ""}`;
      return {
        study: row.study,
        "as published": cmd,
        "ran here": row.ran ? `\`${row.ran.command}\`` : "not in this run",
        "what differs": ran ? said.join("; ") || "nothing" : "nothing ran",
        "at full length (make as-published)": row.key
          ? fullLength(entry, record?.skipped?.[row.key])
          : "not part of it",
      };
    }),
  );
  const machines = [...new Set(rows.map((r) => r.published.machine))];
  const notes = [...new Set(rows.flatMap((r) => (r.published.note ? [r.published.note] : [])))];
  const when = record
    ? `The full-length runs: \`make as-published\` on ${recordDates(record)}, on ${record.machine} (Node ${record.node}, ${record.generator}; ${record.pinning}): ${recordedRuns(record)}, ${fmt(Math.round(record.tookSeconds / 60))} min in all.`
    : "No full-length record yet: `make as-published` runs every study's command at its own length and records it.";
  return [
    table,
    `Machine: the study's: ${machines.join("; ")}; this one: ${thisMachine()}.`,
    ...notes.map((n) => `The study: ${n}.`),
    when,
  ].join("\n\n");
}
