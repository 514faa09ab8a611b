import fs from "node:fs";
import path from "node:path";
import { diff } from "node:util";
import { markdown } from "../charts/display";
import { badOption } from "../core/errors";
import { appsDir, repoRoot } from "../core/paths";

/**
 * The code under test, shown in the notebook: an excerpt of a file in apps/ (syntax-highlighted in
 * JupyterLab and the rendered book) or a diff of two files, so the learner sees what changed, not
 * only that it got faster.
 */

const lang = (file: string) => (/\.[cm]?ts$/.test(file) ? "ts" : "js");

/**
 * Lines `from` to `to` (1-based, inclusive) of `file` (relative to apps/; `../` reaches the rest of the
 * workbook's folder, such as the harness's probe, and nothing outside it), or the function or block
 * that starts at the first line containing `from` when it is a string (up to its closing brace at the
 * same indentation). Returns the Markdown; showCode() displays it.
 */
export function codeExcerpt(file: string, from: string | number = 1, to?: number): string {
  const abs = path.resolve(appsDir, file);
  const shown = path.relative(repoRoot, abs); // "../harness/preload/probe.cjs" shows as harness/preload/probe.cjs
  if (shown.startsWith("..") || path.isAbsolute(shown))
    throw badOption("showCode", `${file} is outside the workbook's folder`);
  if (!fs.existsSync(abs)) throw badOption("showCode", `no file ${shown}`);
  const lines = fs.readFileSync(abs, "utf8").split("\n");
  let start = typeof from === "number" ? from - 1 : lines.findIndex((l) => l.includes(from));
  if (start < 0) throw badOption("showCode", `${shown} has no line containing ${JSON.stringify(from)}`);
  let end = to === undefined ? lines.length - 1 : to - 1;
  if (typeof from === "string" && to === undefined) {
    const indent = /^\s*/.exec(lines[start])![0];
    const close = lines.findIndex((l, i) => i > start && l.startsWith(`${indent}}`));
    end = close < 0 ? start : close;
  }
  while (start > 0 && /^\s*\/\//.test(lines[start - 1])) start--; // the comment above belongs to it
  const body = lines
    .slice(start, end + 1)
    .join("\n")
    .replace(/\s+$/, "");
  const where = start === end ? `line ${start + 1}` : `lines ${start + 1}–${end + 1}`;
  return `\`${shown}\`, ${where}:\n\n\`\`\`${lang(file)}\n${body}\n\`\`\``;
}

/**
 * The code under test, shown in the notebook: lines `from` to `to` (1-based, inclusive) of a file
 * under `apps/` (or, with `../`, elsewhere in the workbook's folder: the harness code a lesson runs),
 * or, when `from` is a string, the function or block that starts at the first line
 * containing it (up to its closing brace at the same indentation); the comment lines just above are
 * included. Throws `WB_BAD_OPTION` for a missing file, one outside the workbook's folder, or no
 * matching line.
 *
 * @example
 * wb.showCode("hello-http/server.js", "const body");
 * wb.showCode("../harness/preload/probe.cjs", "const delay ="); // shown as harness/preload/probe.cjs
 */
export function showCode(file: string, from?: string | number, to?: number): void {
  markdown(codeExcerpt(file, from, to));
}

/** A line diff of two files in apps/, each changed line with its number in its own file. */
export function codeDiff(a: string, b: string): string {
  const read = (f: string) => fs.readFileSync(path.join(appsDir, f), "utf8").split("\n");
  const out = [`--- apps/${a}`, `+++ apps/${b}`];
  let i = 0;
  let j = 0;
  for (const [op, line] of diff(read(a), read(b))) {
    if (op === 0) {
      i++;
      j++;
    } else if (op === 1) out.push(`-${String(++i).padStart(4)}  ${line}`);
    else out.push(`+${String(++j).padStart(4)}  ${line}`);
  }
  return `\`\`\`diff\n${out.join("\n")}\n\`\`\``;
}

/**
 * A line diff of two files under `apps/`, each changed line with its number in its own file.
 *
 * @example
 * wb.showDiff("etag-slow/util.js", "etag-fixed/util.js");
 */
export function showDiff(a: string, b: string): void {
  markdown(codeDiff(a, b));
}
