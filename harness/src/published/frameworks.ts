import { type InFlight, littlesLaw } from "./little";

/**
 * Published framework benchmarks, quoted (not measured here) so that a notebook can set its own
 * ratios beside them. Absolute req/s from another machine, Node and load generator cannot be
 * compared with ours; each table's ratios to its own node:http row can.
 */
export interface PublishedRow {
  /** As the source names it. */
  label: string;
  /** The matching framework of harness/src/frameworks.ts, or null when the workbook has none. */
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
  /** The command as the source printed it. */
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

export const published2022: PublishedTable = {
  id: "study-2022",
  title: "2022 study",
  source:
    "A 2022 blog post's framework table (Node 16, wrk -t12 -c500 -d5m --latency; its address was not kept with the figures), which printed transfer/s, latency and memory (37-60 MB) beside req/s.",
  runtime: "Node 16",
  command: "wrk -t12 -c500 -d5m --latency",
  connections: 500,
  machine: "not given",
  generatorRan: "not stated",
  connectErrors: 251,
  baseline: "http",
  rows: [
    { label: "http", framework: "node-http", reqPerSec: 39_006, meanLatencyMs: 6.18 },
    {
      label: "trek-engine",
      framework: null,
      reqPerSec: 36_037,
      note: "left out, though it is on npm (1.0.5): it looks abandoned, every dependency pinned to an exact 2017-era release (cookies 0.7.1, accepts 1.3.4), and a benchmark of it would measure those old packages as much as the framework",
    },
    { label: "micro", framework: "micro", reqPerSec: 34_086 },
    { label: "fastify", framework: "fastify", reqPerSec: 31_470 },
    { label: "koa", framework: "koa", reqPerSec: 30_671 },
    {
      label: "egg",
      framework: null,
      reqPerSec: 13_294,
      note: "left out: an egg app is a folder started as a cluster (egg-scripts forks a master, an agent and one worker per core), with default plugins and logs written to files; set against single-process servers it would compare deployments, not frameworks (apps/frameworks/README.md)",
    },
    { label: "express", framework: "express", reqPerSec: 9_930 },
  ],
};

export const publishedFastifyBenchmarks: PublishedTable = {
  id: "fastify-benchmarks-2026-07",
  title: "fastify/benchmarks 2026-07",
  source:
    "fastify/benchmarks (https://github.com/fastify/benchmarks), July 2026: one warm-up run, then one measured run per framework on a 4 vCPU CI runner, load generator on the same machine; averages only, no repeats.",
  runtime: "Node 24",
  command: "autocannon -c 100 -d 40 -p 10",
  connections: 100,
  machine: "a 4 vCPU CI runner",
  generatorRan: "on the machine it measured",
  baseline: "node-http",
  rows: [
    { label: "0http", framework: null, reqPerSec: 54_501, note: "not a dependency of the workbook" },
    { label: "node-http", framework: "node-http", reqPerSec: 47_917 },
    { label: "micro", framework: "micro", reqPerSec: 47_431 },
    { label: "fastify", framework: "fastify", reqPerSec: 46_850 },
    { label: "hono", framework: "hono", reqPerSec: 40_188 },
    { label: "koa", framework: "koa", reqPerSec: 35_724 },
    { label: "express", framework: "express", reqPerSec: 27_794 },
    { label: "restify", framework: "restify", reqPerSec: null, note: "N/A: crashes on Node 24" },
  ],
};

export const publishedTables: readonly PublishedTable[] = [published2022, publishedFastifyBenchmarks];

export interface PublishedRatio extends PublishedRow {
  /** reqPerSec / the baseline row's reqPerSec; null without a figure. */
  ratio: number | null;
}

/** Each row of `table` with its req/s divided by the table's own baseline row. */
export function publishedRatios(table: PublishedTable): PublishedRatio[] {
  const base = table.rows.find((r) => r.label === table.baseline)?.reqPerSec;
  if (!base) throw new Error(`${table.id}: baseline row ${JSON.stringify(table.baseline)} has no figure`);
  return table.rows.map((r) => ({ ...r, ratio: r.reqPerSec === null ? null : r.reqPerSec / base }));
}

/**
 * Little's law on each row of `table` that printed a mean latency, at the connections its command
 * asked for (published/little.ts).
 */
export function publishedInFlight(table: PublishedTable): InFlight[] {
  return table.rows.flatMap((r) =>
    r.reqPerSec === null || r.meanLatencyMs === undefined
      ? []
      : [
          littlesLaw({
            name: r.label,
            label: `${table.title}: ${r.label}`,
            connections: table.connections,
            reqPerSec: r.reqPerSec,
            meanLatencyMs: r.meanLatencyMs,
          }),
        ],
  );
}

/** A published comparison of one route served bare and with its body validated. */
export interface PublishedValidationRow {
  label: string;
  runtime: string;
  /** req/s on the bare route, and on the route that validates its request. */
  bare: number;
  validated: number;
  /** False where the server cannot run on this machine; `note` says why. */
  runsHere: boolean;
  note?: string;
}

/** A request as a benchmark's README sends it. */
export interface PublishedRequest {
  method: "POST";
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** The post's two oha commands, verbatim from its README. */
export interface PublishedOhaCommands {
  /** The bare test: GET /hello, which the fork's Elysia app answers with a static response. */
  bare: string;
  /** The "with validation" test: it sends `validatedRequest`. */
  validated: string;
  /** The upstream benchmark's bare command, before the fork raised the concurrency. */
  upstream: string;
}

export interface PublishedValidationTable {
  title: string;
  source: string;
  /** The machine it ran on, as the benchmark's README gives it, and the versions it names. */
  machine: string;
  /** Where the load generator ran, as the README's commands show it. */
  generatorRan: string;
  /** The load, short: the flags both commands share. */
  command: string;
  /** Each command in full, as the README prints it. */
  commands: PublishedOhaCommands;
  /** oha's concurrency in the fork, and in the upstream benchmark it forked. */
  connections: number;
  upstreamConnections: number;
  /** What the fork changed from the upstream benchmark, in its README's order. */
  changes: string[];
  /** What the fork's bare Elysia app answers on GET /hello (a static value, not a handler). */
  bareAnswer: string;
  rows: PublishedValidationRow[];
  /** The request the published "with validation" command sends. */
  validatedRequest: PublishedRequest;
  /** The route the benchmark's own validating Elysia app defines. */
  elysiaRoute: string;
  /** The post's headline, computed from its rows: Elysia's req/s over Encore's, bare and validated. */
  readonly headline: { bare: number; validated: number };
}

export const publishedElysiaEncore: PublishedValidationTable = {
  title: "Elysia vs Encore 2025",
  source:
    "SaltyAom/encore-ts-benchmarks (a fork of encoredev/ts-benchmarks, 2025-11-14): best of five 10 s oha runs; bare GET /hello, and POST /schema?name=test&excitement=123 with a JSON body checked against a schema (maxItems 3, a oneOf, an enum); Elysia compiled with bun build --compile. In the fork the validating Elysia app defines POST /hello/:par1/:par2, not /schema: the README does not print what the published command got back (notebook 03 sends it). The README's Elysia section still prints -c 150 for the bare test; its list of changes and its 'This variant' command give 450.",
  command: "oha -c 450 -z 10s",
  commands: {
    bare: 'PORT=3000 oha -c 450 -z 10s -m GET "http://127.0.0.1:$PORT/hello"',
    validated:
      "PORT=3000 oha -c 450 -z 10s -m POST -H 'Content-Type: application/json' -H 'x-foo: test' " +
      '"http://127.0.0.1:$PORT/schema?name=test&excitement=123" -d \'{"someKey": "test", "someOtherKey": 123, ' +
      '"requiredKey": [123, 456, 789], "nullableKey": null, "multipleTypesKey": true, ' +
      '"multipleRestrictedTypesKey": "test", "enumKey": "John"}\'',
    upstream: 'PORT=3000 oha -c 150 -z 10s -m GET "http://127.0.0.1:$PORT/hello"',
  },
  connections: 450,
  upstreamConnections: 150,
  changes: [
    "Elysia updated to 1.4 and compiled for production (bun build --compile)",
    "the bare GET /hello answered with a static response (Elysia's static value, not a handler)",
    "oha's concurrency raised from 150 to 450 for the machine",
  ],
  bareAnswer: '{"message":"Hello, World"} (JSON), a static value',
  machine:
    "Intel i7-13700K (8 performance + 8 efficient cores, 24 threads), Debian 11 under WSL2; Elysia 1.4.16 on Bun 1.3.2, Encore 1.5.17",
  generatorRan: "on the machine it measured (oha loads 127.0.0.1)",
  validatedRequest: {
    method: "POST",
    path: "/schema?name=test&excitement=123",
    headers: { "content-type": "application/json", "x-foo": "test" },
    body: {
      someKey: "test",
      someOtherKey: 123,
      requiredKey: [123, 456, 789],
      nullableKey: null,
      multipleTypesKey: true,
      multipleRestrictedTypesKey: "test",
      enumKey: "John",
    },
  },
  elysiaRoute: "/hello/:par1/:par2",
  rows: [
    { label: "Elysia", runtime: "Bun", bare: 293_991, validated: 223_924, runsHere: true },
    {
      label: "Encore.ts",
      runtime: "Encore's Rust runtime",
      bare: 139_033,
      validated: 95_854,
      runsHere: false,
      note: "cannot run here: the npm package encore.dev holds no native binary; it loads encore-runtime.node, which ships only with the encore CLI installed from the vendor's site, and this machine reaches package registries only",
    },
  ],
  get headline() {
    const row = (label: string) => this.rows.find((r) => r.label === label)!;
    const [elysia, encore] = [row("Elysia"), row("Encore.ts")];
    return { bare: elysia.bare / encore.bare, validated: elysia.validated / encore.validated };
  },
};

/** Each row's price of validating: bare req/s over validated req/s (1.31 = 31 % more requests without it). */
export function publishedValidationCosts(
  table: PublishedValidationTable,
): (PublishedValidationRow & { cost: number })[] {
  return table.rows.map((r) => ({ ...r, cost: r.bare / r.validated }));
}
