import type { StudyClaim, StudyLoad } from "./study";

/**
 * The 2016 server-side Swift vs Node study: four Swift frameworks and Node with Express, each
 * answering the same two routes, in four kinds of test (`tests`): each framework's build time on the
 * author's laptop, memory at start-up and at its peak under two 1-minute loads, threads under one, and
 * the routes' throughput under a 10-minute wrk from a second machine. Its results are charts only (no
 * figure in its text), so the workbook quotes its method, machine and finding, not its numbers; its
 * Swift servers cannot run here (`NO_SWIFT`).
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

/** One wrk command of the study, as it printed it, with where it ran (a StudyLoad, for asPublished). */
export interface SwiftNodeLoad extends StudyLoad {
  durationSeconds: number;
  threads: number;
  connections: number;
  /** The route its URL names; null where the command names none (the memory and threads tests). */
  path: string | null;
}

/** One kind of test the study ran. */
export interface SwiftNodeTest {
  kind: "build" | "memory" | "threads" | "routes";
  /** What it read, and how. */
  measured: string;
  /** Its wrk loads ([] for the build test). */
  loads: SwiftNodeLoad[];
  /** Its other commands, as printed (the build test's `swift build` and `time swift build`). */
  commands: string[];
  /** Where wrk ran (or, for the build test, where it built), as the study states it; null where it does not say. */
  generatorRan: string | null;
  /** True where wrk ran on the machine it measured, false where on another, null: not stated or no load. */
  generatorOnServer: boolean | null;
  /** What the workbook does of it, where it does not run it (the build test). */
  here?: string;
}

export interface SwiftNodeStudy {
  title: string;
  source: string;
  /** The study's two routes: path, what it answers, and the workbook's route that answers the same. */
  routes: { path: string; answers: string; here: string; herePath: string }[];
  /** The four kinds of test, in the study's order: build, memory, threads, routes (`/blog`, then `/json`). */
  tests: SwiftNodeTest[];
  /** The server's machine, as the study gives it. */
  machine: string;
  /** How the servers were built. */
  builds: string;
  /** What the study says of its own method, in the workbook's words. */
  method: string[];
  finding: string;
  /** Who paid for the study, and the author's ties, as the study discloses them. */
  funding: string;
  /** What the study says of its claims, and where the workbook measures each. */
  claims: StudyClaim[];
  servers: SwiftNodeServer[];
}

const NO_SWIFT =
  "no Swift toolchain here: Debian 12 packages none, and a Swift server's packages come from GitHub through SwiftPM, which this machine cannot reach";

const SERVER = "http://169.254.237.101:(PORT)"; // the Mac mini over the Thunderbolt bridge, as the study wrote it

const MACHINE = "a 2012 Mac mini, a clean install of OS X El Capitan 10.11.6 (Xcode 8 beta 6)";
const FROM_LAPTOP = "on a second machine (a 2015 MacBook Pro), over a Thunderbolt 2 bridge";

const wrk = (
  minutes: number,
  threads: number,
  connections: number,
  ran: { generatorRan: string | null; generatorOnServer: boolean | null },
  path: string | null = null,
): SwiftNodeLoad => ({
  command: `wrk -d ${minutes}m -t ${threads} -c ${connections}${path ? ` ${SERVER}${path}` : ""}`,
  durationSeconds: minutes * 60,
  threads,
  connections,
  path,
  generatorRan: ran.generatorRan ?? "not stated",
  generatorOnServer: ran.generatorOnServer,
  machine: MACHINE,
  versions: {}, // it names no version of Node or Express
});
const ROUTES_RAN = { generatorRan: FROM_LAPTOP, generatorOnServer: false };
const UNSTATED = { generatorRan: null, generatorOnServer: null };

const buildTest: SwiftNodeTest = {
  kind: "build",
  measured:
    "each framework's build time, twice: after a clean that removes its dependencies' builds and after a plain clean, debug builds with SwiftPM on the author's 2015 MacBook Pro",
  loads: [],
  commands: ["swift build --clean=dist", "time swift build", "swift build --clean", "time swift build"],
  generatorRan: "on the author's development machine (a 2015 MacBook Pro), not the test server",
  generatorOnServer: null,
  here: "not run here: no Swift toolchain; the study itself notes that Node with Express has no build step",
};

const routesTest: SwiftNodeTest = {
  kind: "routes",
  measured: "req/s and latency of each route, each framework restarted before each test, one at a time",
  loads: [wrk(10, 4, 20, ROUTES_RAN, "/blog"), wrk(10, 4, 20, ROUTES_RAN, "/json")],
  commands: [],
  ...ROUTES_RAN,
};

const memoryTest: SwiftNodeTest = {
  kind: "memory",
  measured: "memory at start-up, then its peak under each load, read by eye from Activity Monitor",
  loads: [wrk(1, 4, 10, UNSTATED), wrk(1, 8, 100, UNSTATED)],
  commands: [],
  ...UNSTATED,
};

const threadsTest: SwiftNodeTest = {
  kind: "threads",
  measured: "the peak number of threads of each server under the load, read from Activity Monitor",
  loads: [wrk(1, 4, 10, UNSTATED)],
  commands: [],
  ...UNSTATED,
};

/**
 * The 2016 server-side Swift vs Node study (a 2012 Mac mini, OS X 10.11.6, release builds; paid for by
 * PerfectlySoft, its author on the Perfect and Vapor teams): routes `/blog` and `/json`, each with the
 * workbook's route that answers the same (`herePath`); four kinds of test in its order (build times on
 * the author's laptop; memory at start-up and under two 1-min loads; threads; the routes under `wrk -d
 * 10m -t 4 -c 20 http://169.254.237.101:(PORT)/blog` from a second machine), with `generatorRan` null
 * where the study does not say. Its results are charts only, so there are no figures to set beside a
 * run; no Swift server runs here (`note` says why). Notebook 07's `publishedThreading` takes its Perfect
 * and Zewo rows from here.
 */
export const publishedSwiftNode: SwiftNodeStudy = {
  title: "Server-side Swift vs Node (2016)",
  source:
    "A 2016 comparison of four server-side Swift frameworks with Node and Express (Ryan Collins), each answering the same two routes under wrk, in four kinds of test (build time, memory, threads, the routes' throughput); results as charts only.",
  routes: [
    {
      path: "/blog",
      answers: "a fake blog post with 5 random image names",
      here: "GET /blog (every app of apps/frameworks/)",
      herePath: "/blog",
    },
    {
      path: "/json",
      answers: "a random number from 0 to 1,000",
      here: "GET /random (node-http.js and express.js)",
      herePath: "/random",
    },
  ],
  tests: [buildTest, memoryTest, threadsTest, routesTest],
  machine: MACHINE,
  builds:
    "every framework built in release mode for the tests (Zewo first ran a debug build, its toolchain snapshot could not build for release, and was measured again on 2016-09-01 with swift build -c release); Node with Express has no build",
  method: [
    "each route loaded for 10 minutes: the study counts a few seconds as no test at all, and ten minutes gathers plenty of data while 4 threads and 20 connections load the server hard without dropping connections",
    "its text speaks of 4 threads each making 20 connections; wrk's -c 20 is the total over its threads, 5 each",
    "one framework at a time on the server, restarted before each test, with only Activity Monitor open",
  ],
  finding: "Node came last or second to last in every test.",
  funding:
    "PerfectlySoft funded the study; its author sat on the Perfect and Vapor teams on GitHub, employed by neither",
  claims: [
    {
      claim: "Node with Express came last or second to last in every test",
      testedIn: null,
      because: "no Swift server runs here; the workbook runs Node's side under the study's loads",
    },
    {
      claim:
        "Zewo runs on one thread unless started once per CPU, Perfect uses every CPU, Vapor a thread model per CPU",
      testedIn: "notebook 07: one Node process against one per core",
    },
    {
      claim: "a few seconds is no test; ten minutes a run is reasonable",
      testedIn: "make as-published: its routes' loads for ten minutes each, recorded beside the quick runs",
    },
    {
      claim: "build time counts as part of a framework's cost to its developers",
      testedIn: null,
      because: "no Swift toolchain here, and Node with Express has no build step",
    },
  ],
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
