import { publishedElysiaEncore } from "./frameworks";
import { publishedOsgood } from "./osgood";
import { publishedSwiftNode } from "./swift-node";

const osgood = (label: string) => publishedOsgood.rows.find((r) => r.label === label)!.reqPerSec;
const bare = (label: string) => publishedElysiaEncore.rows.find((r) => r.label === label)!.bare;
const swift = (name: string) => publishedSwiftNode.servers.find((r) => r.server === name)!.threads!;

/**
 * The studies that turn on how many threads serve the requests (notebook 07): what each server ran
 * its requests on, and its published req/s where the study gave one. Only the Elysia-vs-Encore post
 * names its machine's CPU, and none says how many cores the server had (the load generator ran
 * beside it), so no published figure can be divided per core: `perCore` says so rather than guess.
 */
export interface PublishedThreadingRow {
  study: string;
  server: string;
  /** How the server spreads its requests over threads and processes, as the study describes it. */
  threads: string;
  /** The published req/s, null where the study's figure is not quoted in the workbook's sources. */
  reqPerSec: number | null;
  /** The machine it ran on, as the study gives it. */
  machine: string;
  /** The cores the server had; null: not published. */
  cores: number | null;
}

const ELYSIA_MACHINE = publishedElysiaEncore.machine.split(";")[0]; // the machine, without the versions

export const publishedThreading: readonly PublishedThreadingRow[] = [
  {
    study: "Elysia vs Encore 2025 (oha -c 450, bare GET /hello)",
    server: "Elysia on Bun",
    threads: "JavaScript on one thread, in one process",
    reqPerSec: bare("Elysia"),
    machine: ELYSIA_MACHINE,
    cores: null,
  },
  {
    study: "Elysia vs Encore 2025 (oha -c 450, bare GET /hello)",
    server: "Encore.ts",
    threads: "HTTP handled by a multi-threaded Rust runtime; the handlers' JavaScript in Node",
    reqPerSec: bare("Encore.ts"),
    machine: ELYSIA_MACHINE,
    cores: null,
  },
  ...["Perfect", "Zewo"].map((name) => ({
    study: `${publishedSwiftNode.title} (${publishedSwiftNode.loads.map((l) => l.command).join(", ")})`,
    server: name,
    threads: swift(name),
    reqPerSec: null,
    machine: "not given in the workbook's sources",
    cores: null,
  })),
  {
    study: "Osgood 0.2, 2019 (wrk -c10, hello world)",
    server: "Osgood",
    threads: "JavaScript in V8 isolates inside a Rust server; its req/s rose with the connections",
    reqPerSec: osgood("Osgood 0.2"),
    machine: "not given",
    cores: null,
  },
  {
    study: "Osgood 0.2, 2019 (wrk -c10, hello world)",
    server: "Node 12.7",
    threads: "JavaScript on one thread, in one process",
    reqPerSec: osgood("Node 12.7"),
    machine: "not given",
    cores: null,
  },
];

/** req/s per core, or null where either is unknown (a study that did not publish its cores). */
export function perCore(reqPerSec: number | null, cores: number | null): number | null {
  if (reqPerSec === null || cores === null || !(cores > 0)) return null;
  return reqPerSec / cores;
}
