/**
 * The 2016 server-side Swift vs Node study: two routes, two wrk loads, memory and threads, for four
 * Swift frameworks and Node. The workbook's sources quote its method and its finding about Express,
 * not its figures; its Swift servers cannot run here (`whyNotHere`).
 */
export interface SwiftNodeServer {
  server: string;
  language: "Swift" | "JavaScript";
  /** How it serves its requests, as the study reports it; null where the workbook's sources do not say. */
  threads: string | null;
  /** Whether the workbook runs it (its own rebuild), and why not where it cannot. */
  runsHere: boolean;
  note: string;
}

export interface SwiftNodeStudy {
  title: string;
  source: string;
  /** The study's two routes: path, what it answers, and the workbook's route that answers the same. */
  routes: { path: string; answers: string; here: string }[];
  /** The loads, as the study ran them. */
  loads: { command: string; connections: number }[];
  measured: string;
  finding: string;
  servers: SwiftNodeServer[];
}

const NO_SWIFT =
  "no Swift toolchain here: Debian 12 packages none, and a Swift server's packages come from GitHub through SwiftPM, which this machine cannot reach";

export const publishedSwiftNode: SwiftNodeStudy = {
  title: "Server-side Swift vs Node (2016)",
  source:
    "A 2016 comparison of four server-side Swift frameworks with Node and Express, each answering the same two routes under wrk; its method and its summary as the workbook's brief gives them.",
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
  loads: [
    { command: "wrk -t4 -c10", connections: 10 },
    { command: "wrk -t8 -c100", connections: 100 },
  ],
  measured: "req/s, memory at start-up and at its peak under each load, and the threads of each server under load",
  finding: "Express came last or second to last in every test.",
  servers: [
    { server: "Perfect", language: "Swift", threads: "every CPU, from one process", runsHere: false, note: NO_SWIFT },
    { server: "Vapor", language: "Swift", threads: null, runsHere: false, note: NO_SWIFT },
    { server: "Kitura", language: "Swift", threads: null, runsHere: false, note: NO_SWIFT },
    {
      server: "Zewo",
      language: "Swift",
      threads: "one thread per process: one instance per CPU",
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
