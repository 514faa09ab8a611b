import { spawn, ChildProcess } from "node:child_process";
import readline from "node:readline";
import { resolveApp, AppRef } from "./registry";
import { repoRoot } from "./paths";
import { track, untrack, cellSerial, Stoppable } from "./lifecycle";
import { UsageSampler } from "./sampler";
import { assertLoopback } from "./loopback";

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

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
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

export class AppStartError extends Error {}

const TAIL_LINES = 40;

function tail(lines: string[]): string {
  return lines.slice(-TAIL_LINES).join("\n");
}

function groupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Start an app from apps/ as its own process group with PORT=0, wait for its listening
 * line, probe it, and return a handle. Fails within startTimeoutMs with the tail of stderr.
 */
export async function startApp(ref: AppRef, opts: StartOptions = {}): Promise<AppHandle> {
  const app = resolveApp(ref);
  const runtime = opts.runtime ?? process.execPath;
  const argv = [...(opts.wrap ?? []), runtime, ...(opts.nodeArgs ?? []), app.entryPath, ...(opts.args ?? [])];
  const child: ChildProcess = spawn(argv[0], argv.slice(1), {
    cwd: repoRoot,
    detached: true, // its own process group, so stop() reaches grandchildren too
    stdio: ["pipe", "pipe", "pipe"],
    env: {
      ...process.env,
      ...opts.env,
      PORT: "0",
      HOST: "127.0.0.1",
      WORKBOOK_WATCH_STDIN: "1",
      WORKBOOK_APP: app.name,
    },
  });
  const out: string[] = [];
  const err: string[] = [];
  let exit: ExitInfo | null = null;
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once("exit", (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    });
  });
  child.once("error", (e) => err.push(String(e)));
  readline.createInterface({ input: child.stderr! }).on("line", (l) => {
    err.push(l);
    if (err.length > 500) err.splice(0, err.length - TAIL_LINES);
  });
  const lines = readline.createInterface({ input: child.stdout! });
  const groupId = child.pid ?? -1;
  let sampler: UsageSampler | null = null;
  let stopping: Promise<ExitInfo> | null = null;

  const handle: AppHandle & Stoppable = {
    name: app.name, url: "", port: 0, pid: groupId, groupId, cell: cellSerial(), exited,
    exitInfo: () => exit,
    stdout: () => tail(out),
    stderr: () => tail(err),
    usage: () => (sampler ??= new UsageSampler(handle.pid).start()),
    stop: ({ signal = "SIGINT", timeoutMs = 5000 } = {}) => {
      stopping ??= (async () => {
        sampler?.stop();
        if (!exit) {
          try { process.kill(-groupId, signal); } catch { /* gone */ }
          const timer = new Promise<null>((r) => setTimeout(() => r(null), timeoutMs).unref());
          if ((await Promise.race([exited, timer])) === null) {
            err.push(`[workbook] ${app.name} ignored ${signal} for ${timeoutMs} ms: killed`);
          }
        }
        if (groupAlive(groupId)) {
          try { process.kill(-groupId, "SIGKILL"); } catch { /* gone */ }
        }
        const info = await exited;
        child.stdin?.destroy();
        untrack(handle);
        return info;
      })();
      return stopping;
    },
  };
  if (groupId < 0) throw new AppStartError(`could not start ${argv[0]}: ${tail(err)}`);
  track(handle);
  // When the leader exits by itself (a crash, or clinic finishing), nothing of its group may stay.
  void exited.then(() => {
    if (groupAlive(groupId)) {
      try { process.kill(-groupId, "SIGKILL"); } catch { /* gone */ }
    }
    sampler?.stop();
    untrack(handle);
  });

  const timeoutMs = opts.startTimeoutMs ?? 10_000;
  try {
    const listening = await new Promise<{ url: string; port: number; pid: number }>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new AppStartError(`app "${app.name}" did not report listening within ${timeoutMs} ms.\n--- stderr (tail) ---\n${tail(err)}`)),
        timeoutMs,
      );
      lines.on("line", (line) => {
        out.push(line);
        if (out.length > 500) out.splice(0, out.length - TAIL_LINES);
        if (!line.startsWith("{")) return;
        try {
          const msg = JSON.parse(line);
          if (msg.workbook === "listening") {
            clearTimeout(timer);
            resolve({ url: msg.url, port: msg.port, pid: msg.pid ?? groupId });
          }
        } catch { /* not ours */ }
      });
      void exited.then((info) => {
        clearTimeout(timer);
        // Give readline a moment to flush the last stderr lines before quoting them.
        setTimeout(() => reject(new AppStartError(
          `app "${app.name}" exited (code ${info.code}, signal ${info.signal}) before listening.\n--- stderr (tail) ---\n${tail(err)}`,
        )), 50);
      });
    });
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

async function probeApp(app: AppHandle, path: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(app.url + path, { signal: AbortSignal.timeout(5000) });
  } catch (e) {
    throw new AppStartError(`app "${app.name}" listens but GET ${path} failed: ${(e as Error).message}\n--- stderr (tail) ---\n${app.stderr()}`);
  }
  const body = await res.text();
  if (res.status >= 400) {
    throw new AppStartError(`app "${app.name}" answered ${res.status} to GET ${path}: ${body.slice(0, 300)}\n--- stderr (tail) ---\n${app.stderr()}`);
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
