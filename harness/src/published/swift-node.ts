/**
 * The 2016 server-side Swift vs Node study: four Swift frameworks and Node with Express, each
 * answering the same two routes, in three kinds of test (`tests`): the routes' throughput under a
 * 10-minute wrk from a second machine, memory at start-up and at its peak under two 1-minute loads,
 * and threads under one. Its results are charts only (no figure in its text), so the workbook quotes
 * its method, machine and finding, not its numbers; its Swift servers cannot run here (`NO_SWIFT`).
 */
export interface SwiftNodeServer {
  server: string;
  language: "Swift" | "JavaScript";
  /** How it serves its requests, as the study describes it; null where the study does not say. */
  threads: string | null;
  /** Whether the workbook runs it (its own rebuild), and why not where it cannot. */
  runsHere: boolean;
  note: string;
}

/** One wrk command of the study, as it printed it (`<server>:<port>` as it wrote them). */
export interface SwiftNodeLoad {
  command: string;
  durationSeconds: number;
  threads: number;
  connections: number;
}

/** One kind of test the study ran. */
export interface SwiftNodeTest {
  kind: "routes" | "memory" | "threads";
  /** What it read, and how. */
  measured: string;
  loads: SwiftNodeLoad[];
  /** Where wrk ran, as the study states it; null where it does not say. */
  generatorRan: string | null;
  /** True where wrk ran on the machine it measured, false where on another, null: not stated. */
  generatorOnServer: boolean | null;
}

export interface SwiftNodeStudy {
  title: string;
  source: string;
  /** The study's two routes: path, what it answers, and the workbook's route that answers the same. */
  routes: { path: string; answers: string; here: string }[];
  /** The three kinds of test, in the study's order: routes, memory, threads. */
  tests: SwiftNodeTest[];
  /**
   * The memory test's two loads (`tests[1].loads`), the ones notebook 03 runs today. They are not the
   * routes' load: that is `tests[0]` (`wrk -d 10m -t 4 -c 20`, from a second machine).
   */
  loads: { command: string; connections: number }[];
  /** The server's machine, as the study gives it. */
  machine: string;
  /** How the servers were built. */
  builds: string;
  /** What the study says of its own method. */
  method: string[];
  measured: string;
  finding: string;
  /** Who paid for the study, and the author's ties, as the study discloses them. */
  funding: string;
  servers: SwiftNodeServer[];
}

const NO_SWIFT =
  "no Swift toolchain here: Debian 12 packages none, and a Swift server's packages come from GitHub through SwiftPM, which this machine cannot reach";

const wrk = (minutes: number, threads: number, connections: number, url = ""): SwiftNodeLoad => ({
  command: `wrk -d ${minutes}m -t ${threads} -c ${connections}${url ? ` ${url}` : ""}`,
  durationSeconds: minutes * 60,
  threads,
  connections,
});

const routesTest: SwiftNodeTest = {
  kind: "routes",
  measured: "req/s and latency of each route, each framework restarted before each test, one at a time",
  loads: [wrk(10, 4, 20, "http://<server>:<port>/blog"), wrk(10, 4, 20, "http://<server>:<port>/json")],
  generatorRan: "on a second machine (a 2015 MacBook Pro), over a Thunderbolt 2 bridge",
  generatorOnServer: false,
};

const memoryTest: SwiftNodeTest = {
  kind: "memory",
  measured: "memory at start-up, then its peak under each load, read by eye from Activity Monitor",
  loads: [wrk(1, 4, 10), wrk(1, 8, 100)],
  generatorRan: null,
  generatorOnServer: null,
};

const threadsTest: SwiftNodeTest = {
  kind: "threads",
  measured: "the peak number of threads of each server under the load",
  loads: [wrk(1, 4, 10)],
  generatorRan: null,
  generatorOnServer: null,
};

/**
 * The 2016 server-side Swift vs Node study (a 2012 Mac mini, OS X 10.11.6, release builds; paid for by
 * PerfectlySoft, its author on the Perfect and Vapor teams): routes `/blog` and `/json`, each with the
 * workbook's route that answers the same; three kinds of test (routes under `wrk -d 10m -t 4 -c 20`
 * from a second machine; memory at start-up and under two 1-min loads, the ones notebook 03 runs;
 * threads), with `generatorRan` null where the study does not say. Its results are charts only, so
 * there are no figures to set beside a run; no Swift server runs here (`note` says why).
 * Notebook 07's `publishedThreading` takes its Perfect and Zewo rows from here.
 */
export const publishedSwiftNode: SwiftNodeStudy = {
  title: "Server-side Swift vs Node (2016)",
  source:
    "A 2016 comparison of four server-side Swift frameworks with Node and Express, each answering the same two routes under wrk, in three kinds of test (throughput, memory, threads); results as charts only.",
  routes: [
    {
      path: "/blog",
      answers: "a fake blog post with 5 random image names",
      here: "GET /blog (every app of apps/frameworks/)",
    },
    {
      path: "/json",
      answers: "a random number from 0 to 1000",
      here: "GET /random (node-http.js and express.js)",
    },
  ],
  tests: [routesTest, memoryTest, threadsTest],
  loads: memoryTest.loads.map((l) => ({ command: l.command, connections: l.connections })),
  machine: "a 2012 Mac mini, a clean install of OS X El Capitan 10.11.6 (Xcode 8 beta 6)",
  builds:
    "every framework built in release mode (Zewo measured again on 2016-09-01 with swift build -c release); the study also timed each framework's build",
  method: ["4 seconds is not a test, 10 minutes is reasonable"],
  measured: "req/s under a 10-minute load, memory at start-up and at its peak under two loads, and threads under load",
  finding: "Node came last or second to last in every test.",
  funding: "PerfectlySoft funded the study; its author sat on the Perfect and Vapor teams",
  servers: [
    { server: "Perfect", language: "Swift", threads: "every available CPU", runsHere: false, note: NO_SWIFT },
    { server: "Vapor", language: "Swift", threads: "one thread model per CPU", runsHere: false, note: NO_SWIFT },
    { server: "Kitura", language: "Swift", threads: null, runsHere: false, note: NO_SWIFT },
    {
      server: "Zewo",
      language: "Swift",
      threads: "single-threaded, unless run once per CPU",
      runsHere: false,
      note: NO_SWIFT,
    },
    {
      server: "Node with Express",
      language: "JavaScript",
      threads: "JavaScript on one thread, in one process",
      runsHere: true,
      note: "apps/frameworks/express.js, with node:http (node-http.js) beside it",
    },
  ],
};
