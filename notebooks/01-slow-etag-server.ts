// Notebook 01's own helpers (the shared harness, `wb`, keeps what two notebooks use).
import fs from "node:fs";
import path from "node:path";
import * as wb from "@workbook/harness";
import * as lesson from "@workbook/harness/internal";

/** How many lines of app file `edited` differ from app file `from` (a line-for-line edit), of how many. */
export function changedLines(from: string, edited: string): { changed: number; of: number } {
  const read = (f: string) => fs.readFileSync(path.join(lesson.appsDir, f), "utf8").replace(/\n$/, "").split("\n");
  const [a, b] = [read(from), read(edited)];
  if (a.length !== b.length) throw new Error(`${from} and ${edited} differ in length: not a line-for-line edit`);
  return { changed: a.filter((line, i) => line !== b[i]).length, of: a.length };
}

/** doctor's active handles: the fewest it saw (the app before the load) and the most (at the load's peak). */
export function handleCounts(samples: readonly { handles: number }[]): { idle: number; peak: number } {
  if (samples.length === 0) throw new Error("doctor took no samples");
  const counts = samples.map((s) => s.handles);
  return { idle: Math.min(...counts), peak: Math.max(...counts) };
}

/** The handles the article's doctor counted besides the load's connections: stdout, stderr and the server. */
export function handlesBeforeLoad(): number {
  const D = lesson.publishedEtag.doctor;
  return D.parts.filter((p) => p.what !== "connections").reduce((sum, p) => sum + p.count, 0);
}

/** The article's 103 handles, part by part, beside this run's count before the load and at its peak. */
export function handleRows(
  counted: { idle: number; peak: number },
  connections: number,
): Record<string, string | number>[] {
  const D = lesson.publishedEtag.doctor;
  const conns = D.parts.find((p) => p.what === "connections")!.count;
  const others = D.parts.filter((p) => p.what !== "connections");
  const row = (what: string, article: number, here: number) => ({
    handles: what,
    "the article's doctor": article,
    "this run's, at its peak": here,
  });
  return [
    row(`the load's connections (${connections} asked)`, conns, counted.peak - counted.idle),
    row(`${others.map((p) => p.what).join(", ")}: open before the load`, handlesBeforeLoad(), counted.idle),
    row("active handles", D.activeHandles, counted.peak),
  ];
}

/** Each of the article's targets beside what the fix alone reached in this run, and whether it met it. */
export function targetRows(reached: { times: number; reqPerSec: number }): Record<string, string>[] {
  return lesson.publishedEtag.cost.targets.map((t) => {
    const value = t.kind === "times" ? reached.times : reached.reqPerSec;
    return {
      "the article's target": t.text,
      "the fix, this run": t.kind === "times" ? wb.times(value) : `${wb.fmt(value)} req/s`,
      met: value >= t.value ? "yes" : "no",
    };
  });
}
