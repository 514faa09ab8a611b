import type { Frame } from "@workbook/harness/internal";

/**
 * Regular expressions in a CPU profile. V8 names a regular expression's own frame ("RegExp:
 * <pattern>") only when it compiled it while the profiler ran; the diagnosis profiles a warm app,
 * whose expressions were compiled before, and their time is booked to the line that runs them. These
 * find the patterns such a line may run; busy.ts counts their time.
 */

/**
 * The regular expression that ran longest, as far as the profile can tell, and only what it can: its
 * pattern from V8's own frame (`RegExp: <pattern>`), or the line that ran it (the app's or a
 * dependency's line with the most self time among those that run one) with the pattern written on
 * it, when there is exactly one; with more than one candidate there, `pattern` is null and
 * `candidates` lists them: the line is named, the pattern is not guessed.
 */
export interface RegexRun {
  pattern: string | null;
  candidates: string[];
  /** Its share of the busy samples. */
  share: number;
  /** "frame": V8's own frame named it; "line": the line that runs it did. */
  from: "frame" | "line";
  /** The app's (or a dependency's) frame that ran it: for "line", the function the line is in. */
  caller: Frame | null;
  /** For "line": the line, and its text. */
  line: { file: string; line: number; text: string } | null;
}

/**
 * A line longer than this is minified code (a bundled package puts a module on one line: marked's
 * lexer, thousands of characters): V8's ticks on it are all of that code's, not its expressions',
 * so it is not read for the patterns it runs.
 */
export const MINIFIED_LINE = 300;

/** V8's own frame of a regular expression. */
export const REGEX_FRAME = /^RegExp: /;

const RUNS_REGEX = /\.(test|exec|match|matchAll|replace|replaceAll|search|split)\s*\(/;
// a regex literal: a slash after an operator, a bracket or the line's start (not a division after a value)
const LITERAL = /(?<=(?:^|[=(,:!&|?;{}[])\s*)\/((?:\\.|\[(?:\\.|[^\]])*\]|[^/\\\n[])+)\/[dgimsuvy]*/g;
const NEW_REGEXP = /new RegExp\(\s*(["'`])((?:\\.|(?!\1).)*)\1/;

/**
 * Every pattern that `line` (1-based) of `source` may run: the regex literals on a line that calls
 * test, exec, match, replace, search or split (`/^a+$/.test(s)`, `s.replace(/x/g, "")`), and the
 * literals or `new RegExp("...")` that a name called or passed there is bound to in the same file
 * (`username.test(s)`, with `const username = /.../` above; every binding of that name). Empty when
 * the line runs none that the file shows (a string to split on, a pattern from elsewhere), and for a
 * minified line (MINIFIED_LINE).
 */
export function regexesOnLine(source: readonly string[], line: number): string[] {
  const text = source[line - 1] ?? "";
  if (text.length > MINIFIED_LINE || !RUNS_REGEX.test(text)) return [];
  const found = new Set<string>();
  for (const m of text.matchAll(LITERAL)) found.add(m[1]);
  // a name the line runs (`name.test(`, `name.exec(`) or passes (`s.replace(name, ...)`), bound in the file
  for (const m of text.matchAll(/([A-Za-z_$][\w$]*)\s*\.\s*(?:test|exec)\s*\(|\(\s*([A-Za-z_$][\w$]*)\s*[,)]/g)) {
    const name = m[1] ?? m[2];
    const binding = new RegExp(`\\b(?:const|let|var)\\s+${name.replace(/\$/g, "\\$")}\\s*=`);
    for (const l of source) {
      const at = l.search(binding);
      if (at < 0) continue;
      const value = l.slice(l.indexOf("=", at) + 1);
      const literal = [...value.matchAll(LITERAL)][0];
      const built = NEW_REGEXP.exec(value);
      if (literal) found.add(literal[1]);
      else if (built) found.add(built[2]);
    }
  }
  return [...found];
}
