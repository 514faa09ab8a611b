import { fmt } from "../core/format";

/** Tables as text: fixed-width for terminals and text fallbacks, Markdown for the notebook's prose. */

export type Cell = string | number | boolean | null | undefined;

/** A fixed-width text table: the text/plain face of charts and summaries. Every column right-aligned, integers as they are, other numbers with two decimals; `(no rows)` for none. `columns`: which, in order (default: the keys of the first row). */
export function textTable(rows: Record<string, unknown>[], columns?: string[]): string {
  if (rows.length === 0) return "(no rows)";
  const cols = columns ?? Object.keys(rows[0]);
  const cell = (v: unknown) => {
    if (typeof v !== "number") return String(v ?? "");
    return Number.isInteger(v) ? String(v) : v.toFixed(2);
  };
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padStart(widths[i])).join("  ");
  return [
    line(cols),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map((r) => line(cols.map((c) => cell(r[c])))),
  ].join("\n");
}

/**
 * A Markdown table from rows of plain values, for markdown(): numbers are formatted with fmt(),
 * null and undefined show as "—", and pipes in text are escaped. Numbers are right-aligned.
 * `columns` picks and orders the columns (default: the keys of the first row). `_(no rows)_` for none.
 *
 * @example
 * wb.markdown(wb.markdownTable([wb.loadRow("hello-http", first), { "": "published", "req/s": 23.1 }]));
 */
export function markdownTable(rows: Record<string, Cell>[], columns?: string[]): string {
  if (rows.length === 0) return "_(no rows)_";
  const cols = columns ?? Object.keys(rows[0]);
  const cell = (v: Cell) => {
    if (v === null || v === undefined) return "—";
    if (typeof v === "number") return fmt(v);
    return String(v).replace(/\|/g, "\\|").replace(/\n/g, " ");
  };
  const numeric = cols.map((c) => rows.some((r) => typeof r[c] === "number"));
  return [
    `| ${cols.join(" | ")} |`,
    `|${numeric.map((n) => (n ? "---:" : "---")).join("|")}|`,
    ...rows.map((r) => `| ${cols.map((c) => cell(r[c])).join(" | ")} |`),
  ].join("\n");
}
