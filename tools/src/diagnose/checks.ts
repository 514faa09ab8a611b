import { fmt, type HotFrame, pct, times } from "@workbook/harness";
import { THRESHOLDS as T } from "./thresholds";

/** One number against one threshold, and how the verdict writes it and the frames it names. */
export interface Check {
  what: string;
  value: number;
  op: ">=" | "<=";
  threshold: number;
  /** "%/s": a share a second (memory's growth), printed in per cent with its digits. */
  unit: "share" | "%/s" | "ms" | "MB/s" | "x" | "";
  holds: boolean;
  /** Within NEAR of the threshold, on either side: another run could read the other way. */
  near: boolean;
}

export function check(
  what: string,
  value: number | null,
  op: Check["op"],
  threshold: number,
  unit: Check["unit"],
): Check {
  const v = value ?? NaN;
  const holds = op === ">=" ? v >= threshold : v <= threshold;
  // A share with a line above one half is compared by what is left of it: 98 % busy is 5x the
  // 10 % idle that 90 % allows, not "within 25 % of 90 %".
  const [a, b] = unit === "share" && threshold > 0.5 ? [1 - v, 1 - threshold] : [v, threshold];
  const near = Number.isFinite(a) && a <= b * T.NEAR && a >= b / T.NEAR;
  return { what, value: v, op, threshold, unit, holds, near };
}

const show = (v: number, unit: Check["unit"]) => {
  if (unit === "share") return pct(v);
  if (unit === "%/s") return `${fmt(v * 100)} % a second`;
  if (unit === "x") return times(v);
  return unit ? `${fmt(v)} ${unit}` : fmt(v);
};

const NOT = { ">=": "<", "<=": ">" } as const;

/** The reading, with one more digit when it would print as its line: "89.6 % < 90 %", not "90 % < 90 %". */
function reading(c: Check): string {
  const text = show(c.value, c.unit);
  if (text !== show(c.threshold, c.unit) || c.value === c.threshold) return text;
  if (c.unit === "share") return pct(c.value, 1);
  const digits = c.value.toPrecision(4);
  if (c.unit === "x") return `${digits}x`;
  return c.unit ? `${digits} ${c.unit}` : digits;
}

/** "event-loop utilisation 98 % >= 90 %" (or "< 90 %" when it does not hold). */
export function checkText(c: Check): string {
  const op = c.holds ? c.op : NOT[c.op];
  return `${c.what} ${reading(c)} ${op} ${show(c.threshold, c.unit)}`;
}

const WHOSE: Record<string, string> = { user: "the app's", dependency: "a dependency's", node: "Node's" };

/** The share a frame is ranked by: the app's own frames with what they called, others on their own. */
const shareOf = (h: HotFrame) => (h.category === "user" ? h.attributedShare : h.selfShare);

/** "work (tests/fixtures/diagnose/cpu-work.js:9, the app's) 98 % of busy CPU"; "writev (native) 3 % ...". */
export function frameText(h: HotFrame, of = "of busy CPU", share = shareOf(h)): string {
  const where = h.file && WHOSE[h.category] ? `${h.file}:${h.line}, ${WHOSE[h.category]}` : h.category;
  return `${h.name} (${where}) ${pct(share)} ${of}`;
}

/** The first few frames that matter: at least MIN_FRAME_SHARE each, at most three, never none. */
const MIN_FRAME_SHARE = 0.05;
export const top = (hot: HotFrame[]) => hot.filter((h, i) => i === 0 || shareOf(h) >= MIN_FRAME_SHARE).slice(0, 3);
