import type { StudyClaim, StudyLoad } from "./study";

/**
 * "Keeping Node.js Fast" (David Mark Clements, Smashing Magazine, 2018): the slow restify etag server,
 * quoted (never measured here) so that notebook 01 can set its own runs beside it, and notebook 03 its
 * Fastify-over-restify rounds. Absolute req/s from the article's machine cannot be compared with ours;
 * the ratios between its steps can, when the steps were measured alike.
 */

export type EtagStep = "slow" | "fixed" | "optimised";

export interface EtagPublishedRow {
  step: EtagStep;
  /** As the article describes the step. */
  label: string;
  /** autocannon connections of the published run. */
  connections: number;
  reqPerSec: number;
  meanLatencyMs: number;
  /** The run as the article gives it: its command, where autocannon ran, the machine, the versions. */
  load: StudyLoad;
}

/** One target of the article's cost argument: a gain over the starting point, or a rate to reach. */
export interface EtagTarget {
  /** "times": `value` times the starting req/s; "reqPerSec": `value` req/s. */
  kind: "times" | "reqPerSec";
  value: number;
  /** As the article puts it, in the workbook's words. */
  text: string;
}

/** What clinic doctor counted in the article's run, and what each handle was. */
export interface EtagHandles {
  activeHandles: number;
  /** The parts that add up to `activeHandles`. */
  parts: { what: string; count: number }[];
  /** Why doctor's CPU read above 100 %. */
  cpuNote: string;
}

/** The article's timer example: a `setTimeout` of `delayMs`, then a loop of `loopSize` Math.random() calls. */
export interface EtagTimer {
  delayMs: number;
  loopSize: number;
  /** When the article says the timer fires: "most likely" within this range, ms. */
  rangeMs: [number, number];
  /** Its reasoning: a loop that takes `loopMs` makes the timer fire after `firesAtMs` (the delay plus the loop). */
  reasoned: { loopMs: number; firesAtMs: number };
}

export interface EtagPublished {
  title: string;
  source: string;
  url: string;
  /** The runtime and restify as the article names them (it asks for Node 8.11.2 or later). */
  runtime: string;
  /** The machine, as far as the article names it. */
  machine: string;
  /** Where autocannon ran, as the article states it. */
  generatorRan: string;
  /** How each figure was taken. */
  method: string;
  rows: readonly EtagPublishedRow[];
  /** The article's argument from cost, in the workbook's words, and the targets it gives as examples. */
  cost: { argument: string; targets: EtagTarget[] };
  /** The article's yardstick: a "Hello World" Node server serves about this many req/s on its machine. */
  helloWorldReqPerSec: number;
  /** After the fix, the share of the CPU the article reads for the `after` listener off its flame graph (about a third). */
  listenerShareAfterFix: number;
  /** Fastify over restify on the article's setup: "about 17 % faster". */
  fastifyOverRestify: number;
  /** clinic doctor's count of active handles on the slow server, under 100 connections. */
  doctor: EtagHandles;
  timer: EtagTimer;
  /** What the article claims, and where notebook 01 (or another) measures each. */
  claims: StudyClaim[];
}

const AUTOCANNON = "autocannon -c100 localhost:3000/seed/v1";
const ARTICLE_RAN = {
  generatorRan: "on the machine it measured: the app in one terminal, autocannon against localhost in a second",
  generatorOnServer: true,
  machine: "not given (the article says only that results differ from machine to machine)",
  versions: { Node: "8.11.2 or later", restify: "7.1.0" },
  warmupSeconds: 0,
};

/**
 * "Keeping Node.js Fast" (Smashing Magazine, 2018): each row a step ("slow", "fixed", "optimised")
 * with its connections, req/s, mean latency and its `load` (the command as printed: `autocannon -c100
 * localhost:3000/seed/v1`; the optimised row's is its caption written out, `printed: false`); `cost`,
 * the article's argument from cost (a warning: weigh the server cost saved against the developer's
 * time, and set a target first: 10x, 4,000 req/s, 2x); `helloWorldReqPerSec` its yardstick (about
 * 30,000); `fastifyOverRestify` 1.17; `doctor` its 103 handles; `timer` its `setTimeout` example (150-250
 * ms, reasoned as 100 + 100 = 200 ms); `claims`, each with where the workbook measures it or why not.
 * The article gives no machine; autocannon ran beside the server, against localhost.
 */
export const publishedEtag: EtagPublished = {
  title: "Keeping Node.js Fast (2018)",
  source:
    '"Keeping Node.js Fast: Tools, Techniques, And Tips For Making High-Performance Node.js Servers", David Mark Clements, Smashing Magazine, 2018',
  url: "https://www.smashingmagazine.com/2018/06/nodejs-tools-techniques-performance-servers/",
  runtime: "Node 8.11.2 or later, restify 7.1.0",
  machine: ARTICLE_RAN.machine,
  generatorRan: ARTICLE_RAN.generatorRan,
  method: "one autocannon run per step, 10 s (autocannon's default), no warm-up, no repeats",
  rows: [
    {
      step: "slow",
      label: "slow (buggy)",
      connections: 100,
      reqPerSec: 23.1,
      meanLatencyMs: 3086.81,
      load: { ...ARTICLE_RAN, command: AUTOCANNON },
    },
    {
      step: "fixed",
      label: "fixed guard",
      connections: 100,
      reqPerSec: 5011.11,
      meanLatencyMs: 19.47,
      load: { ...ARTICLE_RAN, command: AUTOCANNON },
    },
    {
      step: "optimised",
      label: "optimised (string JSON, etag from content, url as key)",
      connections: 10,
      reqPerSec: 8330.91,
      meanLatencyMs: 0.64,
      load: {
        ...ARTICLE_RAN,
        command: "autocannon -c10 localhost:3000/seed/v1",
        printed: false,
        note: "the article prints no command for this row, only its caption: 10 s against localhost:3000/seed/v1, 10 connections",
      },
    },
  ],
  cost: {
    argument:
      "a warning about effort against gain, not a rule: weigh what a faster server saves in servers against what the work costs in developer time, and decide in the project's own context how far to go, or most of the effort (80 %, it says) goes into a small part of the speed-up (20 %); it suggests setting a target first, from what the business needs",
    targets: [
      { kind: "times", value: 10, text: "10x" },
      { kind: "reqPerSec", value: 4_000, text: "4,000 req/s" },
      { kind: "times", value: 2, text: "2x when the servers cost twice the budget" },
    ],
  },
  helloWorldReqPerSec: 30_000,
  listenerShareAfterFix: 1 / 3,
  fastifyOverRestify: 1.17,
  doctor: {
    activeHandles: 103,
    parts: [
      { what: "connections", count: 100 },
      { what: "stdout", count: 1 },
      { what: "stderr", count: 1 },
      { what: "the server", count: 1 },
    ],
    cpuNote: "V8's garbage-collection threads, which run beside the main thread",
  },
  timer: { delayMs: 100, loopSize: 1e7, rangeMs: [150, 250], reasoned: { loopMs: 100, firesAtMs: 200 } },
  claims: [
    {
      claim:
        "a \"Hello World\" Node server easily serves about 30,000 req/s on the article's machine, against which the slow server's 23 req/s is dismal",
      testedIn: "step 1: a Hello World server beside the slow one, on this machine",
    },
    {
      claim: "clinic doctor counts 103 active handles: the 100 connections, stdout, stderr and the server",
      testedIn: "step 2: doctor's handles counted out",
    },
    {
      claim: "doctor's CPU reads above 100 % because V8 collects garbage on threads beside the main one",
      testedIn: "step 2: doctor's highest CPU sample, pinned or not",
    },
    {
      claim:
        "a 100 ms timer behind 10^7 Math.random() calls fires after 150-250 ms; a 100 ms loop makes it 100 + 100 = 200 ms",
      testedIn: "step 3: the timer against busy loops, with both rules computed",
    },
    {
      claim: "the flame graph's hottest frame is the anonymous listener passed to server.on in util.js",
      testedIn: "step 4: the hottest frame of the app's code",
    },
    {
      claim:
        "with the listener emptied, req/s rises but the code that emits the event stays hot: it runs more often than it should",
      testedIn: "step 4: the listener emptied, profiled",
    },
    {
      claim: "without the Infinity line, --trace-warnings points at the listener leak",
      testedIn: "step 5: --trace-warnings",
    },
    { claim: "fixing the guard gives about 200x", testedIn: "steps 6 and 8: the fix ratio" },
    {
      claim: "after the fix the listener still takes about a third of the CPU (its width in the flame graph)",
      testedIn: "step 6: the listener's share of the busy CPU after the fix",
    },
    {
      claim: "the optimisations give a further 1.6x (about 3,000 req/s more), measured at 10 connections against 100",
      testedIn: "steps 7 and 8: the optimised server against the fixed one at the same connections, and at 10",
    },
    {
      claim: "in the optimised server's flame graph, Node's own net module is the hottest part",
      testedIn: "step 7: where the CPU goes, by kind of code",
    },
    {
      claim:
        "answer 503 when the event loop's delay passes a threshold (overload-protection for Express, Koa and restify; Hapi has an option)",
      testedIn: "notebook 02: 503 shedding against the blocked baseline",
    },
    {
      claim: "costly work belongs in other processes, so that a rare costly route does not slow the cheap ones",
      testedIn: "notebook 02: head-of-line blocking, a worker pool",
    },
    {
      claim: "Fastify was measured about 17 % faster than restify",
      testedIn: "notebook 03, section 1: Fastify over restify, round by round",
    },
    {
      claim: "pino is the fastest newline-delimited JSON logger for Node",
      testedIn: null,
      because: "no app of the workbook logs per request, so no logger is measured",
    },
    {
      claim: "restify has invested in its performance since version 7",
      testedIn: null,
      because: "the restify that starts on Node 26 is 12, and no older one runs here to set beside it",
    },
  ],
};
