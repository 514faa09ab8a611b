import { compared, times } from "@workbook/harness";
import { median, medianInterval } from "@workbook/harness/internal";

/**
 * The statistics of a comparison of two servers, on the per-round ratios of B to A ("how many times
 * better B did": B's req/s over A's, or A's CPU time per request over B's). Pure functions, unit-tested
 * on recorded rounds (tests/unit/compare.test.js). A change is a fraction: ratio - 1, negative when B
 * is slower.
 *
 * Two kinds of noise. Round to round, the machine's speed moves (on the 2-core development machine
 * by 10-20 % from one second to the next); side by side it moves both servers alike, and what is left
 * narrows as 1/sqrt(rounds): the bootstrap interval of the median round (medianInterval). Process to
 * process, two copies of one file differ for their whole life (where the heap and the code landed,
 * what the JIT decided): by a standard deviation `noise` (the noise floor, measured by A/A runs), which
 * no number of rounds with the same two processes narrows. So a comparison starts fresh processes in
 * several sessions, and its interval adds that term for the sessions it ran: z * noise / sqrt(sessions).
 */

/** The level of the interval a verdict quotes. */
export const LEVEL = 0.95;
/**
 * The level of the interval an early stop needs: Haybittle and Peto's rule, a look before the end
 * stops only on evidence far stronger than the final look's (here a two-sided 0.2 %), so that looking
 * every few rounds adds little to the final 5 % of false alarms.
 */
export const STRICT_LEVEL = 0.998;
/** The strict interval's resamples: 20,000 put 20 of them beyond each end of a 99.8 % interval. */
const STRICT_RESAMPLES = 20_000;
/** No stop before this many rounds, and then a look every LOOK_EVERY rounds. */
export const MIN_ROUNDS = 10;
export const LOOK_EVERY = 5;
/** A session's seconds: a comparison of S seconds runs max(1, round(S / SESSION_SECONDS)) sessions. */
export const SESSION_SECONDS = 15;

/** The process-to-process term of an interval: the noise floor (a standard deviation, as a fraction) and the sessions run. */
export interface Luck {
  noise: number;
  sessions: number;
}

/** A change with its interval, as fractions (-0.05: B 5 % slower). */
export interface Change {
  change: number;
  low: number;
  high: number;
  level: number;
}

/** The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) =>
    (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  );
}

/**
 * The median per-round ratio as a change, with its interval: the bootstrap interval of the median
 * (medianInterval), each side widened by the process term z * noise / sqrt(sessions) (added in
 * quadrature: the two errors are independent).
 */
export function changeOf(ratios: readonly number[], luck: Luck, level = LEVEL): Change {
  const xs = ratios.filter(Number.isFinite);
  const m = median(xs);
  const i = level === STRICT_LEVEL ? medianInterval(xs, level, STRICT_RESAMPLES) : medianInterval(xs, level);
  const process = (normalQuantile(0.5 + level / 2) * luck.noise * m) / Math.sqrt(Math.max(1, luck.sessions));
  const widen = (d: number) => Math.sqrt(d * d + process * process);
  return { change: m - 1, low: m - widen(m - i.low) - 1, high: m + widen(i.high - m) - 1, level };
}

export type VerdictKind = "slower" | "faster" | "same";

export interface Verdict extends Change {
  kind: VerdictKind;
  /** The largest difference the interval leaves possible: max(|low|, |high|). */
  largest: number;
  /** The smallest change a run like this one would call slower or faster 80 % of the time. */
  detectable: number;
  /** `detectable` as printed (seeText: rounded up to a tenth of a per cent), the one figure every sentence quotes. */
  seen: string;
  /** "B is slower by 6.1 % [4.0-8.2]", "B is faster by ...", "no difference larger than 2.3 % seen". */
  headline: string;
}

/** A share as a percentage of one decimal, grouped, without sign or unit: 0.0612 is "6.1", -10.236 "1,023.6". */
export const p1 = (share: number) =>
  (Math.abs(share) * 100).toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** A change as "+6.1 %" or "-2.0 %". */
export const signedPercent = (share: number) => `${share < 0 ? "-" : "+"}${p1(share)} %`;
/**
 * A change with its interval as prose writes it: within 2x either way as percentages ("-5.1 % [-8.5 % to
 * -2.1 %]"), beyond as ratios ("14.7x [14.1x to 15.8x]", never "+1,373.5 %").
 */
export function changeText(c: Pick<Change, "change" | "low" | "high">): string {
  if (c.change >= 1 || c.change <= -0.5) return `${times(1 + c.change)} [${times(1 + c.low)} to ${times(1 + c.high)}]`;
  return `${signedPercent(c.change)} [${signedPercent(c.low)} to ${signedPercent(c.high)}]`;
}

/** z(0.975) + z(0.80): a change this many standard errors away is seen 80 % of the time. */
const POWER_80 = normalQuantile(0.975) + normalQuantile(0.8);

/**
 * The smallest change an interval this wide lets a run call slower or faster 80 % of the time, as a
 * share of the median ratio: the rounds' noise is a share of what they measure (the process term of
 * changeOf too), so two servers 9x apart and two alike read the same precision, not nine times it.
 */
export function detectable(c: Pick<Change, "change" | "low" | "high" | "level">): number {
  return (POWER_80 * (c.high - c.low)) / (2 * normalQuantile(0.5 + c.level / 2) * (1 + c.change));
}

/**
 * The verdict, in the words its interval allows (the harness's `compared`, the noise floor already inside
 * the interval): slower when the whole interval lies below 0, faster when above, else no difference larger
 * than its farthest end. A change of 2x or more reads as a ratio ("B is faster: 14.7x [14.1x-15.8x]"),
 * never as "faster by 1,373.5 %".
 */
export function verdictOf(ratios: readonly number[], luck: Luck): Verdict {
  const c = changeOf(ratios, luck);
  const largest = Math.max(Math.abs(c.low), Math.abs(c.high));
  const words = compared({
    values: [1 + c.change],
    interval: { low: 1 + c.low, high: 1 + c.high, level: c.level, what: "interval" },
    noise: 0,
  });
  const kinds: Record<string, VerdictKind> = { more: "faster", less: "slower" };
  const kind: VerdictKind = kinds[words.kind] ?? "same";
  const big = words.median >= 2 || words.median <= 0.5;
  const x = (v: number) => times(v).replace(/x$/, "");
  let headline = `no difference larger than ${p1(largest)} % seen`;
  if (kind !== "same" && big) headline = `B is ${kind}: ${times(1 + c.change)} [${x(1 + c.low)}x-${x(1 + c.high)}x]`;
  else if (kind === "slower") headline = `B is slower by ${p1(c.change)} % [${p1(c.high)}-${p1(c.low)}]`;
  else if (kind === "faster") headline = `B is faster by ${p1(c.change)} % [${p1(c.low)}-${p1(c.high)}]`;
  return { ...c, kind, largest, detectable: detectable(c), seen: seeText(detectable(c)), headline };
}

/**
 * Whether the rounds so far settle the question, so that the comparison may stop before its time
 * limit: null to go on, else the reason. Looks only from MIN_ROUNDS rounds on, every LOOK_EVERY
 * rounds, at the STRICT_LEVEL interval. Without a gate it is settled when that interval lies wholly
 * below or above 0 (slower or faster beyond doubt); with a gate (a fraction: fail when B is slower by
 * more), when it lies wholly on one side of -gate. A run with no difference to find goes to its limit.
 */
export function settled(ratios: readonly number[], luck: Luck, gate: number | null = null): string | null {
  const n = ratios.filter(Number.isFinite).length;
  if (n < MIN_ROUNDS || n % LOOK_EVERY !== 0) return null;
  const c = changeOf(ratios, luck, STRICT_LEVEL);
  const big = c.change >= 1 || c.change <= -0.5;
  const ends = big
    ? `${times(1 + c.low)} to ${times(1 + c.high)}`
    : `${signedPercent(c.low)} to ${signedPercent(c.high)}`;
  const interval = `after ${n} rounds the ${p1(STRICT_LEVEL)} % interval, ${ends},`;
  if (gate !== null) {
    if (c.high < -gate) return `${interval} lies wholly beyond the gate's -${p1(gate)} %`;
    if (c.low > -gate) return `${interval} lies wholly above the gate's -${p1(gate)} %`;
    return null;
  }
  if (c.high < 0) return `${interval} lies wholly below ${big ? "1x" : "0"}`;
  if (c.low > 0) return `${interval} lies wholly above ${big ? "1x" : "0"}`;
  return null;
}

/** How long a comparison spends outside its rounds (per session: starting both servers, the warm-up) and in one round. */
export interface Pace {
  sessionOverheadSeconds: number;
  secondsPerRound: number;
}

/** One row of the noise-floor table: what a comparison of that many seconds would detect. */
export interface FloorRow {
  seconds: number;
  sessions: number;
  rounds: number;
  /** The smallest change it would call slower or faster 80 % of the time (a fraction); NaN: no round fits. */
  detectable: number;
  /** `detectable` as printed, rounded up to a tenth of a per cent ("2.1 %"; "n/a"): what the sentences quote too. */
  text: string;
}

/**
 * The smallest change a run can see, as printed: rounded up to a tenth of a per cent, so that a row that
 * reads "2.0 %" can see a change of 2 % (a figure rounded down would promise more than the run can see).
 */
export function seeText(share: number): string {
  return Number.isFinite(share) ? `${(Math.ceil(share * 1000 - 1e-9) / 10).toFixed(1)} %` : "n/a";
}

/** A comparison's length: "45 s", "2 min", "2 min 30 s"; "more than an hour" for Infinity. */
export function durationText(seconds: number): string {
  if (!Number.isFinite(seconds)) return "more than an hour";
  const s = Math.ceil(seconds);
  if (s < 120) return `${s} s`;
  return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ""}`;
}

/** The sessions a comparison of `seconds` runs. */
export const sessionsFor = (seconds: number) => Math.max(1, Math.round(seconds / SESSION_SECONDS));

/**
 * The rounds' part of a run's spread: how many rounds, and the standard error of their median (from
 * its bootstrap interval) as a share of that median, as detectable() reads it.
 */
function roundsSpread(ratios: readonly number[]): { n: number; error: number } {
  const xs = ratios.filter(Number.isFinite);
  const i = medianInterval(xs);
  return { n: xs.length, error: (i.high - i.low) / 2 / normalQuantile(0.975) / median(xs) };
}

function projected(spread: { n: number; error: number }, noise: number, pace: Pace, seconds: number): FloorRow {
  const sessions = sessionsFor(seconds);
  const each = Math.floor((seconds / sessions - pace.sessionOverheadSeconds) / pace.secondsPerRound);
  const rounds = Math.max(0, each) * sessions;
  const error = Math.sqrt((spread.error * spread.error * spread.n) / rounds + (noise * noise) / sessions);
  const detectable = rounds < 2 || spread.n < 2 ? NaN : POWER_80 * error;
  return { seconds, sessions, rounds, detectable, text: seeText(detectable) };
}

/**
 * What a comparison of `seconds` would detect at this run's spread: the rounds' part of the interval
 * narrows as 1/sqrt(rounds), the process part as 1/sqrt(sessions). A projection: it assumes the
 * machine stays as it was, and the noise floor is what A/A runs measured.
 */
export function floorRow(ratios: readonly number[], noise: number, pace: Pace, seconds: number): FloorRow {
  return projected(roundsSpread(ratios), noise, pace, seconds);
}

/** The noise-floor table: floorRow for 15 s to 10 min. */
export function floorTable(ratios: readonly number[], noise: number, pace: Pace): FloorRow[] {
  const spread = roundsSpread(ratios);
  return [15, 30, 60, 90, 120, 300, 600].map((s) => projected(spread, noise, pace, s));
}

/**
 * The seconds a comparison needs to see a change of `size` (a fraction) 80 % of the time at this run's
 * spread, by the same projection as floorTable (so a row that reads `size` or less is never a longer
 * time than this says); Infinity beyond an hour.
 */
export function secondsToSee(ratios: readonly number[], noise: number, pace: Pace, size: number): number {
  const spread = roundsSpread(ratios);
  for (let s = 10; s <= 3600; s += s < 120 ? 5 : 30) if (projected(spread, noise, pace, s).detectable <= size) return s;
  return Infinity;
}
