import { execFile } from "node:child_process";
import path from "node:path";
import { badOption, WorkbookError } from "../core/errors";
import { appsDir } from "../core/paths";
import { pinning, serverWrap } from "../core/pinning";

/**
 * Measurements that run as a script of their own, in a child process: the notebook's kernel, which
 * runs the load generator and has its own JIT state and heap, stays out of them. One runner,
 * runChild(), used two ways: measureScript() for a script that prints its result as one JSON line
 * (apps/memory-kinds/measure.js, notebook 03's validatorCost), and as it is by the tools that also
 * read the rest of what it printed (notebook 05's microbench and v8View: V8's --trace-deopt lines).
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
  /** Arguments after the script. */
  args?: string[];
  /** Runtime flags before the script, e.g. ["--allow-natives-syntax"]. */
  nodeArgs?: string[];
  /** The runtime binary. Default: the Node running the harness (the pinned Node). */
  runtime?: string;
  env?: Record<string, string>;
  /** Time limit; the script is killed past it. */
  timeoutMs: number;
  /** Run it on the apps' CPU (core/pinning.ts), away from this kernel. Default true. */
  pin?: boolean;
  /** Who runs it, for error messages: "microbench(micro/shapes.js)". */
  who: string;
}

/**
 * Run a script (absolute, or relative to apps/), on the apps' CPU when pinning is on. Rejects with
 * a WorkbookError carrying the end of the script's stderr when it fails or outlives `timeoutMs`.
 */
export function runChild(file: string, opts: ChildOptions): Promise<ChildRun> {
  if (!(opts.timeoutMs > 0)) throw badOption(opts.who, `timeoutMs must be > 0, got ${opts.timeoutMs}`);
  const abs = path.resolve(appsDir, file);
  const rel = abs.startsWith(appsDir + path.sep) ? path.relative(appsDir, abs) : abs;
  const nodeArgs = opts.nodeArgs ?? [];
  const wrap = serverWrap(opts.pin ?? true);
  const runtime = opts.runtime ?? process.execPath;
  const [cmd, ...args] = [...wrap, runtime, ...nodeArgs, abs, ...(opts.args ?? [])];
  const p = pinning();
  const pinned = wrap.length
    ? `on CPU ${p.server}, the apps' CPU`
    : `not pinned (${p.enabled ? "pin: false" : p.reason})`;
  const env = { ...process.env, ...opts.env };
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env, timeout: opts.timeoutMs, maxBuffer: 64 * 2 ** 20 }, (err, stdout, stderr) => {
      if (err) {
        const why = err.killed ? `did not finish within ${opts.timeoutMs} ms` : `failed (${err.code ?? err.signal})`;
        const shown = [...nodeArgs, path.relative(process.cwd(), abs), ...(opts.args ?? [])].join(" ");
        reject(
          new WorkbookError(err.killed ? "WB_TIMEOUT" : "WB_NO_REPORT", `${opts.who} ${why}`, {
            stderr: stderr.split("\n").slice(-20).join("\n"),
            hint: `run it in a terminal: ${path.relative(process.cwd(), runtime) || runtime} ${shown}`,
          }),
        );
        return;
      }
      resolve({ file: rel, nodeArgs, pinned, stdout, stderr });
    });
  });
}

export interface ScriptOptions {
  /** Arguments after the script. */
  args?: string[];
  /** Flags for the runtime before the script, e.g. ["--expose-gc"]. */
  nodeArgs?: string[];
  /** The runtime binary. Default: the Node running the harness. */
  runtime?: string;
  /** Time limit. Default 60,000 ms. */
  timeoutMs?: number;
  /** Run it on the apps' CPU. Default true. */
  pin?: boolean;
}

/**
 * Run `file` (absolute, or relative to apps/) on a runtime of your choice and parse the last line it
 * printed as JSON; a failure, a timeout or no JSON is an error naming the script and its stderr.
 * The kernel (the load generator, its own JIT state and heap) stays out of the measurement; the
 * child runs on the apps' CPU when pinning is on (`pin`, default true). `timeoutMs` default 60000.
 * Throws `WB_NO_REPORT` (failed, or no JSON line) and `WB_TIMEOUT`, with the script's stderr and, as
 * `hint`, the command to run it in a terminal; `WB_BAD_OPTION` for a `timeoutMs` not > 0.
 *
 * @example
 * const kinds = await lesson.measureScript<Record<string, Record<string, number>>>(
 *   `${lesson.appsDir}/memory-kinds/measure.js`, { nodeArgs: ["--expose-gc"] });
 */
export async function measureScript<T>(file: string, opts: ScriptOptions = {}): Promise<T> {
  const what = `${file.split("/").slice(-2).join("/")} ${(opts.args ?? []).join(" ")}`.trim();
  const run = await runChild(file, { ...opts, timeoutMs: opts.timeoutMs ?? 60_000, who: what });
  const last = run.stdout.trim().split("\n").pop() ?? "";
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new WorkbookError(
      "WB_NO_REPORT",
      `${what} printed no JSON line: ${JSON.stringify(run.stdout.slice(0, 200))}`,
      {
        stderr: run.stderr,
      },
    );
  }
}
