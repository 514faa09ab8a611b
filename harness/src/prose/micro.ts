import { pct, times } from "../core/format";
import { type GainPart, gainCeiling, predictGain } from "../experiments/request-share";
import type { Advantage } from "../load/rounds";
import { ratioText, readingText } from "./describe";

/**
 * Notebook 05's sentences that depend on the run: how two micro-benchmark tasks compare, what a
 * dropped result did to a measurement, and whether micro-gains showed in a whole request. Tested in
 * tests/unit/micro.test.js.
 */

/** One route's request-level outcome, after over before: the parts made faster, and the two apps measured in the same rounds. */
export interface RequestLesson {
  /** "GET /products/1". */
  route: string;
  /** Each optimised part: its share of the before app's busy CPU (a profile) and its micro-gain. */
  parts: GainPart[];
  /** advantage(after's rounds, before's rounds). */
  measured: Advantage;
}

/** Measured gains below this read as "a few percent under load"; at or above it, as "it shows". */
export const SHOWS_FROM = 1.15;

/**
 * The paragraph on one route: the optimised code's share of the request, the micro-gains, the
 * predicted request-level gain (Amdahl) beside the measured one with its spread, and the conclusion
 * chosen from the measurement: "a few percent" when it stayed below SHOWS_FROM, "it shows" above,
 * "not clear" above it when a round saw no gain (the machine's noise as large as the effect), and how
 * the prediction did (within the measured range, within 10 % of the median, or off by how much).
 *
 * @example
 * wb.markdown(lessons.map(lesson.requestLessonText).join("\n\n"));
 */
export function requestLessonText(l: RequestLesson): string {
  const share = l.parts.reduce((s, p) => s + p.share, 0);
  const predicted = predictGain(l.parts);
  const each = l.parts.map((p) => `${p.what} ${pct(p.share)} of the busy CPU, ${times(p.gain)} faster on its own`);
  const r = l.measured.ratio;
  if (r === null) return `**${l.route}**: the two apps have no round in common, so no measured gain.`;
  const figure = l.measured.decidedOn === "reqPerSec" ? "requests per second" : "server CPU time per request";
  const head =
    `**${l.route}**: ${each.join("; ")}. Predicted: **${times(predicted)}**; measured by ${figure}: ` +
    `**${ratioText(r)}** (${readingText(l.measured.reading)}).`;
  return `${head} ${verdictText(r, share, gainCeiling(l.parts))} ${predictionText(predicted, r)}`;
}

/** The conclusion: below SHOWS_FROM "a few percent"; above it "it shows", unless a round saw no gain at all. */
function verdictText(r: NonNullable<Advantage["ratio"]>, share: number, ceiling: number): string {
  if (r.median < SHOWS_FROM) {
    return (
      `**Only a few percent under load, if anything:** the optimised code was only ${pct(share)} of each ` +
      `request's CPU time, so even making it free could give at most ${times(ceiling)}.`
    );
  }
  if (r.min <= 1) {
    return (
      `**Not clear under load:** the median says ${times(r.median)}, but at least one round saw no gain, so this ` +
      `machine's noise was as large as the effect; run it again on a quiet machine, or with the full profile.`
    );
  }
  return (
    `**It shows under load:** the optimised code was ${pct(share)} of each request's CPU time, ` +
    "so most of the micro-gain carried through to the whole request."
  );
}

function predictionText(predicted: number, r: NonNullable<Advantage["ratio"]>): string {
  if (predicted >= r.min && predicted <= r.max) return "The prediction falls within the measured range.";
  const off = predicted / r.median - 1;
  if (Math.abs(off) <= 0.1) return `The prediction is within 10 % of the measured median (${pct(off)}).`;
  return (
    `The prediction is ${pct(Math.abs(off))} ${off > 0 ? "above" : "below"} the measured median: shares read from ` +
    "one profile of the main thread, and micro-gains timed on their own, leave out what the changes did to the " +
    "rest of the request (garbage collection, writing the body to the socket), and a busy machine moves both figures."
  );
}
