// Notebook 03's studies as published, beside this machine's runs: four of the five studies (the 2022
// framework table, "Keeping Node.js Fast", the Swift study and Elysia against Encore). The notebook
// imports them as `studies`, beside its own helpers (`here`, 03-frameworks.ts);
// tests/unit/as-published.test.js reads them.
import * as wb from "@workbook/harness";

/**
 * "Keeping Node.js Fast" measured Fastify about 17 % faster than restify on its own setup; this run's
 * table sets the two in the same rounds (`adv`: wb.advantage of fastify over restify), in the words
 * the rounds allow.
 */
export function fastifyRestifyText(adv: wb.Advantage): string {
  const E = wb.published.etag;
  return (
    `${E.title} measured Fastify about ${wb.pct(E.fastifyOverRestify - 1)} faster than restify on its own ` +
    `setup, and printed neither the command nor the figures. This run's table, the same rounds: ` +
    wb.advantageText("Fastify", "restify", adv)
  );
}

const MiB = 2 ** 20;

/** Bytes an answer, from a table's transfer/s (wrk's MB, MiB) over its req/s: headers and body together. */
export function bytesPerAnswer(transferMB: number, reqPerSec: number): number {
  return (transferMB * MiB) / reqPerSec;
}

/** One cell of the 2022 table that its own wrk output contradicts, and whose output it repeats. */
export interface Inconsistency2022 {
  label: string;
  column: "transfer/s" | "latency";
  table: number;
  output: number;
  /** The row whose wrk output prints the table's figure; null where none does. */
  copies: string | null;
}

/**
 * Where the 2022 table disagrees with the wrk output the post prints for the same run: its transfer/s and
 * latency columns, row by row, each with the row whose output prints the table's figure (the table
 * copied it). On the post as published: micro's transfer and latency are http's, egg's transfer is express's.
 */
export function inconsistencies2022(table: wb.Table2022 = wb.published.frameworks2022): Inconsistency2022[] {
  const cols = [
    { column: "transfer/s" as const, of: (r: wb.Row2022) => [r.table.transferMB, r.wrk.transferMB] },
    { column: "latency" as const, of: (r: wb.Row2022) => [r.table.latencyMs, r.wrk.latency.meanMs] },
  ];
  return table.rows.flatMap((r) =>
    cols.flatMap(({ column, of }) => {
      const [printed, output] = of(r);
      if (printed === output) return [];
      const copies = table.rows.find((o) => o !== r && of(o)[1] === printed)?.label ?? null;
      return [{ label: r.label, column, table: printed, output, copies }];
    }),
  );
}

/** The inconsistencies in words, one sentence each, or that there are none. */
export function inconsistenciesText(found: readonly Inconsistency2022[]): string {
  if (found.length === 0) return "The table and its wrk outputs agree on every row.";
  const unit = (c: Inconsistency2022["column"]) => (c === "latency" ? "ms" : "MB");
  return found
    .map(
      (f) =>
        `- ${f.label}'s ${f.column}: the table prints ${wb.fmt(f.table)} ${unit(f.column)}, its own wrk output ` +
        `${wb.fmt(f.output)} ${unit(f.column)}${f.copies ? `; ${wb.fmt(f.table)} is ${f.copies}'s` : ""}.`,
    )
    .join("\n");
}

/**
 * The 2022 table as the post printed it, one row per framework: the version then and here (`here`: a
 * framework's version in this workbook, null for none), every column of the table beside its own wrk
 * output (transfer/s, mean latency), the output's p99 and max, its socket errors and bytes an answer.
 */
export function table2022Rows(here: (framework: string) => string | null): Record<string, string | number>[] {
  return wb.published.frameworks2022.rows.map((r) => ({
    framework: r.label,
    "version then": r.version ?? "Node's",
    "version here": r.framework === null ? "not run" : (here(r.framework) ?? "Node's"),
    "req/s": r.table.reqPerSec,
    "transfer MB/s, table / wrk": `${wb.fmt(r.table.transferMB)} / ${wb.fmt(r.wrk.transferMB)}`,
    "bytes an answer (wrk)": Math.round(bytesPerAnswer(r.wrk.transferMB, r.wrk.reqPerSec)),
    "latency ms, table / wrk": `${wb.fmt(r.table.latencyMs)} / ${wb.fmt(r.wrk.latency.meanMs)}`,
    "p99 ms": r.wrk.percentilesMs.p99,
    "max ms": r.wrk.latency.maxMs,
    "memory MB": r.table.memoryMB ?? "(empty)",
    "socket errors: connect, read, timeout": `${r.wrk.socketErrors.connect}, ${r.wrk.socketErrors.read}, ${r.wrk.socketErrors.timeout}`,
  }));
}

/** Each framework's wrk output under the 2022 table, every figure it prints (what table2022Rows leaves out). */
export function wrk2022Rows(): Record<string, string | number>[] {
  return wb.published.frameworks2022.rows.map(({ label, wrk: w }) => ({
    framework: label,
    "latency avg, stdev, max ms; +/- stdev": `${wb.fmt(w.latency.meanMs)}, ${wb.fmt(w.latency.stdevMs)}, ${wb.fmt(w.latency.maxMs)}; ${w.latency.withinStdevPct} %`,
    "req/s per thread avg, stdev, max; +/- stdev": `${wb.fmt(w.perThread.mean)}, ${wb.fmt(w.perThread.stdev)}, ${wb.fmt(w.perThread.max)}; ${w.perThread.withinStdevPct} %`,
    "p50, p75, p90, p99 ms": Object.values(w.percentilesMs).map(wb.fmt).join(", "),
    "requests in 5 min": w.requests,
    read: w.read,
    "socket errors: connect, read, write, timeout": Object.values(w.socketErrors).join(", "),
  }));
}

/**
 * The 2022 study's rows for `wb.published.beside`, one per framework the workbook has: its command (with
 * the version the table gives), what ran here (`ran(framework)`, null where nothing did: the record's
 * run alone), the versions here, and why `/hello` stands for its `/`.
 */
export function asPublished2022(
  ran: (framework: string) => wb.LoadResult | null,
  version: (framework: string) => string,
): wb.AsPublishedRow[] {
  const T = wb.published.frameworks2022;
  return T.rows.flatMap((r) => {
    if (r.framework === null) return [];
    const named = (v: string | null) => (r.version === null || v === null ? {} : { [r.label]: v });
    return [
      {
        key: `frameworks2022/${r.framework}`,
        study: `${T.title}, ${r.label}`,
        published: { ...T.load, versions: { ...T.load.versions, ...named(r.version) } },
        ran: ran(r.framework),
        versions: { Node: process.versions.node, ...named(version(r.framework)) },
        route: "the workbook's short text: what the study's servers answered at / is not in the post",
      },
    ];
  });
}

/** One run of notebook 03's Swift-vs-Node section: the app, the route here, the connections, the load. */
export interface SwiftRun {
  app: string;
  title: string;
  path: string;
  connections: number;
  ran: wb.LoadResult | null;
}

/**
 * Each run beside the study's command that it reproduces: at 20 connections the routes test's command
 * for the same route (the study's `/blog` for `/blog`, its `/json` for `/random`, which answers the
 * same), at 10 and 100 the memory test's (which names no route). The key is `make as-published`'s.
 */
export function swiftRows(runs: readonly SwiftRun[]): wb.AsPublishedRow[] {
  const S = wb.published.swiftNode;
  const routes = S.tests.find((t) => t.kind === "routes")!;
  const memory = S.tests.find((t) => t.kind === "memory")!;
  return runs.map((run) => {
    const route = S.routes.find((r) => r.herePath === run.path);
    const published =
      routes.loads.find((l) => l.connections === run.connections && l.path === route?.path) ??
      memory.loads.find((l) => l.connections === run.connections);
    if (!published) throw new Error(`no command of the study loads ${run.connections} connections`);
    const renamed = route && route.path !== run.path ? `it answers what the study's ${route.path} answered` : undefined;
    return {
      key: `swiftNode/${run.app} ${run.path} c${run.connections}`,
      study: `${S.title}, ${run.title} ${run.path}`,
      published: published,
      ran: run.ran,
      route: renamed,
    };
  });
}

/** One Elysia run of section 5's bare test: its target key ("static", "handler", "node"), label and load. */
export interface ElysiaRun {
  key: string;
  label: string;
  ran: wb.LoadResult;
}

const elysiaVersion = () => wb.frameworks.find((f) => f.name === "elysia")!.version;

/**
 * Section 5's Elysia runs beside the bare test's command (from the fork's README: the post prints none),
 * with what else differs from the post's: the app from source where it compiled it, a handler where it
 * answered with a static value, Node where it ran Bun, and the static answer's body (the fork's app
 * answers JSON). Only the static run on Bun has a full-length record (`make as-published` compiles it).
 */
export function elysiaBareRows(runs: readonly ElysiaRun[], bunVersion: string | null): wb.AsPublishedRow[] {
  const EE = wb.published.elysiaEncore;
  return runs.map((r) => {
    const onBun = r.key !== "node";
    const runtime: Record<string, string> = onBun ? { Bun: bunVersion ?? "absent" } : { Node: process.versions.node };
    const also = [
      "the app: here from source, in the post compiled",
      r.key === "static"
        ? `the answer: here "Hello, World!" as text, in the fork's app ${EE.bareAnswer}`
        : "the route: here a handler, in the post a static value",
      ...(onBun ? [] : ["the runtime: here Node, in the post Bun"]),
    ];
    return {
      ...(r.key === "static" ? { key: "elysiaEncore/elysia static" } : {}),
      study: `${EE.title}, ${r.label}`,
      published: EE.loads.bare,
      ran: r.ran,
      versions: { Elysia: elysiaVersion(), ...runtime },
      also: also,
    };
  });
}

/** The validated request's two loads of section 6 (the published path, then the route the app defines) as asPublished rows. */
export function elysiaSchemaRows(sent: readonly { path: string; load: wb.LoadResult }[], bunVersion: string | null) {
  const EE = wb.published.elysiaEncore;
  const keys = ["elysiaEncore/schema as published", "elysiaEncore/schema defined route"];
  return sent.map(
    (a, i): wb.AsPublishedRow => ({
      key: keys[i],
      study: `${EE.title}, the validating app, POST ${a.path.split("?")[0]}`,
      published: EE.loads.validated,
      ran: a.load,
      versions: { Elysia: elysiaVersion(), Bun: bunVersion ?? "absent" },
      ...(i === 1 ? { route: "the route the benchmark's app defines" } : {}),
      also: ["the app: here from source, in the post compiled"],
    }),
  );
}

/**
 * What the Elysia-vs-Encore post itself says (its changes, the versions it names beside the ones here,
 * its machine and date) and what the workbook takes from its fork's repository instead, marked so.
 */
export function elysiaPostText(bunVersion: string | null): string {
  const EE = wb.published.elysiaEncore;
  const here: Record<string, string> = { Elysia: elysiaVersion(), Bun: bunVersion ?? "absent" };
  const versions = Object.entries(EE.versions).map(
    ([name, v]) => `${name} ${v}${here[name] ? ` (here ${here[name]})` : " (not run here)"}`,
  );
  return [
    `**From the post** (${EE.date}): its changes to the upstream benchmark, ${EE.changes.map((c, i) => `(${i + 1}) ${c}`).join("; ")}.`,
    `The versions it names: ${versions.join(", ")}. Its machine: ${EE.machine}.`,
    `**From its fork's repository, not the post:** ${EE.fromRepository.join("; ")}. The upstream benchmark's ` +
      `bare command, at ${EE.upstreamConnections} connections: \`${EE.commands.upstream}\`.`,
  ].join("\n\n");
}
