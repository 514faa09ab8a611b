// Notebook 03's own helpers (the shared harness, `wb`, keeps what two notebooks use).
import { execFile } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import * as wb from "@workbook/harness";

// One validator timed on its own, outside any server (tests/unit/validator-cost.test.js).

/** One validator's price, measured outside any server by apps/frameworks/lib/validator-cost.js. */
export interface ValidatorCost {
  /**
   * "ajv" (fastify.js, express.js), "typebox" (what Elysia runs: its exact-mirror normalisation,
   * then TypeBox's compiled check) or "none" (the control).
   */
  validator: string;
  /** "Node 26.10.0", "Bun 1.4.5": where it ran. */
  runtime: string;
  /** Size of the JSON body (SAMPLE_VALID_BODY, the order of apps/frameworks/lib/payloads.js) and its line items. */
  bodyBytes: number;
  items: number;
  /** Parses (and validations) per batch, chosen so that a batch lasts at least 20 ms. */
  iterations: number;
  batches: number;
  /** Median ns to parse the body, and to parse and validate it. */
  parseNs: number;
  parseAndValidateNs: number;
  /** Median of the batches' (parse and validate - parse) in ns: the validation alone. */
  validateNs: number;
  /**
   * Median of the batches' parse / (parse and validate): the share of its throughput a loop that
   * only parses keeps when it validates too. Not a server's on/off: a server does much more.
   */
  ratio: number;
  ratioMin: number;
  ratioMax: number;
}

export interface ValidatorCostOptions {
  validator: "ajv" | "typebox" | "none";
  /** Binary of the runtime to measure on (a RuntimeEntry's `binary`); default: this Node. */
  runtime?: string;
  /** Measured batches; default 21. */
  batches?: number;
  /** Time limit of the measurement; default 60,000 ms. */
  timeoutMs?: number;
}

const SCRIPT = "frameworks/lib/validator-cost.js"; // relative to apps/, as measureScript takes it

/**
 * Times a body validator of POST /validate on its own, in a child process on the runtime given:
 * parse-only against parse-and-validate of the same body, in alternating batches. A load test
 * shows what validation costs a whole request; this shows the validator's own share of it.
 * Rejects with the script's stderr when it fails (a validator that rejects the valid body or
 * accepts the invalid one fails) or outlives `timeoutMs` (default 60000). Runs
 * `apps/frameworks/lib/validator-cost.js` through `wb.measureScript` (on the apps' CPU): batches of at
 * least 20 ms, after 5 warm-up batches; `batches` (default 21) measured. `validator`: "ajv" (Ajv 8
 * with fastify's default options: fastify.js and express.js), "typebox" (what Elysia runs: its
 * exact-mirror normalisation, then TypeBox's compiled check) or "none" (the control). `ratio` is the
 * median of the batches' parse / parse-and-validate: the throughput a parse-only loop keeps when it
 * validates too, not a server's on/off.
 */
export async function validatorCost(opts: ValidatorCostOptions): Promise<ValidatorCost> {
  const run = await wb.measureScript<ValidatorCost>(SCRIPT, {
    args: [opts.validator, String(opts.batches ?? 21)],
    runtime: opts.runtime,
    timeoutMs: opts.timeoutMs,
  });
  return run.result;
}

// Published framework benchmarks, quoted (not measured here): tests/unit/published.test.js.

type PublishedTable = wb.PublishedTable;
type PublishedRow = wb.PublishedRow;

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

/**
 * Published framework benchmarks: a 2022 study (Node 16, `wrk -t12 -c500 -d5m --latency`:
 * `wb.published.frameworks2022`) and fastify/benchmarks of July 2026 (Node 24, `autocannon -c 100 -d 40 -p 10`).
 * Each row names its framework in the registry, or null with a `note` saying why the workbook leaves
 * it out (trek-engine, egg, 0http); `reqPerSec` null where there is no figure.
 *
 * @example
 * const published = here.publishedTables.map((t) => ({ title: t.title, ratios: here.publishedRatios(t) }));
 */
export const publishedTables: readonly PublishedTable[] = [wb.published.frameworks2022, publishedFastifyBenchmarks];

export interface PublishedRatio extends PublishedRow {
  /** reqPerSec / the baseline row's reqPerSec; null without a figure. */
  ratio: number | null;
}

/** Each row of `table` with its req/s divided by the table's own baseline row (its node:http server); `ratio` null without a figure. Throws a plain Error when the baseline row has no figure. */
export function publishedRatios(table: PublishedTable): PublishedRatio[] {
  const base = table.rows.find((r) => r.label === table.baseline)?.reqPerSec;
  if (!base) throw new Error(`${table.id}: baseline row ${JSON.stringify(table.baseline)} has no figure`);
  return table.rows.map((r) => ({ ...r, ratio: r.reqPerSec === null ? null : r.reqPerSec / base }));
}

/**
 * Little's law on each row of `table` that printed a mean latency, at the connections its command
 * asked for (wb.littlesLaw). The 2022 `http` row: 39,006 req/s x 6.18 ms = 241 in flight of
 * 500; `openConnectionsText` sets that against the connections that opened.
 */
export function publishedInFlight(table: PublishedTable): wb.InFlight[] {
  return table.rows.flatMap((r) =>
    r.reqPerSec === null || r.meanLatencyMs === undefined
      ? []
      : [
          wb.littlesLaw({
            name: r.label,
            label: `${table.title}: ${r.label}`,
            connections: table.connections,
            reqPerSec: r.reqPerSec,
            meanLatencyMs: r.meanLatencyMs,
          }),
        ],
  );
}

/** Each row's price of validating: bare req/s over validated req/s (1.31 = 31 % more requests without it), the ratio notebook 03's validation table measures (Elysia 1.31, Encore 1.45). */
export function publishedValidationCosts(
  table: wb.PublishedValidationTable,
): (wb.PublishedValidationRow & { cost: number })[] {
  return table.rows.map((r) => ({ ...r, cost: r.bare / r.validated }));
}

// Sentences whose wording depends on the run.

/**
 * Little's law on a published table's row (publishedInFlight) against the connections its command
 * asked for and those its generator could open (connections - connectErrors): which of the two the
 * requests in flight match, computed from the quoted figures.
 */
export function openConnectionsText(table: PublishedTable, row: wb.InFlight): string {
  const law = `By Little's law the ${row.name} row kept ${wb.fmt(row.reqPerSec)} req/s × ${wb.fmt(row.meanLatencyMs)} ms = ${wb.fmt(row.inFlight)} requests in flight, ${wb.pct(row.busyShare)} of the ${wb.fmt(table.connections)} connections \`${table.command}\` asked for.`;
  if (table.connectErrors === undefined) return law;
  const open = table.connections - table.connectErrors;
  const nearOpen = Math.abs(row.inFlight - open) < Math.abs(row.inFlight - table.connections);
  return (
    `${law} Its generator printed ${wb.fmt(table.connectErrors)} connect errors a run: ${wb.fmt(open)} connections were open, ` +
    `and ${wb.fmt(row.inFlight)} of them busy is ${wb.pct(row.inFlight / open)}. ` +
    (nearOpen
      ? `The table was measured at about ${wb.fmt(open)} connections, not the ${wb.fmt(table.connections)} its command line says.`
      : `In flight sits nearer the ${wb.fmt(table.connections)} asked for than the ${wb.fmt(open)} open: the errors do not explain the row.`)
  );
}

/** One route's CPU time per request for two servers (µs), round by round: `a` the one compared against. */
export interface RouteCost {
  route: string;
  a: readonly number[];
  b: readonly number[];
}

/**
 * Whether more work per request narrowed the gap between two servers: b's CPU time per request over
 * a's on each route (the median of the rounds), in the order given (cheapest route first), and what the
 * last route did to the first route's gap, round by round, in the words its interval allows
 * (`wb.compared`: narrowed, widened, no difference, or too few rounds).
 */
export function routeGapText(a: string, b: string, rows: readonly RouteCost[]): string {
  if (rows.length < 2)
    throw new wb.WorkbookError(
      "WB_BAD_OPTION",
      `routeGapText: needs two routes or more, the cheapest first; got ${rows.length}`,
    );
  const gapOf = (r: RouteCost) => r.b.map((v, i) => v / r.a[i]);
  const each = rows.map((r) => `${wb.times(wb.spread(gapOf(r)).median)} on \`${r.route}\``);
  const [first, last] = [rows[0], rows[rows.length - 1]];
  const change = gapOf(last).map((g, i) => g / gapOf(first)[i]);
  const c = wb.compared({ values: change }, { more: "widened", less: "narrowed" });
  return (
    `${b} used ${each.join(", ")} of ${a}'s CPU time per request. The gap on \`${last.route}\` over the ` +
    `gap on \`${first.route}\`, round by round: ${c.text}.`
  );
}

/** What notebook 03 reads of apps/frameworks/lib/payloads.js, the apps' own module (so no copy is kept here). */
interface Payloads {
  HELLO_TEXT: string;
  helloObject(): unknown;
  blogPost(): unknown;
  SAMPLE_VALID_BODY: { items: unknown[] };
  SAMPLE_INVALID_BODY: { items: unknown[] };
}

// createRequire: this module runs as CommonJS in the notebook (tslab) and as an ES module in the unit tests.
const PAYLOADS = path.join(wb.repoRoot, "apps", "frameworks", "lib", "payloads.js");
const payloads = (): Payloads => createRequire(PAYLOADS)(PAYLOADS);

/** The JSON body that the loads POST to /validate: the order of payloads.js, with its line items. */
export function validateRequestBody(): string {
  return JSON.stringify(payloads().SAMPLE_VALID_BODY);
}

/**
 * What section 6 checks of POST /validate before it loads an app (`wb.interleavedLoads`' `checks`):
 * the order of payloads.js is answered `{"ok":true}`; the same order with a quantity of 0 in its last
 * line item is answered 400 by an app `validating`, and 200 by one that does not.
 */
export function validateChecks(validating: boolean): wb.RouteCheck[] {
  const p = payloads();
  const post = { path: "/validate", method: "POST", contentType: "application/json" };
  return [
    { ...post, requestBody: p.SAMPLE_VALID_BODY, status: 200, body: '{"ok":true}' },
    { ...post, requestBody: p.SAMPLE_INVALID_BODY, status: validating ? 400 : 200 },
  ];
}

/** The bytes of body (no headers) of `/hello`, `/json` and one `/blog` post (its image names vary a little). */
export function payloadSizes(): { hello: number; json: number; blog: number } {
  const p = payloads();
  const bytes = (value: unknown) => Buffer.byteLength(typeof value === "string" ? value : JSON.stringify(value));
  return { hello: bytes(p.HELLO_TEXT), json: bytes(p.helloObject()), blog: bytes(p.blogPost()) };
}

/** `bun build --compile`'s executable, alive for as long as `withBunCompiled`'s callback runs. */
export interface CompiledApp {
  /** The executable: start it with `wb.withApp({ name, entry: binary, probe }, fn, { standalone: true })`. */
  binary: string;
  /** The command that built it, as typed from the workbook's folder. */
  command: string;
  seconds: number;
  megabytes: number;
}

/**
 * Compile `entry` with Bun (`bun`, the runtime entry section 5 lists) into build/compiled/, the way the
 * Elysia-vs-Encore post compiled its app for production: the app bundled with the Bun runtime into one
 * executable (about 110 MB). Run `fn` with it, then remove it (and the folder, once empty), whatever `fn`
 * did. Throws `WB_BAD_OPTION` when Bun is absent (saying how to fetch it) or `entry` does not exist,
 * `WB_APP_SPAWN` with the end of Bun's output when the build fails.
 */
export async function withBunCompiled<T>(
  bun: wb.RuntimeEntry,
  entry: string,
  fn: (app: CompiledApp) => Promise<T>,
): Promise<T> {
  const bad = (why: string) => new wb.WorkbookError("WB_BAD_OPTION", `withBunCompiled: ${why}`);
  if (!bun.present) throw bad(`Bun is needed to compile an app: ${bun.missing}`);
  const source = path.resolve(entry);
  if (!fs.existsSync(source)) throw bad(`no such file: ${source}`);
  const dir = path.join(wb.repoRoot, "build", "compiled");
  fs.mkdirSync(dir, { recursive: true });
  const binary = path.join(dir, path.basename(source).replace(/\.[cm]?[jt]sx?$/, ""));
  try {
    const args = ["build", "--compile", source, "--outfile", binary];
    const started = performance.now();
    const failed = await new Promise<string | null>((resolve) =>
      // In its output folder: bun writes a temporary .bun-build file where it runs.
      execFile(bun.binary, args, { cwd: dir, timeout: 120_000, maxBuffer: 1 << 20 }, (err, stdout, stderr) =>
        resolve(err ? `${err.message}\n${`${stdout}${stderr}`.slice(-800)}` : null),
      ),
    );
    if (failed !== null || !fs.existsSync(binary)) {
      const why = `bun build --compile ${source} failed: ${failed ?? "no executable written"}`;
      throw new wb.WorkbookError("WB_APP_SPAWN", why);
    }
    // From the workbook's folder, as typed there (section 5 compiles an app of apps/ with the Bun of runtimes/).
    const rel = (p: string) => path.relative(wb.repoRoot, p);
    return await fn({
      binary,
      command: [rel(bun.binary), "build", "--compile", rel(source), "--outfile", rel(binary)].join(" "),
      seconds: (performance.now() - started) / 1000,
      megabytes: fs.statSync(binary).size / 1e6,
    });
  } finally {
    fs.rmSync(binary, { force: true });
    if (fs.existsSync(dir) && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
  }
}
