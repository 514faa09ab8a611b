import { publishedElysiaEncore } from "./frameworks";
import { publishedOsgood } from "./osgood";
import { publishedSwiftNode } from "./swift-node";

const osgood = (label: string) => publishedOsgood.rows.find((r) => r.label === label)!.reqPerSec;
const bare = (label: string) => publishedElysiaEncore.rows.find((r) => r.label === label)!.bare;
const swift = (name: string) => publishedSwiftNode.servers.find((r) => r.server === name)!.threads!;

/**
 * The studies that turn on how many threads serve the requests (notebook 07): what each server ran
 * its requests on, and its published req/s where the study gave one, with its machine and where its
 * load generator ran, as each study states them. Only the Elysia-vs-Encore post names its machine's
 * CPU (the Swift study names a 2012 Mac mini, a model sold with two or four cores), and none says how
 * many cores its server had, so no published figure can be divided per core: `perCore` says so
 * rather than guess.
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
  /** Where the load generator ran, as the study states it. */
  generatorRan: string;
  /** True: on the machine it measured; false: on another; null: the study does not say. */
  generatorOnServer: boolean | null;
  /** The cores the server had; null: not published. */
  cores: number | null;
}

const ELYSIA_MACHINE = publishedElysiaEncore.machine.split(";")[0]; // the machine, without the versions
const ELYSIA = {
  study: `Elysia vs Encore 2025 (oha -c ${publishedElysiaEncore.connections}, bare GET /hello)`,
  machine: ELYSIA_MACHINE,
  generatorRan: publishedElysiaEncore.generatorRan,
  generatorOnServer: true,
};
const SWIFT_ROUTES = publishedSwiftNode.tests.find((t) => t.kind === "routes")!;
const OSGOOD = {
  study: `Osgood 0.2, 2019 (${publishedOsgood.command})`,
  machine: publishedOsgood.machine,
  generatorRan: publishedOsgood.generatorRan,
  generatorOnServer: true,
};

export const publishedThreading: readonly PublishedThreadingRow[] = [
  {
    ...ELYSIA,
    server: "Elysia on Bun",
    threads: "JavaScript on one thread, in one process",
    reqPerSec: bare("Elysia"),
    cores: null,
  },
  {
    ...ELYSIA,
    server: "Encore.ts",
    threads: "HTTP handled by a multi-threaded Rust runtime; the handlers' JavaScript in Node",
    reqPerSec: bare("Encore.ts"),
    cores: null,
  },
  ...["Perfect", "Zewo"].map((name) => ({
    study: `${publishedSwiftNode.title} (${SWIFT_ROUTES.loads[0].command.split(" http")[0]}, /blog and /json)`,
    server: name,
    threads: swift(name),
    reqPerSec: null,
    machine: publishedSwiftNode.machine,
    generatorRan: SWIFT_ROUTES.generatorRan!,
    generatorOnServer: SWIFT_ROUTES.generatorOnServer,
    cores: null,
  })),
  {
    ...OSGOOD,
    server: "Osgood",
    threads: "JavaScript in V8 isolates inside a Rust server; its req/s rose with the connections",
    reqPerSec: osgood("Osgood 0.2"),
    cores: null,
  },
  {
    ...OSGOOD,
    server: "Node 12.7",
    threads: "JavaScript on one thread, in one process",
    reqPerSec: osgood("Node 12.7"),
    cores: null,
  },
];

/** req/s per core, or null where either is unknown (a study that did not publish its cores). */
export function perCore(reqPerSec: number | null, cores: number | null): number | null {
  if (reqPerSec === null || cores === null || !(cores > 0)) return null;
  return reqPerSec / cores;
}
