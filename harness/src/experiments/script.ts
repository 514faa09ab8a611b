import { execFile } from "node:child_process";
import { badOption, WorkbookError } from "../core/errors";

/**
 * A measurement that runs as a script of its own, in a child process on a runtime of your choice
 * (flags such as --expose-gc or --allow-natives-syntax included), and prints its result as one JSON
 * line: the way notebook timings outside any server are taken (apps/memory-kinds/measure.js,
 * apps/frameworks/lib/validator-cost.js). Keeps the notebook's kernel, its JIT and its heap out of it.
 */
export interface ScriptOptions {
  /** Arguments after the script. */
  args?: string[];
  /** Flags for the runtime before the script, e.g. ["--expose-gc"]. */
  nodeArgs?: string[];
  /** The runtime binary. Default: the Node running the harness. */
  runtime?: string;
  /** Time limit. Default 60,000 ms. */
  timeoutMs?: number;
}

/** Run `file` and parse the last line it printed as JSON; a failure, a timeout or no JSON is an error naming the script and its stderr. */
export function measureScript<T>(file: string, opts: ScriptOptions = {}): Promise<T> {
  const timeout = opts.timeoutMs ?? 60_000;
  if (!(timeout > 0)) throw badOption("measureScript", `timeoutMs must be > 0, got ${timeout}`);
  const argv = [...(opts.nodeArgs ?? []), file, ...(opts.args ?? [])];
  return new Promise((resolve, reject) => {
    execFile(
      opts.runtime ?? process.execPath,
      argv,
      { timeout, encoding: "utf8", maxBuffer: 16 * 2 ** 20 },
      (err, stdout, stderr) => {
        const what = `${file.split("/").slice(-2).join("/")} ${(opts.args ?? []).join(" ")}`.trim();
        if (err) {
          const why = err.killed ? `did not finish within ${timeout} ms` : `failed (${err.code ?? err.signal})`;
          reject(new WorkbookError("WB_NO_REPORT", `${what} ${why}`, { stderr }));
          return;
        }
        const last = stdout.trim().split("\n").pop() ?? "";
        try {
          resolve(JSON.parse(last) as T);
        } catch {
          reject(
            new WorkbookError("WB_NO_REPORT", `${what} printed no JSON line: ${JSON.stringify(stdout.slice(0, 200))}`, {
              stderr,
            }),
          );
        }
      },
    );
  });
}
