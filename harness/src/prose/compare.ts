import { badOption } from "../core/errors";
import { pctChange, rangeText, times } from "../core/format";
import { median, medianInterval } from "../core/stats";

/**
 * The one place where a comparison's words are chosen from its evidence (tests/unit/compare-words.test.js):
 * "faster" only when the interval excludes 1x and the median lies beyond the noise floor, "no difference
 * this run could see" when the interval holds 1x, "one run: no interval" when there is one value. Every
 * sentence that compares two figures writes its verdict with `compared` (or reads its `kind`), so that no
 * adjective claims more than the interval beside it.
 */

/** The fewest values whose median gets a bootstrap 95 % interval; with fewer, their range is the interval. */
export const INTERVAL_MIN_VALUES = 6;

/** The noise floor by default: two processes of one file differ by about this much (tools' NOISE_FLOOR). */
export const NOISE_FLOOR = 0.02;

/**
 * What the evidence lets a sentence say: "more" (the interval lies above 1x and the median beyond the
 * noise floor), "less" (below), "same" (the interval holds 1x: no difference this run could see),
 * "noise" (the interval excludes 1x but the median lies within the noise floor), "one" (one value: no
 * interval, no verdict), "few" (two to four values: their range holds the median less than 90 % of
 * the time, too seldom for a verdict either way).
 */
export type ComparisonKind = "more" | "less" | "same" | "noise" | "one" | "few";

/** The least confidence a range of values needs before it may carry a verdict: five values (94 %) do, four (88 %) do not. */
export const VERDICT_MIN_LEVEL = 0.9;

/** An interval computed elsewhere (a comparison's widened one, a micro-benchmark's margins of error). */
export interface GivenInterval {
  low: number;
  high: number;
  /** Its confidence (0.95), or null when it is no confidence interval (margins of error, a range). */
  level: number | null;
  /** How prose names it: "95 % interval", "their margins of error allow". */
  what: string;
}

export interface RatioEvidence {
  /** The ratio's values, one per round, process or run: their median is the ratio quoted. */
  values: readonly number[];
  /** OPTIONAL: the interval to judge by, when the caller has a better one than the values give. */
  interval?: GivenInterval;
  /** OPTIONAL: what the values are ("rounds", "processes", "runs"). Default "rounds". */
  of?: string;
  /** OPTIONAL: a change within this share either way is not called more or less. Default NOISE_FLOOR. */
  noise?: number;
}

/**
 * How the sentence names things: `more` when the ratio is above 1x ("faster"), `less` below ("slower");
 * OPTIONAL `a` and `b`, the two sides of the ratio a / b ("the optimised server", "the fixed one"),
 * for a whole sentence ("the optimised server was faster than the fixed one by 14 %: …").
 */
export interface ComparisonWords {
  more: string;
  less: string;
  a?: string;
  b?: string;
}

export interface Comparison {
  kind: ComparisonKind;
  median: number;
  /** The interval judged by (NaN for one value). */
  low: number;
  high: number;
  /** Its confidence: 0.95 for a bootstrap interval, 1 - 2^(1-n) for the range of n values, null for margins. */
  level: number | null;
  n: number;
  noise: number;
  /** "1.14x (median of 7 rounds, 95 % interval 1.06x–1.21x)", "1.14x from one round": the figure with its evidence. */
  evidence: string;
  /**
   * The verdict with its evidence: "faster by 14 %: 1.14x (median of 7 rounds, 95 % interval 1.06x–1.21x)",
   * "slower: 0.41x (…)", "no difference this run could see: 1.02x (…)", "1.14x from one round: one round,
   * no interval, so no verdict".
   */
  words: string;
  /**
   * `words`, then `evidence`, after an HTML comment that a reader of the executed notebooks finds
   * (tests/notebooks/test_reading.py): it holds the kind and the numbers, so a test can check that the
   * words around them agree. Markdown renders the comment as nothing.
   */
  text: string;
}

/** The confidence that the range of n values holds their median (each value falls either side with 1/2). */
export const rangeLevel = (n: number): number => 1 - 2 ** (1 - n);

/**
 * A ratio's verdict from its evidence. `values`: one ratio per round (or process, run); `interval`
 * OPTIONAL (judged instead of the values' own); `noise` OPTIONAL (default NOISE_FLOOR, 2 %). The interval
 * from the values: from INTERVAL_MIN_VALUES on, the bootstrap 95 % interval of their median; from two to
 * five, their range, which holds the median with confidence 1 - 2^(1-n) (75 % for three, 94 % for five),
 * said beside it, and too seldom for a verdict below VERDICT_MIN_LEVEL (four values or fewer: "too few
 * rounds for a verdict"); one value has none. `words` name the directions (default faster, slower). A change of
 * less than 2x reads as a percentage ("faster by 14 %"), a larger one as a ratio ("faster: 14.7x");
 * throws WB_BAD_OPTION on no finite value.
 *
 * @example
 * const c = compared({ values: adv.ratio.runs });
 * wb.markdown(`The optimised server was ${c.text}.`); // "… was faster by 14 %: 1.14x (median of 7 rounds, 95 % interval 1.06x–1.21x)."
 */
export function compared(e: RatioEvidence, words: ComparisonWords = { more: "faster", less: "slower" }): Comparison {
  const xs = e.values.filter(Number.isFinite);
  if (xs.length === 0) throw badOption("compared", "a comparison needs at least one finite value");
  const m = median(xs);
  const n = xs.length;
  const noise = e.noise ?? NOISE_FLOOR;
  const of = e.of ?? "rounds";
  let low = NaN;
  let high = NaN;
  let level: number | null = null;
  let interval = "";
  if (e.interval) {
    ({ low, high, level } = e.interval);
    interval = `${e.interval.what} ${rangeText(low, high, times)}`;
  } else if (n >= INTERVAL_MIN_VALUES) {
    ({ low, high } = medianInterval(xs));
    level = 0.95;
    interval = `95 % interval ${rangeText(low, high, times)}`;
  } else if (n > 1) {
    [low, high, level] = [Math.min(...xs), Math.max(...xs), rangeLevel(n)];
    const range = rangeText(low, high, times);
    interval = `${range.startsWith("each") ? "" : "range "}${range}, a ${Math.round(level * 100)} % interval`;
  }
  const few = n > 1 && (level ?? 1) < VERDICT_MIN_LEVEL;
  const kind = few ? "few" : kindOf(m, low, high, n === 1 && !e.interval, noise);
  const one = of.replace(/(ss)es$|s$/, "$1"); // "process", "round"
  const evidence =
    kind === "one"
      ? `${times(m)} from one ${one}`
      : `${times(m)} (${n > 1 ? `median of ${n} ${of}, ` : ""}${interval})`;
  const big = m >= 2 || m <= 0.5;
  const than = (word: string) => (words.a && words.b ? `${words.a} was ${word} than ${words.b}` : word);
  const by = (word: string) => (big ? `${than(word)}: ${evidence}` : `${than(word)} by ${pctChange(m)}: ${evidence}`);
  const between = words.a && words.b ? ` between ${words.a} and ${words.b}` : "";
  const said: Record<ComparisonKind, string> = {
    more: by(words.more),
    less: by(words.less),
    same: `no difference${between} this run could see: ${evidence}`,
    noise: `no difference${between} beyond the ${pctChange(1 + noise)} noise floor: ${evidence}`,
    one: `${words.a && words.b ? `${words.a} over ${words.b}: ` : ""}${evidence}: no interval, so no verdict`,
    few: `${words.a && words.b ? `${words.a} over ${words.b}: ` : ""}${evidence}: too few ${of} for a verdict`,
  };
  const num = (v: number) => (Number.isFinite(v) ? Number(v.toPrecision(6)) : "none");
  const marker = `<!--wb:comparison kind=${kind} median=${num(m)} low=${num(low)} high=${num(high)} n=${n} noise=${noise} level=${level === null ? "none" : num(level)}-->`;
  return { kind, median: m, low, high, level, n, noise, evidence, words: said[kind], text: `${marker}${said[kind]}` };
}

/** The verdict's kind: one value has none; an interval holding 1x is "same"; else the median's side, beyond the noise floor. */
function kindOf(m: number, low: number, high: number, alone: boolean, noise: number): ComparisonKind {
  if (alone) return "one";
  if (low <= 1 && high >= 1) return "same";
  if (m > 1 + noise) return "more";
  if (m < 1 / (1 + noise)) return "less";
  return "noise";
}
