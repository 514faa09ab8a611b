import { running } from "../apps/lifecycle";
import { fmt, pctChange, plural, rangeText, times } from "../core/format";
import { notMeasured } from "../core/readings";
import { saveResults } from "../core/results";
import { type MeasuredSpread, measuredSpread, spreadMachine, spreadProfile } from "../core/spreads";
import { predictionRange, type Spread } from "../core/stats";
import { outcomeProblems } from "../load/outcome";
import type { Outcome } from "../load/types";
import { ratioText } from "./describe";

/** One requirement as the checks cell judged it: what make spreads collects from every run. */
export interface CheckRecord {
  name: string;
  kind: "expect" | "atLeast" | "below" | "clean";
  /** The figure compared (the median of a Spread); null for a plain expectation or one that could not be measured. */
  value: number | null;
  limit: number | null;
  unit: string;
  passed: boolean;
}

/**
 * The last cell of a notebook: what must hold of any run, checked in one place. Each requirement is
 * one sentence that says what was required and what was measured, printed as "ok" or "FAILED";
 * done() throws when any failed, so CI fails with the whole list. Given the notebook's name, a figure
 * checked against a threshold is printed with the spread the threshold was set from (core/spreads.ts:
 * the values repeated runs of the notebook measured, in this profile), and marked when this run falls
 * outside what those runs predict; done() then keeps every check's figure in
 * results/<notebook>.checks.json for make spreads.
 * A check whose figure this platform cannot measure (a null reading: core/readings.ts) is "skipped",
 * with the reason: neither passed nor failed, and counted in the summary line done() prints last.
 */
export class Checklist {
  readonly passed: string[] = [];
  readonly failed: string[] = [];
  readonly records: CheckRecord[] = [];
  /** "what: skipped: not measured on this platform (why)", one per skipped check. */
  readonly skipped: string[] = [];

  constructor(readonly notebook: string | null = null) {}

  /** One requirement: `ok`, and the sentence for it (what was required and what was measured). `ok` null: skipped, not measured. */
  expect(ok: boolean | null, what: string): this {
    if (ok === null) return this.skip(what);
    return this.add({ name: what, kind: "expect", value: null, limit: null, unit: "", passed: ok }, what);
  }

  /**
   * A check that cannot be measured here: skipped, never passed or failed. `reason` OPTIONAL, default
   * "not measured on this platform (why)", from the readings in force.
   */
  skip(what: string, reason: string = notMeasured()): this {
    this.skipped.push(`${what}: skipped: ${reason}`);
    return this;
  }

  /**
   * A ratio (a number, or a Spread whose median counts) of at least `limit`: "what: 1.52x (median of 5
   * rounds, ...), at least 1.2x". A null value (not measured on this platform) is skipped; NaN (measured,
   * but no figure came out) fails.
   */
  atLeast(what: string, value: number | Spread | null, limit: number): this {
    if (value === null) return this.skip(what);
    const v = typeof value === "number" ? value : value.median;
    const shown = typeof value === "number" ? times(value) : ratioText(value);
    const record: CheckRecord = { name: what, kind: "atLeast", value: v, limit, unit: "x", passed: v >= limit };
    return this.add(record, `${what}: ${shown}, at least ${limit}x${this.spreadNote(record)}`);
  }

  /** A figure below `limit`, in `unit`: "what: 25.0 ms, below 50 ms"; a null value as for atLeast. */
  below(what: string, value: number | null, limit: number, unit = ""): this {
    if (value === null) return this.skip(what);
    const u = unit ? ` ${unit}` : "";
    const record: CheckRecord = { name: what, kind: "below", value, limit, unit, passed: value < limit };
    return this.add(record, `${what}: ${fmt(value)}${u}, below ${fmt(limit)}${u}${this.spreadNote(record)}`);
  }

  /** Every load answered without errors or timeouts, and with 2xx (or an allowed status) only; no loads at all fails. */
  clean(loads: Iterable<Outcome & { label: string }>, allowed: number[] = []): this {
    const all = [...loads];
    if (!all.length) return this.expect(false, "loads answered cleanly: no load was given to check");
    const bad = all.flatMap((l) => {
      const found = outcomeProblems(l, new Set(allowed));
      return found.length ? [`${l.label}: ${found.join("; ")}`] : [];
    });
    const name = `${plural(all.length, "load")} answered without errors, timeouts or unexpected statuses`;
    this.records.push({ name, kind: "clean", value: null, limit: null, unit: "", passed: bad.length === 0 });
    if (bad.length) this.failed.push(...bad);
    else this.passed.push(name);
    return this;
  }

  /**
   * Every app and profiler the harness started has stopped: what a notebook's checks cell asks last, so
   * that nothing it started outlives it. Fails with how many still run.
   */
  allStopped(): this {
    const left = running().length;
    return this.expect(left === 0, `every app the notebook started has stopped (${left} still running)`);
  }

  /**
   * Print every requirement, then the counts ("12 ok, 2 skipped, 0 failed"); keep the figures
   * (results/<notebook>.checks.json); throw, naming the failed ones, when any failed.
   */
  done(): void {
    const lines = [
      ...this.passed.map((p) => `ok      ${p}`),
      ...this.skipped.map((s) => `skipped ${s}`),
      ...this.failed.map((f) => `FAILED  ${f}`),
      `${this.passed.length} ok, ${this.skipped.length} skipped, ${this.failed.length} failed`,
    ];
    console.log(lines.join("\n"));
    if (this.notebook)
      saveResults(`${this.notebook}.checks`, {
        profile: spreadProfile(),
        machine: spreadMachine(),
        checks: this.records,
      });
    if (this.failed.length) throw new Error(`${this.failed.length} check(s) failed:\n${this.failed.join("\n")}`);
  }

  private add(record: CheckRecord, line: string): this {
    this.records.push(record);
    (record.passed ? this.passed : this.failed).push(line);
    return this;
  }

  /**
   * "; measured 1.27x–1.62x in 10 quick runs (6 quiet, 4 busy)", and what this run's value was against it.
   * Beyond the range of n runs is no surprise (the next run does that 2 times in n + 1): from
   * PREDICT_MIN_VALUES runs on, "outside the measured spread" means beyond the 99 % prediction those runs
   * make (core/stats.ts predictionRange), and a run beyond the range but inside the prediction says so;
   * beyond fewer runs, a run says they are too few to predict from. A run beyond the range says what was
   * unusual: by how much, on which side (further from the line than any run measured, or nearer it), and
   * whether the spread was measured on another machine or with another line.
   */
  private spreadNote(r: CheckRecord): string {
    if (!this.notebook) return "";
    const profile = spreadProfile();
    const s = measuredSpread(this.notebook, r.name, profile);
    if (!s || s.quiet.length + s.busy.length === 0)
      return `; no measured spread for ${keyText(profile)} runs yet (make spreads)`;
    // Amounts as factors ("by 1.6x") where every figure is above 0, else as differences; a factor
    // under 1.1x as a percentage (core/format.ts pctChange: "by 0.24 %"), which "1.00x" would hide.
    const factors = [...s.quiet, ...s.busy, r.value ?? 1].every((v) => v > 0);
    const show = (v: number) => (r.unit === "x" ? times(v) : `${fmt(v)}${r.unit ? ` ${r.unit}` : ""}`);
    const factor = (f: number) => (f < 1.1 ? pctChange(f) : times(f));
    const by = (far: number, near: number) => (factors ? factor(far / near) : show(far - near));
    const text = spreadText(s, profile, show);
    const [lo, hi] = range(s);
    const n = s.quiet.length + s.busy.length;
    // Outside as printed: a value that reads the same as an end ("1.15x" beside "1.00x–1.15x") is inside it.
    const v = r.value;
    const beyond = (v: number, lo: number, hi: number): "above" | "below" | null => {
      if (v > hi && show(v) !== show(hi)) return "above";
      return v < lo && show(v) !== show(lo) ? "below" : null;
    };
    const unusual = [
      ...(s.machine && s.machine !== spreadMachine()
        ? [`the spread was measured on ${s.machine}, not this machine`]
        : []),
      ...(s.limit !== undefined && s.limit !== null && s.limit !== r.limit
        ? [`the spread was measured when the line was ${show(s.limit)}`]
        : []),
    ];
    const side = v === null ? null : beyond(v, lo, hi);
    if (v === null || side === null) return `; measured ${text}${unusual.length ? ` (${unusual.join("; ")})` : ""}`;
    const predicted = predictionRange([...s.quiet, ...s.busy]);
    const predictedText = predicted && rangeText(predicted.low, predicted.high, show);
    if (predicted && beyond(v, predicted.low, predicted.high) === null)
      return (
        `; measured ${text}; this run is ${side} all ${n}, inside the ${predictedText} they predict for 99 runs in 100` +
        (unusual.length ? ` (${unusual.join("; ")})` : "")
      );
    // atLeast's line is below its values, below's above them: which side is further from it
    const safe = (r.kind === "atLeast") === (side === "above");
    const line = `${safe ? "further from its line than any" : "nearer its line than any"} run measured`;
    if (!predicted) {
      // Too few runs for a prediction: beyond their range is no sign that anything is wrong.
      const runs = n === 1 ? "the one run" : `all ${n} runs`;
      const far = side === "above" ? by(v, hi) : by(lo, v);
      const few = [line, "too few runs to predict from (make spreads)", ...unusual];
      return `; measured ${text}; this run is ${side} ${runs}, by ${far}: ${few.join("; ")}`;
    }
    const far = side === "above" ? by(v, predicted.high) : by(predicted.low, v);
    const where = `${side} the ${predictedText} those ${n} runs predict for 99 runs in 100, by ${far}`;
    return `; measured ${text}: this run is outside the measured spread, ${[`${where}: ${line}`, ...unusual].join("; ")}`;
  }
}

/** The lowest and the highest value measured, quiet and busy. */
function range(s: MeasuredSpread): [number, number] {
  const all = [...s.quiet, ...s.busy];
  return [Math.min(...all), Math.max(...all)];
}

/** A spread's key as prose: "quick-unpinned" → "quick unpinned". */
const keyText = (key: string) => key.replace("-", " ");

/** "1.27x–1.62x in 10 quick runs (6 quiet, 4 busy)"; "2.5x in one quick unpinned run (quiet)". */
export function spreadText(s: MeasuredSpread, key: string, show: (v: number) => string): string {
  const profile = keyText(key);
  const runs = s.quiet.length + s.busy.length;
  const [lo, hi] = range(s);
  const how = `${s.quiet.length} quiet, ${s.busy.length} busy`;
  if (runs === 1) return `${show(lo)} in one ${profile} run (${s.quiet.length ? "quiet" : "busy"})`;
  return `${rangeText(lo, hi, show)} in ${runs} ${profile} runs (${how})`;
}

/**
 * The checks of a notebook (named, to print each threshold's measured spread and keep the figures),
 * or of anything else: what must hold of any run, in one place, each one sentence saying what was
 * required and what was measured. `expect(ok, what)`; `atLeast(what, value, limit)` (a number, or a
 * Spread whose median counts); `below(what, value, limit, unit?)`; `skip(what, reason?)` (printed
 * "skipped ...: not measured on this platform"); `clean(loads, allowed?)` (no errors, timeouts or
 * unexpected statuses; no loads at all fails); `allStopped()` (nothing the harness started still
 * runs). A `null` value (a reading this platform could not take) skips the check; `NaN` (measured, but no figure came out) still fails. `done()` prints every
 * line as ok, skipped or FAILED with the counts, and throws a plain Error naming the failed ones, so
 * CI fails with the whole list. Every method but `done` returns the checklist, so calls chain.
 *
 * @example
 * const checks = wb.checklist();
 * checks.atLeast("fixed over slow, req/s", fixRatio, 30);
 * checks.clean([fixed, ...slow.runs]);
 * checks.done();
 */
export function checklist(notebook?: string): Checklist {
  return new Checklist(notebook ?? null);
}
