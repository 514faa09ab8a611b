/**
 * The figures "Keeping Node.js Fast" (Smashing Magazine, 2018) published for its slow restify
 * etag server, quoted (not measured here) so that notebook 01 can set its own ratios beside them.
 * Absolute req/s from a 2018 laptop on Node 8 cannot be compared with ours; the ratios between
 * steps can, when the steps were measured alike.
 */
import { type InFlight, littlesLaw } from "./little";

export type EtagStep = "slow" | "fixed" | "optimised";

export interface EtagPublishedRow {
  step: EtagStep;
  /** As the article describes the step. */
  label: string;
  /** autocannon connections of the published run. */
  connections: number;
  reqPerSec: number;
  meanLatencyMs: number;
}

/** One target of the article's cost argument: a gain over the starting point, or a rate to reach. */
export interface EtagTarget {
  /** "times": `value` times the starting req/s; "reqPerSec": `value` req/s. */
  kind: "times" | "reqPerSec";
  value: number;
  /** As the article puts it. */
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

export interface EtagPublished {
  source: string;
  url: string;
  runtime: string;
  /** The machine, as far as the article names it. */
  machine: string;
  /** Where autocannon ran, as the article states it. */
  generatorRan: string;
  /** How each figure was taken. */
  method: string;
  /** Seconds of the one measured autocannon run behind each figure, and of warm-up before it. */
  runSeconds: number;
  warmupSeconds: number;
  rows: readonly EtagPublishedRow[];
  /** The article's argument from cost: find the work that gives most of the gain, and set a target first. */
  cost: { rule: string; targets: EtagTarget[] };
  /** Fastify over restify on the article's setup: "about 17 % faster". */
  fastifyOverRestify: number;
  /** The logger the article recommends. */
  logger: string;
  /** clinic doctor's count of active handles on the slow server, under 100 connections. */
  doctor: EtagHandles;
}

export const publishedEtag: EtagPublished = {
  source:
    '"Keeping Node.js Fast: Tools, Techniques, And Tips For Making High-Performance Node.js Servers", Smashing Magazine, 2018',
  url: "https://www.smashingmagazine.com/2018/06/nodejs-tools-techniques-performance-servers/",
  runtime: "Node 8, restify 7.1",
  machine: "a 2018 laptop",
  generatorRan: "not stated",
  method: "one 10 s autocannon run per step, no warm-up, no repeats",
  runSeconds: 10,
  warmupSeconds: 0,
  rows: [
    { step: "slow", label: "slow (buggy)", connections: 100, reqPerSec: 23.1, meanLatencyMs: 3086.81 },
    { step: "fixed", label: "fixed guard", connections: 100, reqPerSec: 5011.11, meanLatencyMs: 19.47 },
    {
      step: "optimised",
      label: "optimised (string JSON, etag from content, url as key)",
      connections: 10,
      reqPerSec: 8330.91,
      meanLatencyMs: 0.64,
    },
  ],
  cost: {
    rule: "find the 20 % of the work that gives 80 % of the gain",
    targets: [
      { kind: "times", value: 10, text: "10x" },
      { kind: "reqPerSec", value: 4_000, text: "4,000 req/s" },
      { kind: "times", value: 2, text: "2x when the servers cost twice the budget" },
    ],
  },
  fastifyOverRestify: 1.17,
  logger: "pino",
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
};

export function publishedEtagRow(step: EtagStep): EtagPublishedRow {
  const row = publishedEtag.rows.find((r) => r.step === step);
  if (!row) throw new Error(`publishedEtag has no row for step ${JSON.stringify(step)}`);
  return row;
}

export interface EtagRatio {
  name: string;
  /** reqPerSec of `to` divided by reqPerSec of `from`. */
  ratio: number;
  fromConnections: number;
  toConnections: number;
  /** False when the two rows were measured at different connection counts. */
  likeForLike: boolean;
}

/** The article's two headline ratios: the fix (fixed / slow) and the optimisation (optimised / fixed). */
export function publishedEtagRatios(): { fix: EtagRatio; optimisation: EtagRatio } {
  const ratio = (name: string, from: EtagStep, to: EtagStep): EtagRatio => {
    const a = publishedEtagRow(from);
    const b = publishedEtagRow(to);
    return {
      name,
      ratio: b.reqPerSec / a.reqPerSec,
      fromConnections: a.connections,
      toConnections: b.connections,
      likeForLike: a.connections === b.connections,
    };
  };
  return { fix: ratio("fix", "slow", "fixed"), optimisation: ratio("optimisation", "fixed", "optimised") };
}

/** A published row read with Little's law (published/little.ts), named by its step. */
export type EtagInFlight = EtagPublishedRow & InFlight;

/**
 * Little's law on each of the article's rows. The optimised row is far below its connections: its
 * 10 connections answered in 0.64 ms each would have made 15,600 req/s, so the generator, not the
 * server, set that row's pace.
 */
export function publishedEtagInFlight(): EtagInFlight[] {
  return publishedEtag.rows.map((r) => ({ ...r, ...littlesLaw({ ...r, name: r.step }) }));
}
