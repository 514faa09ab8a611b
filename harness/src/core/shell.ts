/** Command lines as a learner would type them: what every result prints as "this is what just ran". */

/** One word of a shell command, quoted when it needs to be. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The command line that runs `argv` in a shell, with environment variables first. */
export function shellLine(argv: readonly string[], env: Record<string, string> = {}): string {
  return [...Object.entries(env).map(([k, v]) => `${k}=${shellWord(v)}`), ...argv.map(shellWord)].join(" ");
}

/**
 * `command` (an app's, "taskset -c 1 node server.js") with `flags` after its `node`: the same app
 * started with a Node option, e.g. `--heap-prof`. Unchanged when it runs no `node`.
 */
export function withNodeFlags(command: string, flags: readonly string[]): string {
  return command.replace(/(^|\s)node(?=\s)/, (m) => `${m} ${flags.map(shellWord).join(" ")}`);
}
