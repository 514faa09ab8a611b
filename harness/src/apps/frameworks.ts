import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "../core/paths";

/**
 * The framework apps of apps/frameworks/: one typed list instead of a glob, so a notebook says
 * which frameworks it compares and prints the versions it actually measured. Every app serves
 * GET /hello, /json and /blog (payloads in apps/frameworks/lib/payloads.js) and 404 elsewhere.
 */
export interface FrameworkEntry {
  /** Short id; also the app name in the app's listening line. */
  name: string;
  /** Name for tables and chart labels. */
  title: string;
  /** The npm package whose version is reported; null for node:http (the Node version is). */
  package: string | null;
  /** The app file, relative to the repository's apps/ folder. */
  entry: string;
  /** True when routes go through a router (the framework's own); false for a switch on the path. */
  router: boolean;
  /**
   * The runtime the app is written for. Absent: Node (the main comparison; any runtime may run
   * it). "bun": measured on Bun; started on Node it serves through @hono/node-server's fetch
   * adaptor (apps/frameworks/lib/serve-fetch.js), so it keeps the app contract everywhere.
   */
  runtime?: "bun";
  notes?: string;
  /**
   * The version that will run, read when asked from node_modules/<package>/package.json (the root
   * package.json says what was asked for, node_modules what was installed); for node:http, the
   * version of the Node running this code, without the "v". Reading it throws a plain Error when the
   * package is not installed.
   */
  readonly version: string;
}

const list: Omit<FrameworkEntry, "version">[] = [
  {
    name: "node-http",
    title: "node:http",
    package: null,
    entry: "frameworks/node-http.js",
    router: false,
    notes: "No framework: a switch on the path. The baseline.",
  },
  {
    name: "fastify",
    title: "Fastify",
    package: "fastify",
    entry: "frameworks/fastify.js",
    router: true,
    notes: "Response schemas (fast-json-stringify). POST /validate has a body schema unless VALIDATE=0.",
  },
  {
    name: "fastify-noschema",
    title: "Fastify (no schemas)",
    package: "fastify",
    entry: "frameworks/fastify-noschema.js",
    router: true,
    notes: "The fastify routes without schemas: JSON.stringify serialises.",
  },
  {
    name: "koa",
    title: "Koa",
    package: "koa",
    entry: "frameworks/koa.js",
    router: false,
    notes: "No router package: one middleware switches on ctx.path.",
  },
  {
    name: "express",
    title: "Express",
    package: "express",
    entry: "frameworks/express.js",
    router: true,
    notes: "etag and x-powered-by off. POST /validate checks its body with ajv 8 unless VALIDATE=0.",
  },
  {
    name: "restify",
    title: "restify",
    package: "restify",
    entry: "frameworks/restify.js",
    router: true,
    notes: "No plugins registered.",
  },
  {
    name: "hono",
    title: "Hono",
    package: "hono",
    entry: "frameworks/hono.js",
    router: true,
    notes: "Served through @hono/node-server, which converts to and from fetch Request/Response.",
  },
  {
    name: "micro",
    title: "micro",
    package: "micro",
    entry: "frameworks/micro.js",
    router: false,
    notes: "micro has no router: a switch on the path.",
  },
  { name: "polka", title: "Polka", package: "polka", entry: "frameworks/polka.js", router: true },
  {
    name: "h3",
    title: "h3",
    package: "h3",
    entry: "frameworks/h3.js",
    router: true,
    notes: "Served through toNodeHandler from h3/node (srvx). An ES module loaded with require().",
  },
  {
    name: "hono-bun",
    title: "Hono (Bun.serve)",
    package: "hono",
    entry: "frameworks/hono-bun.js",
    router: true,
    runtime: "bun",
    notes: "The Hono app of hono.js, app.fetch handed to Bun.serve: no node:http adaptor.",
  },
  {
    name: "elysia",
    title: "Elysia",
    package: "elysia",
    entry: "frameworks/elysia.js",
    router: true,
    runtime: "bun",
    notes:
      "app.listen() on Bun. POST /validate has a TypeBox body schema (normalised by exact-mirror, then checked) unless VALIDATE=0.",
  },
];

/**
 * The frozen registry of `apps/frameworks/`: `node-http` (the baseline), `fastify`,
 * `fastify-noschema`, `koa`, `express`, `restify`, `hono`, `micro`, `polka`, `h3`, and for Bun
 * `hono-bun` and `elysia`, each registered as the app `frameworks/<name>`. Every app serves `GET
 * /hello`, `/json` and `/blog`, and 404 elsewhere. An app written for Bun, started on Node, serves
 * through `@hono/node-server`'s fetch adaptor (`apps/frameworks/lib/serve-fetch.js`).
 *
 * @example
 * console.log(`restify ${wb.frameworks.find((f) => f.name === "restify")!.version}`);
 */
export const frameworks: readonly FrameworkEntry[] = Object.freeze(
  list.map((entry) =>
    Object.freeze(
      Object.defineProperty({ ...entry }, "version", {
        get: () => frameworkVersion(entry, repoRoot),
        enumerable: true,
      }) as FrameworkEntry,
    ),
  ),
);

/**
 * The version that will run, read from <repoRoot>/node_modules/<package>/package.json (the root
 * package.json says what was asked for, node_modules what was installed). For node:http: the
 * version of the Node running this code, without the "v". Throws a plain Error when it cannot.
 */
export function frameworkVersion(entry: Pick<FrameworkEntry, "package">, repoRoot: string): string {
  if (entry.package === null) return process.versions.node;
  const file = path.join(repoRoot, "node_modules", entry.package, "package.json");
  let manifest: { version?: unknown };
  try {
    manifest = JSON.parse(fs.readFileSync(file, "utf8")) as { version?: unknown };
  } catch (err) {
    throw new Error(`cannot read the version of ${entry.package} from ${file}: ${(err as Error).message}`);
  }
  if (typeof manifest.version !== "string") throw new Error(`${file} has no "version" field`);
  return manifest.version;
}
