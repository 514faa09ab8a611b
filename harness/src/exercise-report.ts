import path from "node:path";
import { markdown } from "./display";
import type { CheckResult } from "./exercise-check";

/** The words of an exercise check: what went wrong when a learner's app did not start, and the pass/fail shown to the learner. */

/** A friendly message from an AppStartError: the error's first line and where in the learner's files it was thrown. */
export function startFailure(err: Error, dir: string): { message: string; stderr: string; hints: string[] } {
  const [head, stderr = ""] = err.message.split("\n--- stderr (tail) ---\n");
  const tail = stderr.split(dir + path.sep).join("");
  // The error's first line, from stderr or else from the body of a failed probe, and where in the learner's files it was thrown.
  const error = tail.split("\n").find((l) => /^\w*(Error|Exception)\b/.test(l)) ?? head.match(/\b\w*Error: [^<\n]*/)?.[0];
  const where = tail.match(/\(?((?:app|start)\/[^\s():]+:\d+)/)?.[1] ?? tail.split("\n").find((l) => /^\S+:\d+$/.test(l));
  const said = error ? `: ${error.trim()}${where ? ` (${where})` : ""}` : "";
  let m: RegExpMatchArray | null;
  if ((m = head.match(/exited \(code (\S+), signal (\S+)\) before listening/))) {
    return { message: `Your app exited before it listened (code ${m[1]}, signal ${m[2]})${said}.`, stderr: tail, hints: [
      /SyntaxError/.test(tail) ? "A syntax error: `node --check app/server.js` points at it without starting the app." :
        "It crashed while starting: run `node app/server.js` yourself and read the first lines of the error."] };
  }
  if ((m = head.match(/did not report listening within (\d+) ms/))) {
    return { message: `Your app never reported listening (waited ${m[1]} ms)${said}.`, stderr: tail, hints: [
      "The app contract: listen on PORT and print one listening line; serveHttp() or announce() from apps/lib/contract.js do both."] };
  }
  if ((m = head.match(/answered (\d+) to GET (\S+?): /))) {
    return { message: `Your app started but answered ${m[1]} to GET ${m[2]}${said}.`, stderr: tail, hints: [
      "A status of 500 means a handler threw: its stderr (below) has the stack trace."] };
  }
  return { message: `Your app did not start: ${head}${said}`, stderr: tail, hints: [] };
}

/** A friendly pass/fail (Markdown in a notebook, text elsewhere): the message, the hints, and the app's stderr on a failure. */
export function printCheck(result: CheckResult): void {
  const lines = [`**${result.pass ? "✅ PASS" : "❌ FAIL"}: exercise ${result.exercise}**`, "", result.message];
  if (result.hints.length) lines.push("", "Hints:", ...result.hints.map((h) => `* ${h}`));
  if (!result.pass && result.details.stderr.trim()) lines.push("", "Your app's stderr (last lines):", "", "```", result.details.stderr.trim(), "```");
  markdown(lines.join("\n"));
}
