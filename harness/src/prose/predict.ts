import { markdown } from "../charts/display";
import { fmt, times } from "../core/format";

/**
 * Predict, then measure. A cell asks a question and keeps the learner's guess (`null` until they type
 * one); the cell that measures shows the guess beside the result. In CI the guesses stay null and
 * nothing depends on them.
 */
export interface Prediction {
  question: string;
  /** A number, a short answer, or null for no guess yet. */
  guess: number | string | null;
  unit: string;
}

/**
 * Predict, then measure: show the question and the learner's guess (null until they type one) and
 * return it for `reveal`. With `unit: "x"`, numbers are written as ratios. In CI the guesses stay null
 * and nothing depends on them.
 *
 * @example
 * const guessRps = wb.predict("requests per second at 10 connections", null, "req/s");
 * // ... measure ...
 * wb.reveal(guessRps, first.reqPerSec.median);
 */
export function predict(question: string, guess: number | string | null, unit = ""): Prediction {
  const shown =
    guess === null
      ? "_none yet: replace `null` with your guess and run the cell again_"
      : `**${valueText(guess, unit)}**`;
  markdown(`**Your prediction** — ${question}: ${shown}`);
  return { question, guess, unit };
}

function valueText(v: number | string, unit: string): string {
  if (typeof v !== "number") return v;
  if (unit === "x") return times(v);
  return unit ? `${fmt(v)} ${unit}` : fmt(v);
}

/** The sentence that sets a guess beside what was measured (exported for tests; reveal() shows it). */
export function revealText(p: Prediction, actual: number | string): string {
  const measured = `**${valueText(actual, p.unit)}**`;
  if (p.guess === null) return `You made no guess for "${p.question}"; this run measured ${measured}.`;
  const guess = valueText(p.guess, p.unit);
  if (typeof p.guess !== "number" || typeof actual !== "number" || p.guess === 0) {
    return `You predicted ${guess} for "${p.question}"; this run gave ${measured}.`;
  }
  const off = actual / p.guess;
  const close = off > 0.8 && off < 1.25 ? "within 25 % of it" : `${times(off)} your guess`;
  return `You predicted ${guess} for "${p.question}"; this run measured ${measured}: ${close}.`;
}

/** Show the guess beside the measurement: "within 25 % of it", or how many times the guess. */
export function reveal(p: Prediction, actual: number | string): void {
  markdown(revealText(p, actual));
}
