import path from "node:path";
import { repoRoot } from "./paths";

/** Command lines as a learner would type them: what every result prints as "this is what just ran". */

/** One word of a shell command, quoted when it needs to be. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * `text` with every absolute path inside the workbook written as a path from `from` (a folder inside the
 * workbook; default its root): "/home/ada/wb/results/x" is "results/x" from the root and
 * "../../results/x" from `apps/a/`. A line printed this way runs wherever the workbook was cloned, and
 * prints no folder of the learner's. Paths outside the workbook stay as they are.
 */
export function fromWorkbookText(text: string, from: string = repoRoot): string {
  const up = path.relative(from, repoRoot);
  return text.replaceAll(`${repoRoot}${path.sep}`, up ? `${up}${path.sep}` : "");
}

/**
 * The command line that runs `argv` in a shell, with environment variables first, as typed in `from`
 * (default the workbook's folder): each absolute path inside the workbook, alone or in a word such as
 * `--cpu-prof-dir=/…/results/x`, is written from there (fromWorkbookText), so the pinned Node reads
 * `node_modules/node/bin/node` and never a bare `node` that would run whatever Node the PATH holds.
 */
export function shellLine(argv: readonly string[], env: Record<string, string> = {}, from: string = repoRoot): string {
  const typed = (w: string) => shellWord(fromWorkbookText(w, from));
  return [...Object.entries(env).map(([k, v]) => `${k}=${typed(v)}`), ...argv.map(typed)].join(" ");
}

/** A runtime's last path segment, as a command line prints it: "node" for Node at any path, "bun" for Bun. */
const RUNTIME_WORD = /(^|\s)((?:'[^']*\/)?(?:[\w@.+-]+\/)*node'?)(?=\s)/;

/**
 * `command` (an app's, "taskset -c 1 node_modules/node/bin/node server.js") with `flags` after its Node
 * (the first word that is `node` or a path ending in `/node`): the same app started with a Node option,
 * e.g. `--heap-prof`. Unchanged when it runs no Node.
 */
export function withNodeFlags(command: string, flags: readonly string[]): string {
  return command.replace(RUNTIME_WORD, (m) => `${m} ${flags.map(shellWord).join(" ")}`);
}
