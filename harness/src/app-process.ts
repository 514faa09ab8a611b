import { spawn, ChildProcess } from "node:child_process";
import readline from "node:readline";
import { signalGroup } from "./process-group";
import { loopbackUrl } from "./loopback";

/** How an app is spawned and watched until it listens (startApp in apps.ts puts it together). */

export class AppStartError extends Error {}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const TAIL_LINES = 40;

/** The last lines of a stream, trimmed in batches so that a chatty app costs next to nothing. */
export class Tail {
  private readonly lines: string[] = [];
  push(line: string): void {
    this.lines.push(line);
    if (this.lines.length > 500) this.lines.splice(0, this.lines.length - TAIL_LINES);
  }
  text(): string {
    return this.lines.slice(-TAIL_LINES).join("\n");
  }
}

export interface GroupProcess {
  child: ChildProcess;
  /** The leader's pid, which is the group's id. */
  groupId: number;
  exited: Promise<ExitInfo>;
  exitInfo(): ExitInfo | null;
  stdout: Tail;
  stderr: Tail;
  /** stdout, line by line, as it arrives. */
  lines: readline.Interface;
}

/**
 * Spawn `argv` as the leader of a new process group, stdin a pipe, keeping the tails of its
 * stdout and stderr. Rejects with the OS's reason (ENOENT, EACCES...) when the binary cannot be
 * started at all: Node reports that in an 'error' event one tick after spawn() returns. Once the
 * leader exits (a crash, or a wrapper finishing), nothing of its group may stay: it is killed.
 */
export async function spawnGroup(argv: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<GroupProcess> {
  const child = spawn(argv[0], argv.slice(1), { cwd: opts.cwd, env: opts.env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
  const stdout = new Tail();
  const stderr = new Tail();
  const failed = new Promise<Error>((resolve) => child.once("error", resolve));
  child.on("error", (e) => stderr.push(`[workbook] ${e.message}`));
  if (child.pid === undefined) {
    const e = (await Promise.race([failed, new Promise<null>((r) => setTimeout(() => r(null), 2000).unref())])) as NodeJS.ErrnoException | null;
    const why = e?.code === "ENOENT" ? ` (no such file: ${argv[0]}, or the working folder ${opts.cwd})` : e?.code === "EACCES" ? ` (not executable: ${argv[0]})` : "";
    throw new AppStartError(`could not start ${argv[0]}: ${e ? e.message : "the OS gave it no process id"}${why}`);
  }
  let exit: ExitInfo | null = null;
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once("exit", (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    });
  });
  const groupId = child.pid;
  void exited.then(() => signalGroup(groupId, "SIGKILL"));
  readline.createInterface({ input: child.stderr! }).on("line", (l) => stderr.push(l));
  const lines = readline.createInterface({ input: child.stdout! });
  lines.on("line", (l) => stdout.push(l));
  return { child, groupId, exited, exitInfo: () => exit, stdout, stderr, lines };
}

/**
 * The app's one-line listening report `{"workbook":"listening","url","port","pid"}` on stdout;
 * an AppStartError with the tail of its stderr when it exits first or stays silent for timeoutMs.
 */
export function waitListening(p: GroupProcess, name: string, timeoutMs: number): Promise<{ url: string; port: number; pid: number }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new AppStartError(`app "${name}" did not report listening within ${timeoutMs} ms.\n--- stderr (tail) ---\n${p.stderr.text()}`)),
      timeoutMs,
    );
    p.lines.on("line", (line) => {
      if (!line.startsWith("{")) return;
      try {
        const msg = JSON.parse(line);
        if (msg.workbook === "listening") {
          clearTimeout(timer);
          resolve({ url: msg.url, port: msg.port, pid: msg.pid ?? p.groupId });
        }
      } catch { /* not ours */ }
    });
    void p.exited.then((info) => {
      clearTimeout(timer);
      // Give readline a moment to flush the last stderr lines before quoting them.
      setTimeout(() => reject(new AppStartError(
        `app "${name}" exited (code ${info.code}, signal ${info.signal}) before listening.\n--- stderr (tail) ---\n${p.stderr.text()}`,
      )), 50);
    });
  });
}

/** GET `path` on a listening app: anything but an answer below 400 is an AppStartError. */
export async function probeApp(app: { name: string; url: string; stderr(): string }, path: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(loopbackUrl(app.url, path), { signal: AbortSignal.timeout(5000), redirect: "manual" });
  } catch (e) {
    throw new AppStartError(`app "${app.name}" listens but GET ${path} failed: ${(e as Error).message}\n--- stderr (tail) ---\n${app.stderr()}`);
  }
  const body = await res.text();
  if (res.status >= 400) {
    throw new AppStartError(`app "${app.name}" answered ${res.status} to GET ${path}: ${body.slice(0, 300)}\n--- stderr (tail) ---\n${app.stderr()}`);
  }
}
