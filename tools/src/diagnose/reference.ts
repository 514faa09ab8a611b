import fs from "node:fs";
import path from "node:path";
import { frameworks, type LoadOptions, repoRoot, runLoad, settings } from "@workbook/harness";
import { startApp, type V8CpuProfile } from "@workbook/harness/internal";
import { type BusyTime, busyTime } from "./busy";
import { FRAMEWORKS, packageOf } from "./callers";
import type { BusyKind } from "./kinds";

/**
 * The yardstick's references: what a request costs a server that does nothing but answer, measured
 * on the spot, on the app's pinned core under the same load (its connections, its generator), right
 * after the app: the bare node:http answer (apps/frameworks/node-http.js, GET /hello) and, when the
 * app's profile shows a web framework that the workbook's registry has (apps/frameworks/), that
 * framework's hello route. Each: a short warm-up, a watched stretch for its CPU per request (no
 * profiler attached, as the app's), and for the framework a profiled one: where its own request
 * handling spends that CPU, package by package, which yardstick.ts sets against the app's.
 */

/** The stretches of a reference, seconds: a fraction of the diagnosis's own (diagnose.ts, DIAGNOSE_SECONDS). */
export const REFERENCE_SECONDS = {
  quick: { warmup: 0.5, watched: 1, profiled: 0.5 },
  full: { warmup: 0.5, watched: 2, profiled: 1 },
} as const;

export interface Reference {
  /** The registry's app ("node-http", "express"...), its title and the version that ran. */
  name: string;
  title: string;
  version: string;
  route: string;
  /** CPU time per request, ms (the watched stretch); null where the platform cannot read a process's CPU. */
  cpuPerRequestMs: number | null;
  reqPerSec: number;
  /** Where its busy time went (busy.ts), from its profiled stretch; null for the bare answer (not profiled: all Node's handling). */
  busy: Pick<BusyTime, "shares" | "packages"> | null;
  /** The command that started it, as a learner types it. */
  server: string;
}

/** The web framework a profile shows: the package of FRAMEWORKS with the most busy time, its registry app (null: none there), its version as the app has it. */
export interface FrameworkSeen {
  package: string;
  reference: string | null;
  version: string | null;
}

/** The registry's app for each framework package a profile may show. */
const REFERENCE_OF: Record<string, string> = {
  express: "express",
  fastify: "fastify",
  koa: "koa",
  restify: "restify",
  hono: "hono",
  "@hono/node-server": "hono",
  micro: "micro",
  polka: "polka",
  h3: "h3",
  srvx: "h3",
};

/** The framework whose code took most of a profile's busy time, as `busy.packages` counts it; null when none did. */
export function frameworkSeen(
  busy: Pick<BusyTime, "packages" | "paths">,
  profile?: V8CpuProfile,
): FrameworkSeen | null {
  const seen = Object.entries(busy.packages)
    .filter(([p]) => FRAMEWORKS.has(p))
    .sort((a, b) => Number(b[0] in REFERENCE_OF) - Number(a[0] in REFERENCE_OF) || b[1] - a[1])[0];
  if (!seen) return null;
  const name = seen[0];
  return { package: name, reference: REFERENCE_OF[name] ?? null, version: profile ? versionOf(profile, name) : null };
}

/** The version of `pkg` that the profiled app ran: the package.json beside the first of its frames in the profile. */
function versionOf(profile: V8CpuProfile, pkg: string): string | null {
  for (const n of profile.nodes) {
    const url = n.callFrame.url.replace(/^file:\/\//, "");
    if (packageOf(url) !== pkg) continue;
    const at = url.lastIndexOf(`node_modules/${pkg}/`);
    const file = path.join(url.slice(0, at), "node_modules", pkg, "package.json");
    try {
      return (
        (JSON.parse(fs.readFileSync(path.resolve(repoRoot, file), "utf8")) as { version?: string }).version ?? null
      );
    } catch {
      return null;
    }
  }
  return null;
}

export interface ReferenceOptions {
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** Seconds profiled: 0 for none. */
  profileSeconds: number;
  /** The folder its profile goes to (beside the app's). */
  dir: string;
  generator: LoadOptions["generator"];
  /** The app's load's rate cap (req/s), if it had one: the same load. */
  rate?: number;
}

/** Load one app of apps/frameworks/ on GET /hello as the diagnosis loads the app, and read its CPU per request (and profile it). */
export async function measureReference(name: string, o: ReferenceOptions): Promise<Reference> {
  const entry = frameworks.find((f) => f.name === name);
  if (!entry) throw new Error(`no app "${name}" in apps/frameworks/`);
  const app = await startApp(`frameworks/${name}`, { port: "free" });
  const base = {
    target: app,
    path: "/hello",
    connections: o.connections,
    generator: o.generator,
    ...(o.rate ? { rate: o.rate } : {}),
    warmup: 0,
    repeats: 1,
    live: false,
    report: false,
  };
  try {
    await runLoad({ ...base, duration: o.warmupSeconds, label: `${name} /hello (warm-up)` });
    const load = await runLoad({ ...base, duration: o.seconds, label: `${name} /hello (reference)` });
    let busy: Reference["busy"] = null;
    if (o.profileSeconds > 0 && app.channel) {
      const file = path.join(o.dir, `reference-${name}.cpuprofile`);
      await app.channel.request("cpu-profile-start", { intervalUs: 1000 }, 60_000);
      await runLoad({ ...base, duration: o.profileSeconds, label: `${name} /hello (profiled)` });
      await app.channel.request("cpu-profile-stop", { file }, 60_000);
      const { shares, packages } = busyTime(JSON.parse(fs.readFileSync(file, "utf8")) as V8CpuProfile);
      busy = { shares, packages };
    }
    return {
      name,
      title: entry.title,
      version: entry.version,
      route: "/hello",
      cpuPerRequestMs: load.cpuPerRequestUs ? load.cpuPerRequestUs.median / 1000 : null,
      reqPerSec: load.reqPerSec.median,
      busy,
      server: app.command,
    };
  } finally {
    await app.stop();
  }
}

/** The references measured beside one or more runs of an app, the framework its profiles show, and what could not be measured. */
export interface References {
  bare: Reference | null;
  framework: Reference | null;
  seen: FrameworkSeen | null;
  /** A reference that failed to start or load, one sentence each (the yardstick then reads the other). */
  notes: string[];
}

/**
 * The references for runs of one app (collect.ts: their profiles): the bare answer, and the hello
 * route of the framework that took most of their busy time, if the registry has it, each in the
 * stretches of REFERENCE_SECONDS for the profile in force; in `dir` of the first run, its profile.
 */
export async function measureReferences(
  runs: readonly { cpuProfile: V8CpuProfile; dir: string }[],
  o: Pick<ReferenceOptions, "connections" | "generator" | "rate">,
): Promise<References> {
  const seen =
    runs
      .map((r) =>
        frameworkSeen(
          busyTime(r.cpuProfile, () => null),
          r.cpuProfile,
        ),
      )
      .filter((f): f is FrameworkSeen => f !== null)
      .sort((a, b) => Number(!!b.reference) - Number(!!a.reference))[0] ?? null;
  const s = REFERENCE_SECONDS[settings().name];
  const common = { ...o, warmupSeconds: s.warmup, seconds: s.watched, dir: runs[0]?.dir ?? "." };
  const notes: string[] = [];
  const attempt = async (name: string, profileSeconds: number) =>
    measureReference(name, { ...common, profileSeconds }).catch((err: Error) => {
      notes.push(`the reference ${name} could not be measured: ${err.message.split("\n")[0]}`);
      return null;
    });
  const bare = await attempt("node-http", 0);
  const framework = seen?.reference ? await attempt(seen.reference, s.profiled) : null;
  return { bare, framework, seen, notes };
}

/** The bare answer's breakdown, not profiled: all of it Node's own request handling. */
export const BARE_SHARES: Partial<Record<BusyKind, number>> = { node: 1 };
