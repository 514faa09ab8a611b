import { type ChildProcess, spawn } from "node:child_process";
import readline from "node:readline";
import { AppStartError } from "../core/errors";
import { within } from "../core/time";
import { signalGroup } from "./process-group";

/** Spawning an app as its own process group and keeping the ends of what it prints. */

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** How a process ended, in words: "was killed by SIGABRT", "exited with code 1"; or that it has not. */
export function exitText(info: { code: number | null; signal: string | null } | null): string {
  if (!info) return "had not exited";
  return info.signal ? `was killed by ${info.signal}` : `exited with code ${info.code}`;
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
export async function spawnGroup(
  argv: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; name: string },
): Promise<GroupProcess> {
  const child = spawn(argv[0], argv.slice(1), {
    cwd: opts.cwd,
    env: opts.env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const stdout = new Tail();
  const stderr = new Tail();
  const failed = new Promise<NodeJS.ErrnoException>((resolve) => child.once("error", resolve));
  child.on("error", (e) => stderr.push(`[workbook] ${e.message}`));
  if (child.pid === undefined) {
    const e = await within(failed, 2000, null);
    const reasons: Record<string, string> = {
      ENOENT: `no such file: ${argv[0]}, or the working folder ${opts.cwd}`,
      EACCES: `not executable: ${argv[0]}`,
    };
    const why = reasons[e?.code ?? ""] ?? e?.message ?? "the OS gave it no process id";
    throw new AppStartError("WB_APP_SPAWN", `could not start app "${opts.name}": ${why}`, { app: opts.name });
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
  child.stdin?.on("error", () => {}); // an app that closed its stdin is not an error of ours
  return { child, groupId, exited, exitInfo: () => exit, stdout, stderr, lines };
}
