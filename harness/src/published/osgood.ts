import type { StudyClaim, StudyLoad } from "./study";

/**
 * The Osgood 0.2 post (Thomas Hunter II, Intrinsic, 2019): "Hello, World!" under wrk at 10
 * connections, Osgood 0.1.0 and 0.2.1 beside Node 12.7.0, with wrk's own output printed for each run.
 * Every figure as wrk printed it (µs written as ms here: 140.86 µs is 0.14086 ms); the machine is not
 * given, and the command loads localhost, so wrk ran on the machine it measured.
 */

/** wrk's "Latency" line: Avg, Stdev, Max, +/- Stdev. wrk 4 prints it after its correction (stats_correct). */
export interface WrkLatency {
  meanMs: number;
  stdevMs: number;
  maxMs: number;
  /** "+/- Stdev": the share of requests within one standard deviation of the mean, %. */
  withinStdevPct: number;
}

/** wrk's "Req/Sec" line: requests per second of each of its threads, Avg, Stdev, Max, +/- Stdev. */
export interface WrkPerThread {
  mean: number;
  stdev: number;
  max: number;
  /** "+/- Stdev": the share of the threads' per-second samples within one standard deviation of the mean, %. */
  withinStdevPct: number;
}

export interface PublishedHelloRow {
  /** As a table shows the row. */
  label: string;
  /** The version as the post's comment on the command names it. */
  version: string;
  /** wrk's "Requests/sec" line. */
  reqPerSec: number;
  latency: WrkLatency;
  perThread: WrkPerThread;
}

export interface PublishedHelloTable {
  title: string;
  source: string;
  url: string;
  /** The command every row ran, as the post prints it. */
  command: string;
  /** wrk as it announced itself. */
  generator: string;
  connections: number;
  /** wrk's default: the command sets no -t, so 2 threads of 5 connections each. */
  threads: number;
  durationSeconds: number;
  /** The machine, as far as the post names it. */
  machine: string;
  /** Where the load generator ran, as the study states it (here: read from the command's localhost). */
  generatorRan: string;
  /** The run as the post gives it, for asPublished: its command, where wrk ran, the machine, the versions. */
  load: StudyLoad;
  /** What the post says of its figures, and where the workbook measures each. */
  claims: StudyClaim[];
  rows: PublishedHelloRow[];
}

const POST_RAN = {
  command: "wrk -d 60 -c 10 http://localhost:3000/hello",
  generatorRan: "on the machine it measured (the command loads localhost)",
  machine: "not given",
};
const POST_LOAD = { ...POST_RAN, generatorOnServer: true, versions: { Node: "12.7.0", wrk: "4.0.0" } };

/**
 * The Osgood post's end-to-end benchmark (2019), wrk's output as the post prints it (`wrk -d 60 -c 10
 * http://localhost:3000/hello`, wrk 4.0.0, 2 threads; machine not given): Osgood 0.1.0 (25,261.70
 * req/s, mean 3.26 ms, max 123.57 ms), 0.2.1 (77,449.91, 140.86 µs) and Node 12.7.0 (31,159.16, 321.69
 * µs), µs written as ms. Notebook 05 sets each printed mean beside Little's law's 10 / req/s (Osgood
 * 0.1's is 8x it: wrk's correction after a long tail). Notebook 07's `publishedThreading` takes its
 * rows from here.
 */
export const publishedOsgood: PublishedHelloTable = {
  title: "Osgood 0.1 -> 0.2 (2019)",
  source:
    'The Osgood 0.2 post ("Osgood Performance Gains", Thomas Hunter II, Intrinsic, 2019): a "Hello, World!" handler on Osgood 0.1.0 and 0.2.1 and on Node 12.7.0, one 60-s wrk run each, wrk\'s output printed in full.',
  url: "https://dev.to/tlhunter/osgood-performance-gains-n59",
  command: POST_RAN.command,
  generator: "wrk 4.0.0 [epoll]",
  connections: 10,
  threads: 2,
  durationSeconds: 60,
  machine: POST_RAN.machine,
  generatorRan: POST_RAN.generatorRan,
  load: POST_LOAD,
  claims: [
    {
      claim: "0.2.1 served 3.0x the req/s of 0.1.0 at 10 connections",
      testedIn: "its own rows (the table of its wrk output): the ratio computed from them",
    },
    {
      claim: "the latency's standard deviation fell by an order of magnitude from 0.1 to 0.2",
      testedIn: "its own rows: the two standard deviations set side by side",
    },
    {
      claim: "Osgood ran faster as the concurrency rose (it is built on Tokio's work-stealing scheduler)",
      testedIn: "Node's side of it: node:http swept over connections here (Osgood itself does not run here)",
    },
    {
      claim:
        "0.2.1's mean latency is under half of Node's but its maximum is higher, which the post reads as room to tune garbage collection",
      testedIn: "its own rows for the figures; node:http's maximum against its longest GC pause, here",
    },
    {
      claim: "optional auto-scaling workers, still to come, gave 2.5x over osgood@0.1.0",
      testedIn: null,
      because:
        "Osgood does not run here (the post describes it as released as a binary, which the workbook's npm install does not fetch), and the post prints no run of the workers",
    },
    {
      claim: "the code of these benchmarks sits in the Osgood repository's benchmarks/ folder",
      testedIn: null,
      because: "it is a pointer, not a measurement: the workbook loads its own node:http Hello World",
    },
  ],
  rows: [
    {
      label: "Osgood 0.1",
      version: "osgood 0.1.0",
      reqPerSec: 25_261.7,
      latency: { meanMs: 3.26, stdevMs: 9.91, maxMs: 123.57, withinStdevPct: 92.77 },
      perThread: { mean: 12_690, stdev: 2_910, max: 16_980, withinStdevPct: 73.83 },
    },
    {
      label: "Osgood 0.2",
      version: "osgood 0.2.1",
      reqPerSec: 77_449.91,
      latency: { meanMs: 0.14086, stdevMs: 0.2194, maxMs: 15.27, withinStdevPct: 97.41 },
      perThread: { mean: 38_920, stdev: 2_300, max: 45_890, withinStdevPct: 71.38 },
    },
    {
      label: "Node 12.7",
      version: "node v12.7.0",
      reqPerSec: 31_159.16,
      latency: { meanMs: 0.32169, stdevMs: 0.09695, maxMs: 11.08, withinStdevPct: 98.41 },
      perThread: { mean: 15_660, stdev: 1_180, max: 17_500, withinStdevPct: 76.54 },
    },
  ],
};
