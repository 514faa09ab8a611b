import { resolveApp, AppRef } from "./registry";
import { repoRoot } from "./paths";
import { track, untrack, cellSerial, Stoppable } from "./lifecycle";
import { UsageSampler } from "./sampler";
import { assertLoopback } from "./loopback";
import { signalGroup } from "./process-group";
import { spawnGroup, waitListening, probeApp, AppStartError, ExitInfo } from "./app-process";

export { AppStartError, ExitInfo };

export interface StartOptions {
  /** Extra environment for the app. PORT=0 and HOST=127.0.0.1 are always set. */
  env?: Record<string, string>;
  /** Flags for the runtime before the entry file, e.g. ["--cpu-prof"]. */
  nodeArgs?: string[];
  /** Arguments after the entry file. */
  args?: string[];
  /** A command put in front of [runtime, ...nodeArgs, entry], e.g. a clinic invocation. */
  wrap?: string[];
  /** The runtime binary. Default: the Node running the harness (the pinned Node 26). */
  runtime?: string;
  /** Milliseconds to wait for the listening line. Default 10000. */
  startTimeoutMs?: number;
  /** A path that must answer < 400 once listening; false to skip. Default: the registry's. */
  probe?: string | false;
}

export interface AppHandle {
  name: string;
  url: string;
  port: number;
  /** The app's own pid (from its listening line; differs from groupId when wrapped). */
  pid: number;
  groupId: number;
  /** Resolves when the spawned process exits. */
  exited: Promise<ExitInfo>;
  exitInfo(): ExitInfo | null;
  stdout(): string;
  stderr(): string;
  /** A CPU/RSS sampler for the app's process (started on first call). */
  usage(): UsageSampler;
  /** SIGINT to the whole process group, then SIGKILL after `timeoutMs` (default 5000). */
  stop(opts?: { signal?: NodeJS.Signals; timeoutMs?: number }): Promise<ExitInfo>;
}

/**
 * Start an app from apps/ as its own process group with PORT=0, wait for its listening
 * line, probe it, and return a handle. Fails within startTimeoutMs with the tail of stderr,
 * and at once with the OS's reason when the runtime (or wrapper) cannot be started at all.
 */
export async function startApp(ref: AppRef, opts: StartOptions = {}): Promise<AppHandle> {
  const app = resolveApp(ref);
  const runtime = opts.runtime ?? process.execPath;
  const argv = [...(opts.wrap ?? []), runtime, ...(opts.nodeArgs ?? []), app.entryPath, ...(opts.args ?? [])];
  const proc = await spawnGroup(argv, {
    cwd: repoRoot,
    env: { ...process.env, ...opts.env, PORT: "0", HOST: "127.0.0.1", WORKBOOK_WATCH_STDIN: "1", WORKBOOK_APP: app.name },
  });
  const { groupId, exited } = proc;
  let sampler: UsageSampler | null = null;
  let stopping: Promise<ExitInfo> | null = null;

  const handle: AppHandle & Stoppable = {
    name: app.name, url: "", port: 0, pid: groupId, groupId, cell: cellSerial(), exited,
    exitInfo: proc.exitInfo,
    stdout: () => proc.stdout.text(),
    stderr: () => proc.stderr.text(),
    usage: () => (sampler ??= new UsageSampler(handle.pid).start()),
    stop: ({ signal = "SIGINT", timeoutMs = 5000 }: { signal?: NodeJS.Signals; timeoutMs?: number } = {}) => {
      stopping ??= (async () => {
        sampler?.stop();
        if (!proc.exitInfo()) {
          signalGroup(groupId, signal);
          const timer = new Promise<null>((r) => setTimeout(() => r(null), timeoutMs).unref());
          if ((await Promise.race([exited, timer])) === null) {
            proc.stderr.push(`[workbook] ${app.name} ignored ${signal} for ${timeoutMs} ms: killed`);
          }
        }
        signalGroup(groupId, "SIGKILL"); // whatever is left of the group
        const info = await exited;
        proc.child.stdin?.destroy();
        untrack(handle);
        return info;
      })();
      return stopping;
    },
  };
  track(handle);
  void exited.then(() => { // spawnGroup kills what is left of the group
    sampler?.stop();
    untrack(handle);
  });

  try {
    const listening = await waitListening(proc, app.name, opts.startTimeoutMs ?? 10_000);
    assertLoopback(listening.url);
    Object.assign(handle, listening);
    const probe = opts.probe === false ? null : (opts.probe ?? app.probe);
    if (probe) await probeApp(handle, probe);
    return handle;
  } catch (e) {
    await handle.stop({ timeoutMs: 2000 });
    throw e;
  }
}

/** Start an app, run `fn` with it, and stop it whatever happens: the safe default in cells. */
export async function withApp<T>(ref: AppRef, fn: (app: AppHandle) => Promise<T>, opts?: StartOptions): Promise<T> {
  const app = await startApp(ref, opts);
  try {
    return await fn(app);
  } finally {
    await app.stop();
  }
}
