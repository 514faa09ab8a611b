import type { StudyLoad } from "./study";

/**
 * Published framework benchmarks, quoted (not measured here) so that a notebook can set its own
 * ratios beside them. Absolute req/s from another machine, Node and load generator cannot be
 * compared with ours; each table's ratios to its own node:http row can.
 */
export interface PublishedRow {
  /** As the source names it. */
  label: string;
  /** The matching framework of the registry (wb.frameworks), or null when the workbook has none. */
  framework: string | null;
  /** Requests per second as published; null when the source shows no figure. */
  reqPerSec: number | null;
  /** Mean latency as published, ms, where the source printed it (for Little's law). */
  meanLatencyMs?: number;
  /** Why there is no figure, or anything else the source says about the row. */
  note?: string;
}

export interface PublishedTable {
  id: string;
  /** Short name for table headers. */
  title: string;
  /** Where the figures come from and how they were taken. */
  source: string;
  runtime: string;
  /** The command as the source printed it, short (its flags). */
  command: string;
  /** Connections the command asked for. */
  connections: number;
  /** The machine, as far as the source names it. */
  machine: string;
  /** Where the load generator ran, as the source states it. */
  generatorRan: string;
  /** Connections the generator reported it could not open, per run, where the source printed them. */
  connectErrors?: number;
  /** The label of the row every ratio is taken against (the source's plain node:http server). */
  baseline: string;
  rows: PublishedRow[];
}

/** One row of the 2022 table as its table prints it. */
export interface Table2022Figures {
  reqPerSec: number;
  /** Transfer/sec, MB as wrk prints it (MiB). */
  transferMB: number;
  latencyMs: number;
  /** Memory, MB; null where the table's cell is empty. */
  memoryMB: number | null;
}

/** The wrk output the 2022 post prints under its table, for one framework. */
export interface Wrk2022Output {
  reqPerSec: number;
  transferMB: number;
  /** Thread Stats, Latency: Avg, Stdev, Max (ms) and +/- Stdev (%). */
  latency: { meanMs: number; stdevMs: number; maxMs: number; withinStdevPct: number };
  /** Thread Stats, Req/Sec (per thread): Avg, Stdev, Max and +/- Stdev (%). */
  perThread: { mean: number; stdev: number; max: number; withinStdevPct: number };
  /** Latency Distribution, ms. */
  percentilesMs: { p50: number; p75: number; p90: number; p99: number };
  /** "N requests in 5.00m, X read". */
  requests: number;
  read: string;
  socketErrors: { connect: number; read: number; write: number; timeout: number };
}

export interface Row2022 extends PublishedRow {
  /** The version the table gives ("-" for http, Node's own: null). */
  version: string | null;
  table: Table2022Figures;
  wrk: Wrk2022Output;
}

export interface Table2022 extends PublishedTable {
  /** Every run's command, verbatim as the post's wrk outputs print it. */
  load: StudyLoad;
  rows: Row2022[];
}

const out = (
  reqPerSec: number,
  transferMB: number,
  latency: [number, number, number, number],
  perThread: [number, number, number, number],
  p: [number, number, number, number],
  requests: number,
  read: string,
  socket: [number, number, number, number],
): Wrk2022Output => ({
  reqPerSec,
  transferMB,
  latency: { meanMs: latency[0], stdevMs: latency[1], maxMs: latency[2], withinStdevPct: latency[3] },
  perThread: { mean: perThread[0], stdev: perThread[1], max: perThread[2], withinStdevPct: perThread[3] },
  percentilesMs: { p50: p[0], p75: p[1], p90: p[2], p99: p[3] },
  requests,
  read,
  socketErrors: { connect: socket[0], read: socket[1], write: socket[2], timeout: socket[3] },
});

/**
 * A 2022 blog post's table of Node.js web frameworks (Node v16.14.0, `wrk -t 12 -c 500
 * http://127.0.0.1:8080 -d 5m --latency`, so wrk on the machine it measured; machine not given): each
 * row with the version the table gives, its figures as the table prints them (`table`) and as its own
 * wrk output prints them (`wrk`, which the post shows under the table). Where they disagree the table
 * copied another row (`inconsistencies2022` in notebook 03 finds them). Every run printed "Socket
 * errors: connect 251": about 249 of the 500 connections opened. trek-engine and egg are not run here
 * (`note`).
 */
export const published2022: Table2022 = {
  id: "study-2022",
  title: "2022 study",
  source:
    "A 2022 blog post's framework table (Node v16.14.0, one 5-minute wrk run per framework; its address was not kept with the figures), which printed transfer/s, latency and memory beside req/s, each framework's wrk output under it.",
  runtime: "Node v16.14.0",
  command: "wrk -t12 -c500 -d5m --latency",
  connections: 500,
  machine: "not given",
  generatorRan: "on the machine it measured (the command loads 127.0.0.1)",
  connectErrors: 251,
  baseline: "http",
  load: {
    command: "wrk -t 12 -c 500 http://127.0.0.1:8080 -d 5m --latency",
    generatorRan: "on the machine it measured (the command loads 127.0.0.1)",
    generatorOnServer: true,
    machine: "not given",
    versions: { Node: "16.14.0" },
    note: "the post does not say what its servers answered at /",
  },
  rows: [
    {
      label: "http",
      framework: "node-http",
      version: null,
      reqPerSec: 39_006,
      meanLatencyMs: 6.18,
      table: { reqPerSec: 39_006.28, transferMB: 6.66, latencyMs: 6.18, memoryMB: 37 },
      wrk: out(
        39_006.28,
        6.66,
        [6.18, 0.69089, 60.98, 82.44],
        [3_570, 2_500, 10_750, 43.96],
        [5.93, 6.6, 7.06, 7.79],
        11_706_391,
        "1.95GB",
        [251, 190, 0, 0],
      ),
    },
    {
      label: "trek-engine",
      framework: null,
      version: "1.0.5",
      reqPerSec: 36_037,
      note: "left out, though it is on npm (1.0.5): it looks abandoned, every dependency pinned to an exact 2017-era release (cookies 0.7.1, accepts 1.3.4), and a benchmark of it would measure those old packages as much as the framework",
      table: { reqPerSec: 36_036.96, transferMB: 4.61, latencyMs: 6.69, memoryMB: 39 },
      wrk: out(
        36_036.96,
        4.61,
        [6.69, 0.79496, 76.35, 84.22],
        [3_620, 1_550, 10_600, 49.68],
        [6.42, 7.07, 7.7, 8.55],
        10_808_960,
        "1.35GB",
        [251, 150, 0, 241],
      ),
    },
    {
      label: "micro",
      framework: "micro",
      version: "9.3.4",
      reqPerSec: 34_086,
      table: { reqPerSec: 34_085.83, transferMB: 6.66, latencyMs: 6.18, memoryMB: null },
      wrk: out(
        34_085.83,
        4.36,
        [7.07, 0.64919, 50.83, 88.21],
        [2_860, 1_390, 9_290, 69.35],
        [6.88, 7.11, 7.92, 9.15],
        10_228_556,
        "1.28GB",
        [251, 212, 0, 0],
      ),
    },
    {
      label: "fastify",
      framework: "fastify",
      version: "3.28.0",
      reqPerSec: 31_470,
      table: { reqPerSec: 31_469.97, transferMB: 5.25, latencyMs: 7.66, memoryMB: 47 },
      wrk: out(
        31_469.97,
        5.25,
        [7.66, 0.82816, 75.68, 84.24],
        [2_880, 1_580, 6_430, 56.9],
        [7.35, 7.9, 8.76, 9.71],
        9_443_512,
        "1.54GB",
        [251, 162, 0, 0],
      ),
    },
    {
      label: "koa",
      framework: "koa",
      version: "2.13.4",
      reqPerSec: 30_671,
      table: { reqPerSec: 30_671.38, transferMB: 5.12, latencyMs: 7.85, memoryMB: 41 },
      wrk: out(
        30_671.38,
        5.12,
        [7.85, 0.66755, 30.75, 85.94],
        [3_080, 1_680, 11_130, 51.54],
        [7.66, 7.94, 8.87, 10.03],
        9_204_206,
        "1.50GB",
        [251, 94, 0, 0],
      ),
    },
    {
      label: "express",
      framework: "express",
      version: "4.17.3",
      reqPerSec: 9_930,
      table: { reqPerSec: 9_929.53, transferMB: 2.25, latencyMs: 24.26, memoryMB: 43 },
      wrk: out(
        9_929.53,
        2.25,
        [24.26, 2.29, 116.6, 89.97],
        [832.38, 594.66, 1_970, 56.93],
        [23.42, 25.14, 26.43, 32.46],
        2_979_733,
        "676.32MB",
        [251, 234, 0, 0],
      ),
    },
    {
      label: "egg",
      framework: null,
      version: "2.35.0",
      reqPerSec: 13_294,
      note: "left out: an egg app is a folder started as a cluster (egg-scripts forks a master, an agent and one worker per core), with default plugins and logs written to files; set against single-process servers it would compare deployments, not frameworks (apps/frameworks/README.md)",
      table: { reqPerSec: 13_294.07, transferMB: 2.25, latencyMs: 18.12, memoryMB: 60 },
      wrk: out(
        13_294.07,
        4.68,
        [18.12, 1.53, 122.37, 95.31],
        [1_670, 555.58, 4_690, 44.85],
        [17.67, 18.81, 19.2, 23.2],
        3_989_788,
        "1.37GB",
        [251, 216, 0, 0],
      ),
    },
  ],
};
