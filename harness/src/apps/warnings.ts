/**
 * The first warning a process printed under `--trace-warnings`, as far as the app's own frame: the
 * warning line, then its stack down to and including the first frame in `file` (the end of a path,
 * "etag-warning/util.js"). Node's own frames come first (node:events, node:internal/...), so cutting
 * the stack after a fixed number of lines would print only those. All of the warning's frames when
 * none is in `file`; none when the process printed no warning.
 */
export function warningTrace(stderr: string, file: string): string[] {
  const lines = stderr.split("\n");
  const start = lines.findIndex((l) => /Warning: /.test(l));
  if (start < 0) return [];
  const frames: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!/^\s+at /.test(line)) break;
    frames.push(line);
    if (line.includes(`/${file}:`) || line.includes(`(${file}:`)) break;
  }
  return [lines[start], ...frames];
}
