import type { StudyClaim, StudyLoad } from "./study";

/** A published comparison of one route served bare and with its body validated. */
export interface PublishedValidationRow {
  label: string;
  runtime: string;
  /** req/s on the bare route, and on the route that validates its request. */
  bare: number;
  validated: number;
  /** False where the server cannot run on this machine; `note` says why. */
  runsHere: boolean;
  note?: string;
}

/** A request as a benchmark's README sends it. */
export interface PublishedRequest {
  method: "POST";
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** The benchmark's two oha commands, verbatim from the fork's README (the post prints none). */
export interface PublishedOhaCommands {
  /** The bare test: GET /hello, which the fork's Elysia app answers with a static response. */
  bare: string;
  /** The "with validation" test: it sends `validatedRequest`. */
  validated: string;
  /** The upstream benchmark's bare command, before the fork raised the concurrency. */
  upstream: string;
}

export interface PublishedValidationTable {
  title: string;
  source: string;
  /** The date the post gives for its run. */
  date: string;
  /** The machine it ran on, as the post gives it. */
  machine: string;
  /** The versions the post names. */
  versions: Record<string, string>;
  /** Where the load generator ran, as the fork's commands show it (the post prints none). */
  generatorRan: string;
  /** The bare test's load as the fork's README gives it, and the validated one's, for asPublished. */
  loads: { bare: StudyLoad; validated: StudyLoad };
  /**
   * What the workbook takes from the fork's repository (SaltyAom/encore-ts-benchmarks), not from the
   * post: the post prints no command, no run count and no request.
   */
  fromRepository: string[];
  /** What the post claims, and where the workbook measures each. */
  claims: StudyClaim[];
  /** The load, short: the flags both commands share (from the fork's README). */
  command: string;
  /** Each command in full, as the fork's README prints it. */
  commands: PublishedOhaCommands;
  /** oha's concurrency in the fork, and in the upstream benchmark it forked. */
  connections: number;
  upstreamConnections: number;
  /** What the post changed from the upstream benchmark, in its order. */
  changes: string[];
  /** What the fork's bare Elysia app answers on GET /hello (a static value, not a handler). */
  bareAnswer: string;
  rows: PublishedValidationRow[];
  /** The request the published "with validation" command sends. */
  validatedRequest: PublishedRequest;
  /** The route the benchmark's own validating Elysia app defines. */
  elysiaRoute: string;
  /** The post's headline, computed from its rows: Elysia's req/s over Encore's, bare and validated. */
  readonly headline: { bare: number; validated: number };
}

const FORK_README = "SaltyAom/encore-ts-benchmarks, its README";
const POST_MACHINE =
  "Intel i7-13700K, 32 GB of DDR5-5600 memory; Debian 11 (bullseye) under WSL, kernel 5.15.167.4-microsoft-standard-WSL2";
const POST_VERSIONS = { Elysia: "1.4.16", Bun: "1.3.2", Encore: "1.5.17", Rust: "1.91.1" };
const ON_ITS_MACHINE = "on the machine it measured (oha loads 127.0.0.1; from the fork's README)";
const BARE = 'PORT=3000 oha -c 450 -z 10s -m GET "http://127.0.0.1:$PORT/hello"';
const VALIDATED =
  "PORT=3000 oha -c 450 -z 10s -m POST -H 'Content-Type: application/json' -H 'x-foo: test' " +
  '"http://127.0.0.1:$PORT/schema?name=test&excitement=123" -d \'{"someKey": "test", "someOtherKey": 123, ' +
  '"requiredKey": [123, 456, 789], "nullableKey": null, "multipleTypesKey": true, ' +
  '"multipleRestrictedTypesKey": "test", "enumKey": "John"}\'';
const forkLoad = (command: string) => ({
  command,
  generatorRan: ON_ITS_MACHINE,
  generatorOnServer: true,
  machine: POST_MACHINE,
  versions: { Elysia: POST_VERSIONS.Elysia, Bun: POST_VERSIONS.Bun },
  note: `the command is the fork's (${FORK_README}); the post prints none, and five runs with the best kept is the upstream benchmark's method (encoredev/ts-benchmarks, its README)`,
});

/**
 * The Elysia-vs-Encore post (saltyaom, elysiajs.com, 2025-11-14): its table (Elysia 293,991 and
 * 223,924 req/s, Encore 139,033 and 95,854, bare and validated; `headline` 2.11x and 2.34x), its three
 * changes to the upstream benchmark (the app compiled with `bun compile`, the bare `/hello` a static
 * response, oha's concurrency 150 to 450), the versions it names (Elysia 1.4.16, Bun 1.3.2, Encore
 * 1.5.17, Rust 1.91.1) and its machine (an i7-13700K under WSL). What the post does not print comes
 * from the fork it links (SaltyAom/encore-ts-benchmarks), listed in `fromRepository`: the oha commands
 * (`commands`, `loads`), the best of five 10-s runs (the upstream's README), the validated request (`validatedRequest`, to
 * `/schema`) and the route its validating Elysia app defines (`elysiaRoute`). Encore's row has
 * `runsHere: false` (its Rust runtime ships only with the vendor's CLI).
 */
export const publishedElysiaEncore: PublishedValidationTable = {
  title: "Elysia vs Encore 2025",
  source:
    "The Elysia team's post (saltyaom, elysiajs.com blog, 2025-11-14) re-ran Encore's own benchmark (encoredev/ts-benchmarks) in a fork (SaltyAom/encore-ts-benchmarks) and printed its req/s without and with validation. The post prints no command: the oha commands and the validated request come from the fork's README (whose Elysia section still prints -c 150 for the bare test where its list of changes gives 450), the best of five 10-s runs from the upstream's.",
  date: "2025-11-14",
  command: "oha -c 450 -z 10s",
  commands: {
    bare: BARE,
    validated: VALIDATED,
    upstream: 'PORT=3000 oha -c 150 -z 10s -m GET "http://127.0.0.1:$PORT/hello"',
  },
  loads: { bare: forkLoad(BARE), validated: forkLoad(VALIDATED) },
  fromRepository: [
    "the oha commands (oha -c 450 -z 10s, the upstream's -c 150)",
    "each figure the best of five 10-s runs (the upstream benchmark's README, encoredev/ts-benchmarks, says so; the fork and the post do not)",
    "the validated request: POST /schema?name=test&excitement=123, its x-foo header and JSON body",
    "the one route the validating Elysia app defines, POST /hello/:par1/:par2",
    'what the bare Elysia app answers on GET /hello: {"message":"Hello, World"} as JSON, a static value',
  ],
  connections: 450,
  upstreamConnections: 150,
  changes: [
    "the Elysia app compiled for production (the post calls it bun compile; Bun's command is bun build --compile)",
    "the bare test answered with a static resource (Elysia's static value, not a handler)",
    "oha's concurrency raised from 150 to 450, for the machine",
  ],
  bareAnswer: '{"message":"Hello, World"} (JSON), a static value',
  machine: POST_MACHINE,
  versions: POST_VERSIONS,
  generatorRan: ON_ITS_MACHINE,
  claims: [
    {
      claim: "in Encore's own benchmark, Elysia now serves about twice Encore's req/s, bare and validated",
      testedIn: null,
      because: "Encore cannot run here (its Rust runtime ships only with the vendor's CLI)",
    },
    {
      claim: "the bare test's static response, which Elysia hands to Bun's native router (Bun 1.2.3, Elysia 1.3)",
      testedIn: "section 5: Elysia on Bun, the static response against a handler",
    },
    {
      claim: "compiling the app for production brings a significant gain and uses less memory",
      testedIn: "section 6: the compiled app against the same app from source (req/s)",
    },
    {
      claim: "Exact Mirror, its JIT-compiled normalisation, is about 30x faster on medium payloads",
      testedIn: null,
      because:
        "the workbook times Elysia's validation as a whole (normalisation and TypeBox check) against parsing alone, not Exact Mirror against the normalisation it replaced",
    },
  ],
  validatedRequest: {
    method: "POST",
    path: "/schema?name=test&excitement=123",
    headers: { "content-type": "application/json", "x-foo": "test" },
    body: {
      someKey: "test",
      someOtherKey: 123,
      requiredKey: [123, 456, 789],
      nullableKey: null,
      multipleTypesKey: true,
      multipleRestrictedTypesKey: "test",
      enumKey: "John",
    },
  },
  elysiaRoute: "/hello/:par1/:par2",
  rows: [
    { label: "Elysia", runtime: "Bun", bare: 293_991, validated: 223_924, runsHere: true },
    {
      label: "Encore.ts",
      runtime: "Encore's Rust runtime",
      bare: 139_033,
      validated: 95_854,
      runsHere: false,
      note: "cannot run here: the npm package encore.dev holds no native binary; it loads encore-runtime.node, which ships only with the encore CLI installed from the vendor's site, and this machine reaches package registries only",
    },
  ],
  get headline() {
    const row = (label: string) => this.rows.find((r) => r.label === label)!;
    const [elysia, encore] = [row("Elysia"), row("Encore.ts")];
    return { bare: elysia.bare / encore.bare, validated: elysia.validated / encore.validated };
  },
};
