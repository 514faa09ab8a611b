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

/** The post's two oha commands, verbatim from its README. */
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
  /** The machine it ran on, as the benchmark's README gives it, and the versions it names. */
  machine: string;
  /** Where the load generator ran, as the README's commands show it. */
  generatorRan: string;
  /** The load, short: the flags both commands share. */
  command: string;
  /** Each command in full, as the README prints it. */
  commands: PublishedOhaCommands;
  /** oha's concurrency in the fork, and in the upstream benchmark it forked. */
  connections: number;
  upstreamConnections: number;
  /** What the fork changed from the upstream benchmark, in its README's order. */
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

/**
 * The Elysia-vs-Encore benchmark (SaltyAom/encore-ts-benchmarks, 2025): an i7-13700K under WSL2, oha
 * on the same machine (it loads 127.0.0.1); its two oha commands verbatim and the upstream's bare one
 * (`-c 150`); the fork's three changes (Elysia compiled with `bun build --compile`, the bare `/hello`
 * a static response, concurrency 150 to 450); `headline`, Elysia's req/s over Encore's from the rows
 * (2.11x bare, 2.34x validated); `validatedRequest`, the request its "with validation" command sends;
 * `elysiaRoute`, the one route its validating Elysia app defines (`/hello/:par1/:par2`). Encore's row
 * has `runsHere: false` (its Rust runtime ships only with the vendor's CLI).
 */
export const publishedElysiaEncore: PublishedValidationTable = {
  title: "Elysia vs Encore 2025",
  source:
    "SaltyAom/encore-ts-benchmarks (a fork of encoredev/ts-benchmarks, 2025-11-14): best of five 10 s oha runs; bare GET /hello, and POST /schema?name=test&excitement=123 with a JSON body checked against a schema (maxItems 3, a oneOf, an enum); Elysia compiled with bun build --compile. In the fork the validating Elysia app defines POST /hello/:par1/:par2, not /schema: the README does not print what the published command got back (notebook 03 sends it). The README's Elysia section still prints -c 150 for the bare test; its list of changes and its 'This variant' command give 450.",
  command: "oha -c 450 -z 10s",
  commands: {
    bare: 'PORT=3000 oha -c 450 -z 10s -m GET "http://127.0.0.1:$PORT/hello"',
    validated:
      "PORT=3000 oha -c 450 -z 10s -m POST -H 'Content-Type: application/json' -H 'x-foo: test' " +
      '"http://127.0.0.1:$PORT/schema?name=test&excitement=123" -d \'{"someKey": "test", "someOtherKey": 123, ' +
      '"requiredKey": [123, 456, 789], "nullableKey": null, "multipleTypesKey": true, ' +
      '"multipleRestrictedTypesKey": "test", "enumKey": "John"}\'',
    upstream: 'PORT=3000 oha -c 150 -z 10s -m GET "http://127.0.0.1:$PORT/hello"',
  },
  connections: 450,
  upstreamConnections: 150,
  changes: [
    "Elysia updated to 1.4 and compiled for production (bun build --compile)",
    "the bare GET /hello answered with a static response (Elysia's static value, not a handler)",
    "oha's concurrency raised from 150 to 450 for the machine",
  ],
  bareAnswer: '{"message":"Hello, World"} (JSON), a static value',
  machine:
    "Intel i7-13700K (8 performance + 8 efficient cores, 24 threads), Debian 11 under WSL2; Elysia 1.4.16 on Bun 1.3.2, Encore 1.5.17",
  generatorRan: "on the machine it measured (oha loads 127.0.0.1)",
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
