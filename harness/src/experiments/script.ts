import { execFile } from "node:child_process";
import path from "node:path";
import { badOption, WorkbookError } from "../core/errors";
import { appsDir } from "../core/paths";
import { pinning, serverWrap } from "../core/pinning";
import { shellLine } from "../core/shell";

/**
 * Measurements that run as a script of their own, in a child process: the notebook's kernel, which
 * runs the load generator and has its own JIT state and heap, stays out of them. One runner,
 * measureScript(), for a script that prints its result as its last line of JSON (apps/memory-kinds/
 * measure.js, notebook 03's validatorCost) and for one whose report a notebook finds among the other
 * lines it printed (notebook 05's microbench and v8View: V8's --trace-deopt lines beside the report).
 */
export interface ScriptRun<T> {
  /** The script, relative to apps/ when it lies there. */
  file: string;
  nodeArgs: string[];
  /** "on CPU 1, the apps' CPU", or why it was not pinned. */
  pinned: string;
  /**
   * The command that runs the script the same way from the workbook's folder, as a learner would type it:
   * the pinning, the environment it was given, `node`, its flags, the script, its arguments.
   */
  command: string;
  stdout: string;
  stderr: string;
  /** The last line it printed, parsed as JSON; undefined with `json: false`. */
  result: T;
}

export interface ScriptOptions {
  /** Arguments after the script. */
  args?: string[];
  /** Flags for the runtime before the script, e.g. ["--expose-gc"]. */
  nodeArgs?: string[];
  /** The runtime binary. Default: the Node running the harness (the pinned Node). */
  runtime?: string;
  /** Variables added to the script's environment. */
  env?: Record<string, string>;
  /** Time limit; the script is killed past it. Default 60,000 ms. */
  timeoutMs?: number;
  /** Run it on the apps' CPU (core/pinning.ts), away from this kernel. Default true. */
  pin?: boolean;
  /** Parse the last line it printed as JSON into `result`, and fail when it is not JSON. Default true. */
  json?: boolean;
}

/**
 * Run `file` (absolute, or relative to apps/) in a child process on a runtime of your choice, on the
 * apps' CPU when pinning is on (`pin`, default true), and return what it printed, the command that
 * repeats it and, unless `json: false`, its last line parsed as JSON (`result`). The kernel (the load
 * generator, its own JIT state and heap) stays out of the measurement. `timeoutMs` default 60000.
 * Throws `WB_NO_REPORT` (it failed, or printed no JSON line) and `WB_TIMEOUT`, with the end of the
 * script's stderr and, as `hint`, the command to run it in a terminal; `WB_BAD_OPTION` for a
 * `timeoutMs` not > 0.
 *
 * @example
 * const kinds = await wb.measureScript<Record<string, Record<string, number>>>("memory-kinds/measure.js",
 *   { nodeArgs: ["--expose-gc"] });
 * wb.markdown(wb.markdownTable(Object.entries(kinds.result).map(([kind, d]) => ({ kind, ...d }))));
 */
export function measureScript<T = unknown>(file: string, opts: ScriptOptions = {}): Promise<ScriptRun<T>> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const abs = path.resolve(appsDir, file);
  const rel = abs.startsWith(appsDir + path.sep) ? path.relative(appsDir, abs) : abs;
  const who = [rel, ...(opts.args ?? [])].join(" ");
  if (!(timeoutMs > 0)) throw badOption(`measureScript(${rel})`, `timeoutMs must be > 0, got ${timeoutMs}`);
  const nodeArgs = opts.nodeArgs ?? [];
  const wrap = serverWrap(opts.pin ?? true);
  const runtime = opts.runtime ?? process.execPath;
  const [cmd, ...args] = [...wrap, runtime, ...nodeArgs, abs, ...(opts.args ?? [])];
  const p = pinning();
  const pinned = wrap.length
    ? `on CPU ${p.server}, the apps' CPU`
    : `not pinned (${p.enabled ? "pin: false" : p.reason})`;
  const command = shellLine([...wrap, runtime, ...nodeArgs, abs, ...(opts.args ?? [])], opts.env);
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...opts.env };
    execFile(cmd, args, { env, timeout: timeoutMs, maxBuffer: 64 * 2 ** 20 }, (err, stdout, stderr) => {
      const fail = (code: "WB_TIMEOUT" | "WB_NO_REPORT", why: string) =>
        reject(
          new WorkbookError(code, `${who} ${why}`, {
            stderr: stderr.split("\n").slice(-20).join("\n"),
            hint: `run it in a terminal, from the workbook's folder: ${command}`,
          }),
        );
      if (err) {
        if (err.killed) return fail("WB_TIMEOUT", `did not finish within ${timeoutMs} ms`);
        return fail("WB_NO_REPORT", `failed (${err.code ?? err.signal})`);
      }
      let result: unknown;
      if (opts.json ?? true) {
        try {
          result = JSON.parse(stdout.trim().split("\n").pop() ?? "");
        } catch {
          return fail("WB_NO_REPORT", `printed no JSON line: ${JSON.stringify(stdout.slice(0, 200))}`);
        }
      }
      resolve({ file: rel, nodeArgs, pinned, command, stdout, stderr, result: result as T });
    });
  });
}
