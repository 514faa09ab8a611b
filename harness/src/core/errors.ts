/**
 * The errors the harness throws about apps, loads, profiles and options, in one module (as fastify
 * keeps its errors): a code, the app it concerns, what the app printed, and what to try. (A failed
 * notebook check, `checklist().done()`, throws a plain Error listing the failed lines.) The message is built here from those fields,
 * once, so no caller ever parses a message to get the app's output back: read `err.stderr`.
 */
export type ErrorCode =
  /** No such app in the registry, or its entry file does not exist. */
  | "WB_APP_NOT_FOUND"
  /** The OS could not start the runtime (ENOENT, EACCES). */
  | "WB_APP_SPAWN"
  /** The app exited before it listened. */
  | "WB_APP_EXITED"
  /** The app neither listened nor exited within its start timeout. */
  | "WB_APP_SILENT"
  /** The app listened on more than one address and the harness cannot tell which one to load. */
  | "WB_APP_LISTENED_TWICE"
  /** The app listened but its probe request failed or answered 400 or above. */
  | "WB_APP_PROBE"
  /** The app listens where the harness cannot load it: a pipe, or another machine's address. */
  | "WB_APP_UNREACHABLE"
  /** The app exited while it was being loaded. */
  | "WB_APP_DIED"
  /** A target or a path that leaves this machine's loopback. */
  | "WB_NOT_LOOPBACK"
  /** A load test saw unexpected statuses, errors or timeouts. */
  | "WB_LOAD"
  /** A profiler or a tool wrote no report. */
  | "WB_NO_REPORT"
  /** A tool (clinic, a heap snapshot) did not finish in time. */
  | "WB_TIMEOUT"
  /** An option or an argument the function cannot take. */
  | "WB_BAD_OPTION";

export interface ErrorFields {
  /** The app's name, when the error concerns one. */
  app?: string;
  /** The last lines of what the app wrote to stdout / stderr. */
  stdout?: string;
  stderr?: string;
  /** What to try next, in one sentence. */
  hint?: string;
  cause?: unknown;
}

/** The message of an error: what happened, what to try, then the app's own output (last lines). */
export function errorMessage(what: string, f: ErrorFields): string {
  const parts = [what];
  if (f.hint) parts.push(`Try: ${f.hint}`);
  if (f.stdout?.trim()) parts.push(`--- stdout (last lines) ---\n${f.stdout.trimEnd()}`);
  if (f.stderr?.trim()) parts.push(`--- stderr (last lines) ---\n${f.stderr.trimEnd()}`);
  return parts.join("\n");
}

/**
 * Every error the harness raises on purpose about an app, a load, a tool or an option: test with
 * `err instanceof wb.WorkbookError`, or read `err.code`. `message` is built once from the fields: the
 * summary, `Try: <hint>`, then `--- stdout (last lines) ---` and `--- stderr (last lines) ---`. A
 * `WB_LOAD` error thrown after the measured runs also carries the measured record in `result`.
 *
 * @example
 * const caught = (app: wb.AppHandle) => wb.runLoad({ target: app, duration: 20, repeats: 1 })
 *   .then(() => null, (e: wb.WorkbookError) => e);
 * const crash = await wb.withApp("memory-leak", caught, { nodeArgs: ["--max-old-space-size=48"] });
 */
export class WorkbookError extends Error {
  /** One of the codes of `ErrorCode`. */
  readonly code: ErrorCode;
  /** What happened, in one sentence: the message without the hint and the output tails. */
  readonly summary: string;
  readonly app?: string;
  readonly stdout?: string;
  readonly stderr?: string;
  readonly hint?: string;

  constructor(code: ErrorCode, what: string, fields: ErrorFields = {}) {
    super(errorMessage(what, fields), fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = new.target.name;
    this.code = code;
    this.summary = what;
    this.app = fields.app;
    this.stdout = fields.stdout;
    this.stderr = fields.stderr;
    this.hint = fields.hint;
  }
}

/** An app that did not get as far as listening and answering its probe. */
export class AppStartError extends WorkbookError {}

/** A load test that cannot report a number: its answers were wrong, or its app died. */
export class LoadTestError<R = unknown> extends WorkbookError {
  /** The measured record, when the runs finished and their answers failed the checks. */
  readonly result?: R;
  constructor(code: ErrorCode, what: string, fields: ErrorFields & { result?: R } = {}) {
    super(code, what, fields);
    this.result = fields.result;
  }
}

/** The error for an option a function cannot take: `throw badOption("runLoad", "repeats must be >= 1")`. */
export function badOption(fn: string, why: string): WorkbookError {
  return new WorkbookError("WB_BAD_OPTION", `${fn}: ${why}`);
}
