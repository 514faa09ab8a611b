import path from "node:path";
import type { AppHandle } from "../apps/start";
import { markdown } from "../charts/display";
import { WorkbookError } from "../core/errors";
import { fmt, times } from "../core/format";
import { loopbackUrl } from "../core/loopback";
import { fromWorkbookText, shellLine } from "../core/shell";
import { median, round } from "../core/stats";
import { sleep, within } from "../core/time";
import { GROWTH_FLOOR_MB } from "./load";
import type { ExerciseSpec } from "./spec";
import type { CheckDetails, CheckResult, Failure } from "./types";

/** The words of an exercise check: what went wrong with a learner's app, and the verdict shown to the learner. */

/** The learner's stderr without the submission's folder, the error's first line (from stderr, else from `body`) and where in the learner's files it was thrown. */
function blame(stderr: string, dir: string, body = ""): { tail: string; said: string } {
  // an app's stderr comes with the workbook's paths written from its folder (AppHandle.stderr): so is dir
  const tail = fromWorkbookText(stderr)
    .split(fromWorkbookText(dir) + path.sep)
    .join("");
  const error =
    tail.split("\n").find((l) => /^\w*(Error|Exception)\b/.test(l)) ?? body.match(/\b\w*Error: [^<\n]*/)?.[0];
  const where =
    tail.match(/\(?((?:app|start)\/[^\s():]+:\d+)/)?.[1] ?? tail.split("\n").find((l) => /^\S+:\d+$/.test(l));
  return { tail, said: error ? `: ${error.trim()}${where ? ` (${where})` : ""}` : "" };
}

/** The learner's submission: its folder, and its app's file as typed from the workbook's folder (for the commands hints print). */
export interface Learner {
  dir: string;
  file: string;
}

/** The pinned Node, as typed from the workbook's folder. */
const NODE = "node_modules/node/bin/node";

/** A friendly message from the error of an app that did not get as far as listening. */
export function startFailure(err: Error, learner: Learner): Failure {
  const e = err instanceof WorkbookError ? err : null;
  const { tail, said } = blame(e?.stderr ?? "", learner.dir, e?.summary ?? err.message);
  if (e?.code === "WB_APP_EXITED") {
    const m = e.summary.match(/exited with code (\S+)|was killed by (\S+)/);
    const how = m?.[1] !== undefined ? `code ${m[1]}` : `signal ${m?.[2] ?? "?"}`;
    return {
      message: `Your app exited before it listened (${how})${said}.`,
      stderr: tail,
      hints: [
        /SyntaxError/.test(tail)
          ? `A syntax error: \`${NODE} --check ${learner.file}\`, from the workbook's folder, points at it without starting the app.`
          : `It crashed while starting: run \`${NODE} ${learner.file}\` yourself, from the workbook's folder, and read the first lines of the error.`,
      ],
    };
  }
  if (e?.code === "WB_APP_SILENT") {
    const waited = e.summary.match(/within (\d+) ms/)?.[1] ?? "?";
    return {
      message: `Your app never listened (waited ${waited} ms)${said}.`,
      stderr: tail,
      hints: [
        "The harness waits for the server's 'listening' event: does app/server.js still call listen()? Is something before it waiting forever?",
      ],
    };
  }
  return {
    message: `Your app did not start: ${e?.summary ?? err.message}${said}`,
    stderr: tail,
    hints: e?.hint ? [e.hint] : [],
  };
}

/** When the learner's app has exited (waiting up to `waitMs` for it): "Your app crashed <when>: <error> (<file:line>)." Else null. */
export async function crashFailure(
  app: AppHandle,
  when: string,
  learner: Learner,
  waitMs = 500,
): Promise<Failure | null> {
  const exit = app.exitInfo() ?? (await within(app.exited, waitMs, null));
  if (!exit) return null;
  await sleep(50); // the last stderr lines
  const { tail, said } = blame(app.stderr(), learner.dir);
  return {
    message: `Your app crashed ${when}${said}.`,
    stderr: tail,
    hints: [
      "An error thrown in a request handler (or in a callback it started) ends the process unless it is caught: the stack trace below says where.",
      `Catch it and answer 500 if it can happen, or fix its cause; run \`${NODE} ${learner.file}\` from the workbook's folder and ask the same request to see it yourself.`,
    ],
  };
}

/** The learner's first request (the spec's probe), right after it listens: null when answered below 400, else what went wrong. */
export async function firstRequest(app: AppHandle, probe: string, learner: Learner): Promise<Failure | null> {
  let answer: { status: number; body: string } | null = null;
  let why = "";
  try {
    const res = await fetch(loopbackUrl(app.url, probe), { signal: AbortSignal.timeout(5000), redirect: "manual" });
    answer = { status: res.status, body: await res.text() };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    why =
      e.name === "TimeoutError"
        ? "gave no answer within 5 s"
        : `closed the connection without an answer (${e.cause?.code ?? e.message})`;
  }
  if (answer && answer.status < 400) return null;
  const crash = await crashFailure(app, `on its first request, GET ${probe}`, learner, 1000);
  if (crash) return crash;
  const { tail, said } = blame(app.stderr(), learner.dir, answer?.body);
  if (answer) {
    return {
      message: `Your app started but answered ${answer.status} to GET ${probe}${said}.`,
      stderr: tail,
      hints: [
        answer.status >= 500
          ? "A status of 500 means a handler failed: its stderr (below) or the answer's body says why."
          : `GET ${probe} must answer as the starting point does.`,
      ],
    };
  }
  return {
    message: `Your app started but ${why} to GET ${probe}.`,
    stderr: tail,
    hints: [
      "Every request must be answered: each path through a handler ends with res.end() (or the framework's send).",
    ],
  };
}

/** The verdict of a measured check: both apps' medians, the background load, the round-by-round ratios and the threshold. */
export function ratioMessage(
  spec: ExerciseSpec,
  base: string,
  d: CheckDetails,
  rounds: number[],
  ratio: number,
): string {
  const higher = d.metric === "reqPerSec";
  const [b, m] = [median(d.baseline), median(d.submission)];
  if (d.metric === "heapGrowth") return growthMessage(spec, base, d, rounds, ratio);
  const what = higher
    ? `served ${Math.round(m)} req/s against ${base}'s ${Math.round(b)}`
    : `had a ${d.metric} latency of ${round(m, 2)} ms against ${base}'s ${round(b, 2)} ms`;
  const bg = d.background;
  const during = !bg
    ? ""
    : ` while ${bg.path} was asked ${round(bg.rate, 2)} times a second${
        bg.costMs === null
          ? ""
          : ` (one request took ${base} ${round(bg.costMs, 1)} ms, timed by the check: busy ${Math.round(bg.busyShare! * 100)} % of the time)`
      }`;
  let note = "";
  if (d.decidedOn === "cpuPerRequest") {
    note =
      ` (the load generator was saturated, so req/s was its limit: this ratio is of the server's CPU time per request, ` +
      `yours ${round(median(d.submissionCpuUs), 1)} µs against ${round(median(d.baselineCpuUs), 1)} µs, which measures the server whoever set the pace)`;
  } else if (higher && d.submission.includes(0)) {
    note =
      ` (in ${d.submission.filter((x) => x === 0).length} of ${d.submission.length} rounds your app answered no request ` +
      `at all: one request took longer than the round, or the queue of the round before was still being served)`;
  }
  return (
    `Your app ${what}${during} (medians of ${d.baseline.length} rounds, same run; round by round ${rounds.map(times).join(", ")}): ` +
    `${ratio}x${note}; the exercise asks for at least ${spec.threshold}x. All ${d.responses.length} answers match.`
  );
}

/** The measured load of a heapGrowth check, in words: "1000 requests to /quote?product={i} ({i} from 0 to 19 in turn) at 500/s". */
function growthLoadText(spec: ExerciseSpec): string {
  const l = spec.load;
  const spread = l.cycle && l.path?.includes("{i}") ? ` ({i} from 0 to ${l.cycle - 1} in turn)` : "";
  return `${l.requests} requests to ${l.path ?? "/"}${spread} at ${l.rate}/s`;
}

/** A heap growth as measured, with enough digits to read its ratio, and the floor it counted as when below it. */
function growthText(mb: number): string {
  const floored =
    mb < GROWTH_FLOOR_MB ? ` (counted as ${GROWTH_FLOOR_MB} MB, the least growth a reading tells from none)` : "";
  return `${fmt(mb)} MB${floored}`;
}

/** The verdict of a heapGrowth check: both apps' growth over the same requests, the ratio and the bound. */
function growthMessage(spec: ExerciseSpec, base: string, d: CheckDetails, rounds: number[], ratio: number): string {
  const [b, m] = [median(d.baseline), median(d.submission)];
  const bound = spec.maxGrowthMB === undefined ? "" : ` and at most ${spec.maxGrowthMB} MB of growth`;
  const env = spec.env ? `; both apps ran with ${shellLine([], spec.env)}` : "";
  return (
    `Your app's heap grew ${growthText(m)} over ${growthLoadText(spec)}, against ${base}'s ${growthText(b)} ` +
    `(the heap alive after a full garbage collection, before and after, each app loaded the same way once before${env}; ` +
    `medians of ${d.baseline.length} rounds, same run; round by round ${rounds.map(times).join(", ")}): ` +
    `${ratio}x less; the exercise asks for at least ${spec.threshold}x less${bound}. ` +
    `All ${d.responses.length} answers match.`
  );
}

/** A friendly pass/fail (Markdown in a notebook, text elsewhere): the message, the hints for the stage that failed, and the tail of the app's stderr on a failure. An exercise notebook's check cell prints FAIL and the notebook runs on; a solution notebook adds `if (!result.pass) throw ...` inside its solution markers. */
export function printCheck(result: CheckResult): void {
  const lines = [`**${result.pass ? "✅ PASS" : "❌ FAIL"}: exercise ${result.exercise}**`, "", result.message];
  if (result.hints.length) lines.push("", "Hints:", ...result.hints.map((h) => `* ${h}`));
  if (!result.pass && result.details.stderr.trim())
    lines.push("", "Your app's stderr (last lines):", "", "```", result.details.stderr.trim(), "```");
  if (result.command)
    lines.push("", "The same check from a terminal, in the workbook's folder:", "", "```", result.command, "```");
  markdown(lines.join("\n"));
}
