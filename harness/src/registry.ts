import path from "node:path";
import fs from "node:fs";
import { appsDir } from "./paths";
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

/** The registry of apps. Add an app here, not by dropping a file somewhere: no globs. */
export const apps: readonly AppEntry[] = [
  { name: "hello-http", entry: "hello-http/server.js", title: "node:http answering {hello:'world'}", probe: "/" },
  // Notebook 01: the slow restify etag server of "Keeping Node.js Fast", fixed, optimised.
  { name: "etag-slow", entry: "etag-slow/server.js", title: "restify etag server with the planted bugs", probe: "/seed/v1" },
  { name: "etag-warning", entry: "etag-warning/server.js", title: "the slow server without defaultMaxListeners = Infinity", probe: "/seed/v1" },
  { name: "etag-fixed", entry: "etag-fixed/server.js", title: "the slow server with its guard fixed", probe: "/seed/v1" },
  { name: "etag-optimised", entry: "etag-optimised/server.js", title: "string JSON, etag from content, url as key, 304s", probe: "/seed/v1" },
  { name: "etag-ceiling", entry: "etag-ceiling/server.js", title: "node:http doing etag-optimised's work: its ceiling", probe: "/seed/v1" },
  { name: "etag-fastify", entry: "etag-fastify/server.js", title: "fastify, body pre-serialised once a minute, 304s", probe: "/seed/v1" },
  { name: "etag-ceiling-cached", entry: "etag-ceiling-cached/server.js", title: "node:http doing etag-fastify's work: its ceiling", probe: "/seed/v1" },
  // Notebook 02: a cheap route beside an expensive synchronous one, and the remedies.
  { name: "loop-blocking", entry: "loop-blocking/server.js", title: "cheap route + CPU-bound synchronous route on one loop", probe: "/cheap" },
  { name: "loop-partitioned", entry: "loop-partitioned/server.js", title: "the expensive work split with setImmediate", probe: "/cheap" },
  { name: "loop-worker-pool", entry: "loop-worker-pool/server.js", title: "the expensive work in a piscina worker pool", probe: "/cheap" },
  { name: "loop-libuv-crypto", entry: "loop-libuv-crypto/server.js", title: "the expensive work as async crypto in the libuv pool", probe: "/cheap" },
  { name: "loop-shedding", entry: "loop-shedding/server.js", title: "the blocking app behind overload-protection (503s)", probe: "/cheap" },
  { name: "loop-shedding-queue", entry: "loop-shedding-queue/server.js", title: "the blocking app shedding on each request's own wait (503s)", probe: "/cheap" },
  { name: "loop-classic-blockers", entry: "loop-classic-blockers/server.js", title: "sync file I/O, big JSON, catastrophic regex", probe: "/cheap" },
  // Notebook 03: one app per framework, all serving /hello, /json and /blog (see frameworks.ts).
  ...frameworks.map((f) => ({ name: `frameworks/${f.name}`, entry: f.entry, title: `${f.title}: /hello, /json, /blog`, probe: "/hello" })),
];

export interface ResolvedApp {
  name: string;
  entryPath: string;
  probe: string | null;
}

/** An app by registry name, or an ad-hoc entry file (absolute, or relative to apps/). */
export type AppRef = string | { name?: string; entry: string; probe?: string | null };

export function resolveApp(ref: AppRef): ResolvedApp {
  if (typeof ref === "string") {
    const found = apps.find((a) => a.name === ref);
    if (!found) {
      throw new Error(`no app named ${JSON.stringify(ref)} in the registry; known: ${apps.map((a) => a.name).join(", ")}`);
    }
    return { name: found.name, entryPath: path.join(appsDir, found.entry), probe: found.probe };
  }
  const entryPath = path.isAbsolute(ref.entry) ? ref.entry : path.join(appsDir, ref.entry);
  if (!fs.existsSync(entryPath)) throw new Error(`app entry not found: ${entryPath}`);
  return { name: ref.name ?? path.basename(path.dirname(entryPath)), entryPath, probe: ref.probe ?? null };
}
