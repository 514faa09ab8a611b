import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { AppStartError, badOption } from "../core/errors";
import { loopbackUrl } from "../core/loopback";
import { assertUniqueKeys } from "../core/order";
import { repoRoot } from "../core/paths";
import { pinning, serverWrap } from "../core/pinning";
import { fromWorkbookText, shellLine, shellWord } from "../core/shell";
import { within } from "../core/time";
import { type AppChannel, openChannel, PROBE_FILE } from "./channel";
import { cellSerial, type Stoppable, track, untrack } from "./lifecycle";
import { waitListening } from "./listening";
import { signalGroup } from "./process-group";
import { type AppRef, resolveApp } from "./registry";
import { type ExitInfo, spawnGroup } from "./spawn";

export interface StartOptions {
  /** Extra environment for the app. PORT (0, or the port of `port`) and HOST=127.0.0.1 are always set. */
  env?: Record<string, string>;
  /** Flags for the runtime before the entry file, e.g. ["--cpu-prof"]. */
  nodeArgs?: string[];
  /** Arguments after the entry file. */
  args?: string[];
  /** A command put in front of [runtime, ...nodeArgs, entry], e.g. a clinic invocation. */
  wrap?: string[];
  /** The runtime binary. Default: the Node running the harness (the pinned Node 26). */
  runtime?: string;
  /**
   * The entry is a program in itself (a `bun build --compile` executable: notebook 03's withBunCompiled): it
   * runs with no runtime in front of it, and no probe is preloaded (as on Bun). `runtime` and
   * `nodeArgs` must then be absent. Default false.
   */
  standalone?: boolean;
  /** Milliseconds to wait for the app to listen. Default 10000. */
  startTimeoutMs?: number;
  /** A path that must answer < 400 once listening; false to skip. Default: the registry's (none for your own file). */
  probe?: string | false;
  /** Run the app on its own core(s) (see pinning()). Default true. */
  pin?: boolean;
  /** Sample the app's memory, event loop and GC every this many ms (its probe sends them). Default: no sampling. */
  sampleMs?: number;
  /**
   * The port to load, for an app that listens on several (a metrics or admin port beside its own):
   * it is given to the app in PORT, so one that listens on PORT listens there. A number: the app must
   * listen on it. "free": a free port picked for PORT, and of several addresses the one on it is
   * loaded; an app that listens once is loaded wherever it listens. Default: PORT=0, and an app that
   * listens on several addresses fails (WB_APP_LISTENED_TWICE).
   */
  port?: number | "free";
  /** The app's working folder. Default: the workbook's root for a registered app, the entry's folder for your own. */
  cwd?: string;
  /**
   * false: return as soon as the process is spawned, without waiting for it to listen or probing it
   * (for a wrapper that runs its own load and ends the app itself, such as clinic). Default true.
   */
  listen?: boolean;
}

export interface AppHandle {
  name: string;
  url: string;
  port: number;
  /** The app's own pid (differs from groupId when wrapped). */
  pid: number;
  groupId: number;
  /** The CPUs the app runs on ("1"), or null when not pinned. */
  cpus: string | null;
  /** Set when the app listens beyond loopback. */
  warning: string | null;
  /**
   * The command that started it, as a learner would type it from the workbook's folder: the
   * environment it was given and the port it listens on, the pinning, the runtime, its flags, the
   * entry ("PORT=41235 taskset -c 1 node_modules/node/bin/node apps/hello-http/server.js"); an app
   * that runs from its own folder in a subshell that goes there ("(cd notebooks/your-server &&
   * PORT=41235 ../../node_modules/node/bin/node server.js)"). Paths inside the workbook are written from
   * where the line runs (the pinned Node by its path, never a bare `node`), so it runs as printed wherever
   * the workbook was cloned.
   * The harness's probe preload is left out: the app runs the same without it.
   */
  command: string;
  /** The probe's channel (samples, heap snapshots); null on a runtime without it (Bun). */
  channel: AppChannel | null;
  /** Resolves when the spawned process exits. */
  exited: Promise<ExitInfo>;
  exitInfo(): ExitInfo | null;
  /** The last 40 lines the app wrote to stdout, paths inside the workbook written from its folder (a stack's frames). */
  stdout(): string;
  /** The last 40 lines the app wrote to stderr, paths as for stdout. */
  stderr(): string;
  /** SIGINT to the whole process group, then SIGKILL after `timeoutMs` (default 5000). */
  stop(opts?: { signal?: NodeJS.Signals; timeoutMs?: number }): Promise<ExitInfo>;
}

/** A runtime given by path must exist and be executable: checked here, because behind taskset its absence would look like a crash. */
function assertExecutable(runtime: string, name: string): void {
  if (!path.isAbsolute(runtime)) return;
  try {
    fs.accessSync(runtime, fs.constants.X_OK);
  } catch (e) {
    const why =
      (e as NodeJS.ErrnoException).code === "ENOENT" ? `no such file: ${runtime}` : `not executable: ${runtime}`;
    throw new AppStartError("WB_APP_SPAWN", `could not start app "${name}": ${why}`, { app: name });
  }
}

/** The entry as a shell word: a standalone program in the working folder needs "./" to run. */
const entryWord = (rel: string, standalone: boolean) => (standalone && !rel.includes(path.sep) ? `./${rel}` : rel);

const isNode = (runtime: string) => !/bun(\.exe)?$/.test(path.basename(runtime));

/**
 * Start an app as its own process group with PORT=0 and HOST=127.0.0.1: one of the registry, or a
 * server file of your own (any framework, CommonJS or ESM). Waits until it listens (its JSON line, or
 * the probe's report of its 'listening' event), checks its probe path, and returns a handle. Fails
 * with an AppStartError that says what happened (exited, never listened, listened twice, answered an
 * error) and quotes the ends of its stdout and stderr; nothing of it is left running.
 *
 * `ref` is a registry name (`"hello-http"`, `"frameworks/fastify"`: the apps of `apps/`, listed in
 * `src/apps/registry.ts`, each with a probe path); a path to a server file of your own (any string
 * with `/`, `\` or `.`, relative to the working folder or absolute; named after its folder for
 * `server.js`, `index.js`, `app.js` or `main.js`, else after the file); or `{ entry, name?, probe? }`.
 * The app runs with `PORT=0`, `HOST=127.0.0.1`, `WORKBOOK_WATCH_STDIN=1` and `WORKBOOK_APP=<name>`
 * (not overridable), on the apps' CPU (`taskset`), with the probe preloaded (`--require
 * harness/preload/probe.cjs`) unless the runtime is Bun. An app that listens on all interfaces is
 * loaded on 127.0.0.1 and `warning` says so. Once listening it GETs the probe path (5 s limit,
 * redirects not followed).
 *
 * Codes: `WB_APP_NOT_FOUND` (no such name, the names in `hint`; or no such file), `WB_APP_SPAWN` (the
 * runtime cannot be started), `WB_APP_EXITED` (the hint tells a clean exit from a crash),
 * `WB_APP_SILENT` (no listen within `startTimeoutMs`), `WB_APP_LISTENED_TWICE` (several addresses and
 * no `port`, or not the `port` asked for), `WB_APP_UNREACHABLE` (a pipe, another machine's address),
 * `WB_APP_PROBE` (the probe failed or answered 400 or above). On Bun there is no probe, so only apps
 * that print the workbook's listening line can be started.
 *
 * @example
 * const app = await wb.startApp("your-server/server.js");
 * try {
 *   console.log(`${app.name} listens on ${app.url} (pid ${app.pid})`);
 * } finally {
 *   await app.stop();
 * }
 */
export async function startApp(ref: AppRef, opts: StartOptions = {}): Promise<AppHandle> {
  const app = resolveApp(ref);
  if (opts.standalone && (opts.runtime !== undefined || opts.nodeArgs?.length))
    throw badOption(
      "startApp",
      `app "${app.name}" is standalone (a program in itself): it takes no runtime and no runtime flags`,
    );
  const runtime = opts.standalone ? app.entryPath : (opts.runtime ?? process.execPath);
  assertExecutable(runtime, app.name);
  const node = !opts.standalone && isNode(runtime);
  // A standalone program is its own runtime: it is not given its own path.
  const entryArg = opts.standalone ? [] : [app.entryPath];
  const opened = node ? openChannel(app.entryPath, opts.sampleMs ?? 0) : null;
  const preload = node ? ["--require", PROBE_FILE] : [];
  const pinned = (opts.pin ?? true) && pinning().enabled;
  const wrap = [...serverWrap(pinned), ...(opts.wrap ?? [])];
  const argv = [...wrap, runtime, ...preload, ...(opts.nodeArgs ?? []), ...entryArg, ...(opts.args ?? [])];
  const cwd = opts.cwd ?? (app.registered ? repoRoot : path.dirname(app.entryPath));
  // The port it listened on goes first: the load commands printed beside a result name that port.
  // An app that runs from its own folder gets a `cd` there, in a subshell: the line still runs from
  // the workbook's folder, as the loads printed beside it do.
  const commandOn = (port: number) => {
    const rel = path.relative(repoRoot, cwd);
    const inside = !(rel.startsWith("..") || path.isAbsolute(rel));
    const line = shellLine(
      [
        ...wrap,
        ...(opts.standalone ? [] : [runtime]),
        ...(opts.nodeArgs ?? []),
        entryWord(path.relative(cwd, app.entryPath) || app.entryPath, opts.standalone === true),
        ...(opts.args ?? []),
      ],
      { ...opts.env, ...(port ? { PORT: String(port) } : {}) },
      cwd,
    );
    if (cwd === repoRoot) return line;
    return `(cd ${shellWord(inside ? rel : cwd)} && ${line})`;
  };
  const port = opts.port === "free" ? await freePort() : opts.port;
  const env = {
    ...process.env,
    ...opts.env,
    ...opened?.env,
    PORT: String(port ?? 0),
    HOST: "127.0.0.1",
    WORKBOOK_WATCH_STDIN: "1",
    WORKBOOK_APP: app.name,
  };
  let proc: Awaited<ReturnType<typeof spawnGroup>>;
  try {
    proc = await spawnGroup(argv, {
      cwd,
      env,
      name: app.name,
    });
  } catch (e) {
    opened?.channel.close();
    throw e;
  }
  const { groupId, exited } = proc;
  let stopping: Promise<ExitInfo> | null = null;

  const handle: AppHandle & Stoppable = {
    name: app.name,
    url: "",
    port: 0,
    pid: groupId,
    groupId,
    cell: cellSerial(),
    exited,
    cpus: pinned ? pinning().server : null,
    warning: null,
    command: commandOn(0),
    channel: opened?.channel ?? null,
    exitInfo: proc.exitInfo,
    stdout: () => fromWorkbookText(proc.stdout.text()),
    stderr: () => fromWorkbookText(proc.stderr.text()),
    stop: ({ signal = "SIGINT", timeoutMs = 5000 }: { signal?: NodeJS.Signals; timeoutMs?: number } = {}) => {
      stopping ??= (async () => {
        if (!proc.exitInfo()) {
          signalGroup(groupId, signal);
          if ((await within(exited, timeoutMs, null)) === null) {
            proc.stderr.push(`[workbook] ${app.name} ignored ${signal} for ${timeoutMs} ms: killed`);
          }
        }
        signalGroup(groupId, "SIGKILL"); // whatever is left of the group
        const info = await exited;
        proc.child.stdin?.destroy();
        opened?.channel.close();
        untrack(handle);
        return info;
      })();
      return stopping;
    },
  };
  track(handle);
  void exited.then(() => {
    // spawnGroup kills what is left of the group
    opened?.channel.close();
    untrack(handle);
  });

  if (opts.listen === false) return handle;
  try {
    const listening = await waitListening(proc, opened?.channel ?? null, {
      name: app.name,
      timeoutMs: opts.startTimeoutMs ?? 10_000,
      settleMs: app.registered ? 0 : 150,
      port,
      portRequired: opts.port !== "free",
    });
    loopbackUrl(listening.url);
    Object.assign(handle, {
      url: listening.url,
      port: listening.port,
      pid: listening.pid,
      warning: listening.warning,
      command: commandOn(listening.port),
    });
    if (listening.warning) console.warn(`[workbook] ${listening.warning}`);
    const probe = opts.probe === false ? null : (opts.probe ?? app.probe);
    if (probe) await probeApp(handle, probe);
    return handle;
  } catch (e) {
    await handle.stop({ timeoutMs: 2000 });
    throw e;
  }
}

/** A port free on 127.0.0.1 now (the kernel's pick, released at once): for PORT, with `port: "free"`. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** GET `path` on a listening app: anything but an answer below 400 is an AppStartError. */
export async function probeApp(
  app: Pick<AppHandle, "name" | "url" | "stdout" | "stderr">,
  path: string,
): Promise<void> {
  const tails = () => ({ app: app.name, stdout: app.stdout(), stderr: app.stderr() });
  let res: Response;
  try {
    res = await fetch(loopbackUrl(app.url, path), { signal: AbortSignal.timeout(5000), redirect: "manual" });
  } catch (e) {
    throw new AppStartError(
      "WB_APP_PROBE",
      `app "${app.name}" listens but GET ${path} failed: ${(e as Error).message}`,
      {
        ...tails(),
        hint: "does every route end its answer (res.end())? A first request that takes more than 5 s fails here too",
      },
    );
  }
  const body = await res.text();
  if (res.status >= 400) {
    throw new AppStartError(
      "WB_APP_PROBE",
      `app "${app.name}" answered ${res.status} to GET ${path}: ${body.slice(0, 300)}`,
      {
        ...tails(),
        hint:
          res.status === 404
            ? `does the app serve ${path}? Pass { probe: "/a-path-it-serves" }, or { probe: false }`
            : undefined,
      },
    );
  }
}

/**
 * Start an app, run `fn` with it, and stop it whatever happens: the safe default in cells. Resolves
 * to `fn`'s result.
 *
 * @example
 * const first = await wb.withApp("hello-http", (app) => wb.runLoad({ target: app, connections: 10 }));
 */
export async function withApp<T>(ref: AppRef, fn: (app: AppHandle) => Promise<T>, opts?: StartOptions): Promise<T> {
  const app = await startApp(ref, opts);
  try {
    return await fn(app);
  } finally {
    await app.stop();
  }
}

/** One app to start among several: a registered name, or a key with the app and its start options. */
export type AppSpec = string | { key: string; app: AppRef; start?: StartOptions };

/**
 * Start every app in order, run `fn` with their handles by key, and stop them all at the end,
 * whatever happens (also when one fails to start: those already started are stopped). Each spec is
 * a registry name (its own key) or `{ key, app, start? }`. An empty list or a repeated key throws
 * `WB_BAD_OPTION` before anything starts.
 *
 * @example
 * const remedies = await wb.withApps(["loop-blocking", "loop-worker-pool"], (apps) =>
 *   wb.contentionRounds(Object.entries(apps).map(([key, app]) => ({ key, target: app }))));
 */
export async function withApps<T>(specs: AppSpec[], fn: (apps: Record<string, AppHandle>) => Promise<T>): Promise<T> {
  const list = specs.map((s) => (typeof s === "string" ? { key: s, app: s as AppRef, start: undefined } : s));
  if (list.length === 0) throw new AppStartError("WB_BAD_OPTION", "withApps: no apps");
  assertUniqueKeys(
    "withApps",
    list.map((s) => s.key),
  );
  const handles: Record<string, AppHandle> = {};
  try {
    for (const s of list) handles[s.key] = await startApp(s.app, s.start);
    return await fn(handles);
  } finally {
    await Promise.all(Object.values(handles).map((h) => h.stop()));
  }
}
