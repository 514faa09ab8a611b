import { fmt } from "./charts-ready";

export type Cell = string | number | null | undefined;

/**
 * A Markdown table from rows of plain values, for markdown(): numbers are formatted with fmt(),
 * null and undefined show as "—", and pipes in text are escaped. Numbers are right-aligned.
 * `columns` picks and orders the columns (default: the keys of the first row).
 */
export function markdownTable(rows: Record<string, Cell>[], columns?: string[]): string {
  if (rows.length === 0) return "_(no rows)_";
  const cols = columns ?? Object.keys(rows[0]);
  const cell = (v: Cell) => (v === null || v === undefined ? "—" : typeof v === "number" ? fmt(v) : v.replace(/\|/g, "\\|").replace(/\n/g, " "));
  const numeric = cols.map((c) => rows.some((r) => typeof r[c] === "number"));
  return [
    `| ${cols.join(" | ")} |`,
    `|${numeric.map((n) => (n ? "---:" : "---")).join("|")}|`,
    ...rows.map((r) => `| ${cols.map((c) => cell(r[c])).join(" | ")} |`),
  ].join("\n");
}
