import type { GeneratorName } from "../core/generator";
import { parseLoad } from "./as-published";
import { published } from "./studies";
import type { StudyLoad } from "./study";

/**
 * What `make as-published` runs (scripts/as-published.js): every study's commands at their own length,
 * connections and threads, on the apps of this workbook that answer what the study's servers answered.
 * The record's keys are the rows' keys in the notebooks' "as published" tables.
 * tests/unit/as-published.test.js checks each run against its study's command.
 */
export interface PlannedRun {
  /** The key in notebooks/as-published.json, and in the notebooks' asPublished rows. */
  key: string;
  /** The study's title and what runs ("Osgood 0.1 -> 0.2 (2019), node:http"). */
  study: string;
  published: StudyLoad;
  /** The app: a registry name ("frameworks/express") or a file of apps/. */
  app: string;
  /** "bun": on the Bun of `make runtimes`; default the pinned Node. */
  runtime?: "bun";
  env?: Record<string, string>;
  /** Compile the app first with `bun build --compile`, as the study did, and run the executable. */
  compile?: boolean;
  /** What the route here answers, where its name differs from the study's. */
  route?: string;
  generator: GeneratorName;
  path: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  /** wrk's -t, where the study's command sets it (or wrk's default 2 where it does not). */
  threads?: number;
  seconds: number;
  /** Measured runs: the study's one, or five where it kept the best of five. */
  repeats: number;
  allowStatuses?: number[];
}

const EE = published.elysiaEncore;
const REQ = EE.validatedRequest;

/** The load a study's command sets: connections, threads (wrk only), seconds. */
function asSet(load: StudyLoad): { connections: number; threads?: number; seconds: number } {
  const p = parseLoad(load.command);
  return {
    connections: p.connections ?? 10,
    ...(p.tool === "wrk" && p.threads !== null ? { threads: p.threads } : {}),
    seconds: p.seconds ?? 10,
  };
}

function etagRuns(): PlannedRun[] {
  const E = published.etag;
  return E.rows.map((r) => ({
    key: `etag/${r.step}`,
    study: `${E.title}, ${r.label}`,
    published: r.load,
    app: `etag-${r.step}`,
    generator: "autocannon",
    path: "/seed/v1",
    ...asSet(r.load),
    repeats: 1,
  }));
}

function frameworks2022Runs(): PlannedRun[] {
  const T = published.frameworks2022;
  return T.rows.flatMap((r) =>
    r.framework === null
      ? []
      : [
          {
            key: `frameworks2022/${r.framework}`,
            study: `${T.title}, ${r.label}`,
            published: T.load,
            app: `frameworks/${r.framework}`,
            route: "the study's servers' answer at / is not in the post; /hello is the workbook's short text",
            generator: "wrk" as const,
            path: "/hello",
            ...asSet(T.load),
            repeats: 1,
          },
        ],
  );
}

function osgoodRuns(): PlannedRun[] {
  const O = published.osgood;
  return [
    {
      key: "osgood/node-http",
      study: `${O.title}, node:http (the post's Node row; Osgood does not run here)`,
      published: O.load,
      app: "frameworks/node-http",
      generator: "wrk",
      path: "/hello",
      ...asSet(O.load),
      repeats: 1,
    },
  ];
}

function swiftNodeRuns(): PlannedRun[] {
  const S = published.swiftNode;
  const routes = S.tests.find((t) => t.kind === "routes")!;
  const memory = S.tests.find((t) => t.kind === "memory")!;
  const here = (studyPath: string) => S.routes.find((r) => r.path === studyPath)!;
  const run = (load: (typeof routes.loads)[number], studyPath: string): PlannedRun => ({
    key: `swiftNode/express ${here(studyPath).herePath} c${load.connections}`,
    study: `${S.title}, Express ${here(studyPath).herePath}`,
    published: load,
    app: "frameworks/express",
    ...(here(studyPath).herePath !== studyPath ? { route: `the workbook's route for its ${studyPath}` } : {}),
    generator: "wrk",
    path: here(studyPath).herePath,
    ...asSet(load),
    repeats: 1,
  });
  return [
    ...routes.loads.map((l) => run(l, l.path!)),
    ...S.routes.flatMap((r) => memory.loads.map((l) => run(l, r.path))),
  ];
}

function elysiaRuns(): PlannedRun[] {
  const query = REQ.path.slice(REQ.path.indexOf("?"));
  const defined = EE.elysiaRoute.replace(":par1", "test").replace(":par2", "123") + query;
  const schema = {
    app: "frameworks/elysia-encore-schema.js",
    runtime: "bun" as const,
    compile: true,
    generator: "wrk" as const,
    method: REQ.method,
    headers: REQ.headers,
    body: JSON.stringify(REQ.body),
    ...asSet(EE.loads.validated),
    repeats: 5,
  };
  return [
    {
      key: "elysiaEncore/elysia static",
      study: `${EE.title}, Elysia on Bun, the static response, compiled`,
      published: EE.loads.bare,
      app: "frameworks/elysia",
      runtime: "bun",
      env: { HELLO: "static" },
      compile: true,
      generator: "wrk",
      path: "/hello",
      ...asSet(EE.loads.bare),
      repeats: 5,
    },
    {
      ...schema,
      key: "elysiaEncore/schema as published",
      study: `${EE.title}, the validating Elysia app, the published request, compiled`,
      published: EE.loads.validated,
      path: REQ.path,
      allowStatuses: [404],
    },
    {
      ...schema,
      key: "elysiaEncore/schema defined route",
      study: `${EE.title}, the validating Elysia app, the route it defines, compiled`,
      published: EE.loads.validated,
      route: "the route the benchmark's app defines",
      path: defined,
    },
  ];
}

/**
 * Every run of `make as-published`, study by study: "Keeping Node.js Fast" (its three autocannon runs of
 * 10 s), the 2022 table (`wrk -t 12 -c 500 -d 5m` on each of its frameworks the workbook has), Osgood
 * (`wrk -d 60 -c 10`, wrk's default 2 threads, on node:http), the Swift-vs-Node study (Express under its
 * routes' 10-minute loads and its memory test's two 1-minute loads, on /blog and /random) and Elysia vs
 * Encore (Elysia compiled, on Bun, 450 connections, 10 s, five runs: the bare test, the published
 * validated request and the route the app defines). oha is not installed here: wrk runs its loads.
 */
export function asPublishedPlan(): PlannedRun[] {
  return [...etagRuns(), ...frameworks2022Runs(), ...osgoodRuns(), ...swiftNodeRuns(), ...elysiaRuns()];
}
