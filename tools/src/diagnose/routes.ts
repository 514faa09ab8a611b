import fs from "node:fs";
import path from "node:path";
import { type AppRef, fmt, markdownTable, repoRoot, times, WorkbookError } from "@workbook/harness";
import { atCellEnd, profileDir, shellLine } from "@workbook/harness/internal";
import { appArg, collectRoute, type DiagnoseOptions, type Diagnosis, finish, referenceOptions } from "./diagnose";
import { measureReferences, type References } from "./reference";
import { routesHtml } from "./report";
import { THRESHOLDS } from "./thresholds";
import { refWord } from "./yardstick";

/**
 * Several routes of one server in one run, ranked: each route diagnosed in a process of its own (its
 * memory's trend its own), the references measured once after them all (reference.ts), and the
 * routes ranked by their CPU per request against the reference, costliest first, each with its verdict.
 */

/**
 * One route of a routes file: `route` REQUIRED, the path and query to load ("/books/42");
 * `method` OPTIONAL ("GET", "POST", "PUT", "PATCH", "DELETE" or "HEAD"; default GET); `body` OPTIONAL, a
 * string sent as it is, or any other JSON value sent as JSON with content-type application/json;
 * `headers` OPTIONAL; `name` OPTIONAL, what the ranking calls it (default: method and route).
 */
export interface RouteSpec {
  route: string;
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD";
  body?: unknown;
  headers?: Record<string, string>;
  name?: string;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"];

function bad(why: string): WorkbookError {
  return new WorkbookError("WB_BAD_OPTION", `diagnoseRoutes: ${why}`);
}

/** A route given as a path, or as an object (RouteSpec), checked: what is wrong with it, said. */
export function routeSpec(r: unknown, where = "a route"): RouteSpec {
  const spec = typeof r === "string" ? { route: r } : (r as RouteSpec);
  if (!spec || typeof spec !== "object" || typeof spec.route !== "string" || !spec.route.startsWith("/"))
    throw bad(`${where} needs "route", a path that starts with "/" (got ${JSON.stringify(r)})`);
  const method = (spec.method ?? "GET").toUpperCase();
  if (!METHODS.includes(method))
    throw bad(`${where}: method ${JSON.stringify(spec.method)} is not one of ${METHODS.join(", ")}`);
  return { ...spec, method: method as RouteSpec["method"] };
}

/**
 * The routes of a routes file (JSON): a list, or an object with a list under "routes"; each a path
 * ("/books?page=2") or a RouteSpec (`{ "route": "/orders", "method": "POST", "body": { "book": 7 } }`).
 * Throws WB_BAD_OPTION saying what is wrong with it.
 */
export function readRoutes(file: string): RouteSpec[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw bad(`cannot read the routes file ${file}: ${(e as Error).message}`);
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { routes?: unknown })?.routes;
  if (!Array.isArray(list) || list.length === 0)
    throw bad(`${file} holds no routes: a list, or { "routes": [...] }, of paths or { "route": ... } objects`);
  return list.map((r, i) => routeSpec(r, `route ${i + 1} of ${file}`));
}

/** The load's method, body and headers for a route (runLoad's options): a JSON body as JSON. */
export function loadOf(spec: RouteSpec): Pick<NonNullable<DiagnoseOptions["load"]>, "method" | "body" | "headers"> {
  const json = spec.body !== undefined && typeof spec.body !== "string";
  return {
    method: spec.method ?? "GET",
    ...(spec.body !== undefined ? { body: json ? JSON.stringify(spec.body) : (spec.body as string) } : {}),
    headers: { ...(json ? { "content-type": "application/json" } : {}), ...spec.headers },
  };
}

export const routeName = (s: RouteSpec) => s.name ?? `${s.method ?? "GET"} ${s.route}`;

export interface RankedRoute {
  name: string;
  spec: RouteSpec;
  diagnosis: Diagnosis;
  cpuPerRequestMs: number | null;
  /** Its CPU per request over the reference's (null: not read). */
  ratio: number | null;
}

export interface RoutesDiagnosis {
  app: string;
  /** The routes, costliest first against the reference (those not read last), each with its diagnosis. */
  ranked: RankedRoute[];
  references: References | null;
  /** The ranking as printed, and as Markdown for a notebook. */
  text: string;
  markdown: string;
  /** `make diagnose APP=... ROUTES=file`, from the workbook's folder, where the routes came from a file; else null. */
  command: string | null;
  /** The ranking's HTML page, linking each route's report (null with report: false). */
  report: string | null;
  tookSeconds: number;
}

/**
 * Diagnose several routes of a server in one run and rank them by CPU per request against the
 * reference (yardstick.ts), costliest first, with each route's verdict. `routes`: a routes file's
 * path (readRoutes: relative to the current folder) or a list of paths and RouteSpecs; `opts` as
 * diagnose's (their `route` and the load's method and body come from each route). Takes about a
 * diagnosis per route, and the references once.
 *
 * @example
 * const shop = await tools.diagnoseRoutes("shop/server.js", "shop/routes.json");
 * wb.markdown(shop.markdown);
 */
export async function diagnoseRoutes(
  app: AppRef,
  routes: string | readonly (string | RouteSpec)[],
  opts: DiagnoseOptions = {},
): Promise<RoutesDiagnosis> {
  const started = performance.now();
  const specs = typeof routes === "string" ? readRoutes(routes) : routes.map((r, i) => routeSpec(r, `route ${i + 1}`));
  if (!specs.length) throw bad("no routes given");
  const collected = [];
  for (const spec of specs)
    collected.push(await collectRoute(app, { ...opts, route: spec.route, load: { ...opts.load, ...loadOf(spec) } }));
  const refs = opts.references === false ? null : await measureReferences(collected, referenceOptions(opts));
  const ranked = collected
    .map((c, i) => {
      const diagnosis = finish(app, c, refs, opts);
      const y = diagnosis.evidence.yardstick;
      const spec = specs[i];
      return {
        name: routeName(spec),
        spec,
        diagnosis,
        cpuPerRequestMs: diagnosis.evidence.cpuPerRequestMs,
        ratio: y?.ratio ?? null,
      };
    })
    .sort((a, b) => (b.ratio ?? -1) - (a.ratio ?? -1) || (b.cpuPerRequestMs ?? -1) - (a.cpuPerRequestMs ?? -1));
  const command =
    typeof routes === "string"
      ? shellLine(["make", "diagnose", `APP=${appArg(app)}`, `ROUTES=${path.relative(repoRoot, path.resolve(routes))}`])
      : null;
  const result = { app: collected[0].app, ranked, references: refs, command };
  if (command)
    atCellEnd(`The same ranking from a terminal (from the workbook's folder):\n\n\`\`\`sh\n${command}\n\`\`\``);
  const report = opts.report === false ? null : writeRanking(result);
  return {
    ...result,
    text: rankingText(result),
    markdown: rankingMarkdown(result),
    report,
    tookSeconds: (performance.now() - started) / 1000,
  };
}

type Ranking = Pick<RoutesDiagnosis, "app" | "ranked" | "references">;

/** What the routes were ranked against: "Express 5.3.0's hello route (0.0613 ms a request; far above it from 4.00x)". */
export function rankedAgainst(r: Ranking): string {
  const y = r.ranked.find((x) => x.diagnosis.evidence.yardstick?.against)?.diagnosis.evidence.yardstick ?? null;
  const ref = y?.against === "framework" ? y.framework : y?.bare;
  if (!y || !ref?.cpuPerRequestMs) return "their CPU per request (no reference measured)";
  return `${refWord(y)} (${fmt(ref.cpuPerRequestMs)} ms a request; far above it from ${times(THRESHOLDS.FAR_ABOVE_REFERENCE)})`;
}

const ms = (v: number | null) => (v === null ? "not read" : `${fmt(v)} ms`);

/** The ranking as lines: the reference, then one line a route, costliest first. */
export function rankingText(r: Ranking): string {
  const width = Math.max(...r.ranked.map((x) => x.name.length));
  const rows = r.ranked.map(
    (x, i) =>
      `  ${i + 1}. ${x.name.padEnd(width)}  ${ms(x.cpuPerRequestMs).padStart(11)}  ${(x.ratio === null ? "—" : times(x.ratio)).padStart(6)}  ${x.diagnosis.verdict.title}`,
  );
  return [`routes of ${r.app}, costliest first against ${rankedAgainst(r)}:`, ...rows].join("\n");
}

/** The ranking as a Markdown table, with the reference above it. */
export function rankingMarkdown(r: Ranking): string {
  const rows = r.ranked.map((x, i) => ({
    rank: i + 1,
    route: x.name,
    "CPU per request, ms": x.cpuPerRequestMs,
    "against the reference": x.ratio === null ? null : times(x.ratio),
    "req/s": x.diagnosis.load.reqPerSec.median,
    verdict: x.diagnosis.verdict.title,
  }));
  return `**Routes of ${r.app}, costliest first**, by CPU per request against ${rankedAgainst(r)}.\n\n${markdownTable(rows)}`;
}

/** The ranking's page, beside no profile of its own: results/diagnose/<app>-routes-<time>/routes.html. */
function writeRanking(r: Ranking & { command: string | null }): string {
  const { dir } = profileDir("diagnose", `${r.app}-routes`);
  const file = path.join(dir, "routes.html");
  const rows = r.ranked.map((x) => ({
    route: x.name,
    cpuPerRequestMs: x.cpuPerRequestMs,
    ratio: x.ratio,
    verdict: x.diagnosis.verdict.title,
    report: x.diagnosis.report,
  }));
  fs.writeFileSync(file, routesHtml(r.app, rankedAgainst(r), rows, r.command, dir));
  return file;
}
