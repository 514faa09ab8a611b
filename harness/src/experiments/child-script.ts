import { execFile } from "node:child_process";
import path from "node:path";
import { WorkbookError } from "../core/errors";
import { appsDir } from "../core/paths";
import { pinning, serverWrap } from "../core/pinning";

/**
 * A measuring script run on a core of its own, with everything it printed kept: what microbench()
 * and v8View() need beyond measureScript() (script.ts), which returns the last JSON line only. V8
 * prints its --trace-deopt lines on stdout, beside the script's own report.
 */
export interface ChildRun {
  /** The script, relative to apps/ when it lies there. */
  file: string;
  nodeArgs: string[];
  /** "on CPU 1, the apps' CPU", or why it was not pinned. */
  pinned: string;
  stdout: string;
  stderr: string;
}

export interface ChildOptions {
  /** Runtime flags before the script, e.g. ["--allow-natives-syntax"]. */
  nodeArgs?: string[];
  env?: Record<string, string>;
  /** Time limit; the script is killed past it. */
  timeoutMs: number;
  /** Run it on the apps' CPU (core/pinning.ts), away from this kernel. Default true. */
  pin?: boolean;
  /** Who runs it, for error messages: "microbench(micro/shapes.js)". */
  who: string;
}

/**
 * Run a script (absolute, or relative to apps/) on the pinned Node, on the apps' CPU when pinning
 * is on: the kernel, which runs the load generator and has its own JIT state, stays out of it.
 * Rejects with a WorkbookError carrying the script's stderr when it fails or outlives `timeoutMs`.
 */
export function runChild(file: string, opts: ChildOptions): Promise<ChildRun> {
  const abs = path.resolve(appsDir, file);
  const rel = abs.startsWith(appsDir + path.sep) ? path.relative(appsDir, abs) : abs;
  const nodeArgs = opts.nodeArgs ?? [];
  const wrap = serverWrap(opts.pin ?? true);
  const [cmd, ...args] = [...wrap, process.execPath, ...nodeArgs, abs];
  const p = pinning();
  const pinned = wrap.length
    ? `on CPU ${p.server}, the apps' CPU`
    : `not pinned (${p.enabled ? "pin: false" : p.reason})`;
  const env = { ...process.env, ...opts.env };
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env, timeout: opts.timeoutMs, maxBuffer: 64 * 2 ** 20 }, (err, stdout, stderr) => {
      if (err) {
        const why = err.killed ? `did not finish within ${opts.timeoutMs} ms` : `failed (${err.code ?? err.signal})`;
        reject(
          new WorkbookError(err.killed ? "WB_TIMEOUT" : "WB_NO_REPORT", `${opts.who} ${why}`, {
            stderr: stderr.split("\n").slice(-20).join("\n"),
            hint: `run it in a terminal: node_modules/node/bin/node ${[...nodeArgs, path.relative(process.cwd(), abs)].join(" ")}`,
          }),
        );
        return;
      }
      resolve({ file: rel, nodeArgs, pinned, stdout, stderr });
    });
  });
}

/** The last line of stdout that is a JSON object starting with `key`, parsed; else an error showing the output. */
export function reportOf(run: ChildRun, key: string, who: string): Record<string, unknown> {
  const line = run.stdout
    .split("\n")
    .reverse()
    .find((l) => l.startsWith(`{"${key}"`));
  if (!line) {
    throw new WorkbookError("WB_NO_REPORT", `${who} printed no {"${key}": ...} line`, {
      stdout: run.stdout.split("\n").slice(-10).join("\n"),
      stderr: run.stderr.split("\n").slice(-10).join("\n"),
    });
  }
  return JSON.parse(line) as Record<string, unknown>;
}
