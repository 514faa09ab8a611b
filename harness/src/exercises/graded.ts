import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { track, untrack } from "../apps/lifecycle";
import { signalGroup } from "../apps/process-group";
import { exitText, spawnGroup } from "../apps/spawn";
import { fromWorkbook, repoRoot } from "../core/paths";
import { settings } from "../core/settings";
import { shellLine } from "../core/shell";
import { within } from "../core/time";
import { checkLimitMs, failedCheck } from "./check";
import { loadSpec } from "./spec";
import type { CheckResult } from "./types";

/** The script `make grade` runs once per learner and exercise, in a process of its own. */
const SCRIPT = path.join(repoRoot, "scripts", "check-exercise.js");
/** Beyond the check's own time limit: starting Node and the harness, writing the result, stopping the apps. */
const SLACK_MS = 30_000;

/**
 * An exercise's check, as `make grade` runs it: `scripts/check-exercise.js` in a process of its own
 * (checkInProcess there), its result read back. An exercise notebook's check cell calls this, so that
 * the kernel's heap and its garbage collections (its compiler, its charts, every result it keeps) stay
 * out of the check's timings: run inside the kernel, exercise 02's paced loads shared those pauses and
 * its solution measured 1.9x in one run where the same check in a process of its own measured 5.8x or
 * more in every round. The result carries `command`, the line that runs the same check from a terminal.
 *
 * `ref`: an exercise name ("04-hot-path": `exercises/04-hot-path/check.json`), or a path to a
 * `check.json` or its folder. `submissionDir`: the folder holding the learner's `app/` ("." in a
 * notebook; default the exercise folder); `exerciseDir`: the folder holding `check.json` and `start/`.
 * The profile is `WORKBOOK_PROFILE`'s, as for every load. Never throws: a check that could not run,
 * or ran past its time limit (then its process is stopped, with every app it started), is a failed
 * result that says why. Stopped with the cell that started it, like every app.
 *
 * @example
 * const result = await ex.checkExercise("04-hot-path", { submissionDir: "." });
 * ex.printCheck(result);
 */
export async function checkExercise(
  ref: string,
  opts: { submissionDir?: string; exerciseDir?: string } = {},
): Promise<CheckResult> {
  const t0 = Date.now();
  const args = [ref];
  if (opts.exerciseDir) args.push("--exercise-dir", path.resolve(opts.exerciseDir));
  if (opts.submissionDir) args.push("--submission-dir", path.resolve(opts.submissionDir));
  const profile = process.env.WORKBOOK_PROFILE;
  const command = shellLine(
    [fromWorkbook(process.execPath), fromWorkbook(SCRIPT), ...args.map((a) => (a === ref ? a : fromWorkbook(a)))],
    profile ? { WORKBOOK_PROFILE: profile } : {},
  );
  const failed = (message: string): CheckResult => ({
    ...failedCheck(path.basename(ref), message, (Date.now() - t0) / 1000),
    command,
  });
  let limitMs: number;
  try {
    const s = settings();
    limitMs =
      checkLimitMs(loadSpec(ref, opts.exerciseDir && path.resolve(opts.exerciseDir)), {
        rounds: s.rounds,
        duration: s.roundSeconds,
        warmup: s.warmupSeconds,
      }) + SLACK_MS;
  } catch (err) {
    return failed((err as Error).message);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-check-"));
  const out = path.join(dir, "result.json");
  try {
    const proc = await spawnGroup([process.execPath, SCRIPT, ...args, "--out", out], {
      cwd: repoRoot,
      env: { ...process.env, WORKBOOK_WATCH_STDIN: "1" },
      name: "exercise check",
    });
    const stoppable = {
      groupId: proc.groupId,
      cell: 0,
      // The script exits when its stdin closes, stopping its apps; a script that does not is killed,
      // and each of its apps then exits as its own stdin, a pipe from the script, closes.
      stop: async () => {
        proc.child.stdin?.end();
        if (!(await within(proc.exited, 5000, null))) signalGroup(proc.groupId, "SIGKILL");
        await within(proc.exited, 5000, null);
      },
    };
    track(stoppable);
    const exit = await within(proc.exited, limitMs, null);
    untrack(stoppable);
    if (!exit) {
      await stoppable.stop();
      return failed(`The check did not finish within ${Math.round(limitMs / 1000)} s and was stopped.`);
    }
    if (!fs.existsSync(out))
      return failed(`The check's process ${exitText(exit)} before it wrote a result: ${proc.stderr.text().trim()}`);
    return { ...(JSON.parse(fs.readFileSync(out, "utf8")) as CheckResult), command };
  } catch (err) {
    return failed(`The check could not run: ${(err as Error).message}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
