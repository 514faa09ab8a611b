import fs from "node:fs";
import path from "node:path";
import { WorkbookError } from "../core/errors";
import { appsDir } from "../core/paths";
import { frameworks } from "./frameworks";

/** One app in apps/: every app keeps the contract of apps/lib/contract.js. */
export interface AppEntry {
  /** What the notebooks call it, e.g. "hello-http". */
  name: string;
  /** The entry file, relative to apps/. */
  entry: string;
  /** One line: what the app shows. */
  title: string;
  /** A path that must answer 2xx/3xx right after start (else the app fails fast). */
  probe: string;
}

const app = (name: string, title: string, probe: string, entry = `${name}/server.js`): AppEntry => ({
  name,
  entry,
  title,
  probe,
});

/** The registry of apps. Add an app here, not by dropping a file somewhere: no globs. */
export const apps: readonly AppEntry[] = [
  app("hello-http", "node:http answering {hello:'world'}", "/"),
  // Notebook 01: the slow restify etag server of "Keeping Node.js Fast", fixed, optimised.
  app("etag-slow", "restify etag server with the planted bugs", "/seed/v1"),
  app("etag-warning", "the slow server without defaultMaxListeners = Infinity", "/seed/v1"),
  app("etag-empty-listener", "the slow server with its after listener emptied", "/seed/v1"),
  app("etag-fixed", "the slow server with its guard fixed", "/seed/v1"),
  app("etag-optimised", "string JSON, etag from content, url as key, 304s", "/seed/v1"),
  app("etag-ceiling", "node:http doing etag-optimised's work: its ceiling", "/seed/v1"),
  app("etag-fastify", "fastify, body pre-serialised once a minute, 304s", "/seed/v1"),
  app("etag-ceiling-cached", "node:http doing etag-fastify's work: its ceiling", "/seed/v1"),
  // Notebook 02: a cheap route beside an expensive synchronous one, and the remedies.
  app("loop-blocking", "cheap route + CPU-bound synchronous route on one loop", "/cheap"),
  app("loop-partitioned", "the expensive work split with setImmediate", "/cheap"),
  app("loop-worker-pool", "the expensive work in a piscina worker pool", "/cheap"),
  app("loop-libuv-crypto", "the expensive work as async crypto in the libuv pool", "/cheap"),
  app("loop-shedding", "the blocking app behind overload-protection (503s)", "/cheap"),
  app("loop-shedding-queue", "the blocking app shedding on each request's own wait (503s)", "/cheap"),
  app("loop-classic-blockers", "sync file I/O, big JSON, catastrophic regex", "/cheap"),
  // Notebook 04: one route, GET /reviews?product=N, and five ways of using memory for it.
  app("memory-quiet", "every answer computed at start-up: allocates almost nothing per request", "/reviews?product=7"),
  app("memory-churn", "objects for all 20,000 reviews per request: megabytes of garbage", "/reviews?product=7"),
  app("memory-reworked", "memory-churn computed from typed-array columns: no object per review", "/reviews?product=7"),
  app("memory-leak", "keeps an audit record of every request in a Map nothing empties", "/reviews?product=7"),
  app("memory-bounded", "memory-leak with the audit bounded by an LRU cache (last 100)", "/reviews?product=7"),
  // Notebook 03: one app per framework, all serving /hello, /json and /blog (see frameworks.ts).
  ...frameworks.map((f) => app(`frameworks/${f.name}`, `${f.title}: /hello, /json, /blog`, "/hello", f.entry)),
  // Notebook 06: a visit counter with short synchronous file I/O on every request, and its asynchronous twin.
  app("visits-sync", "a visit counter reading and writing a small file per request with fs.*Sync", "/visit"),
  app("visits-async", "the same visit counter with fs.promises: the loop free while the files are read", "/visit"),
  // Notebook 07: one node:http server on one process, or on WORKERS processes (node:cluster or reusePort).
  app("every-core", "node:http /json on MODE=single|cluster|reuseport and WORKERS processes", "/hello"),
  // Notebook 05: a shop API before and after two serialisation micro-wins (apps/lib/shop-work.js).
  app("shop-before", "JSON.stringify and a sha512 etag per answer", "/stock/1"),
  app("shop-after", "a fast-json-stringify serialiser and a CRC-32 etag per answer", "/stock/1"),
  app("hello-stalls", "node:http /hello; every STALL_EVERY-th request holds the thread STALL_MS ms", "/hello"),
];

export interface ResolvedApp {
  name: string;
  entryPath: string;
  /** A path that must answer below 400 right after start; null: none. */
  probe: string | null;
  /** True for an app of the registry (it keeps the workbook's contract). */
  registered: boolean;
}

/**
 * An app: a registered name ("hello-http"), a path to a server file of your own ("my-server.js",
 * relative to the working folder, or absolute), or `{ entry, name?, probe? }` for the same with a
 * name and a probe path.
 */
export type AppRef = string | { name?: string; entry: string; probe?: string | null };

/** The name of a server file: its folder's for server.js, index.js, app.js or main.js; else the file's own. */
function nameOf(entryPath: string): string {
  const stem = path.basename(entryPath).replace(/\.[cm]?[jt]s$/, "");
  return ["server", "index", "app", "main"].includes(stem) ? path.basename(path.dirname(entryPath)) : stem;
}

export function resolveApp(ref: AppRef): ResolvedApp {
  if (typeof ref === "string") {
    const found = apps.find((a) => a.name === ref);
    if (found)
      return { name: found.name, entryPath: path.join(appsDir, found.entry), probe: found.probe, registered: true };
    if (!/[/\\.]/.test(ref)) {
      throw new WorkbookError("WB_APP_NOT_FOUND", `no app named ${JSON.stringify(ref)} in the registry`, {
        hint: `pass a path to a server file (e.g. "./my-server.js"), or one of: ${apps.map((a) => a.name).join(", ")}`,
      });
    }
    ref = { entry: ref };
  }
  const entryPath = path.resolve(ref.entry);
  if (!fs.existsSync(entryPath) || !fs.statSync(entryPath).isFile()) {
    throw new WorkbookError("WB_APP_NOT_FOUND", `app entry not found: ${entryPath}`, {
      hint: `a relative path is taken from the working folder (${process.cwd()}); pass an absolute path to be sure`,
    });
  }
  return { name: ref.name ?? nameOf(entryPath), entryPath, probe: ref.probe ?? null, registered: false };
}
