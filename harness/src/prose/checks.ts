import { fmt, plural, times } from "../core/format";
import { notMeasured } from "../core/readings";
import type { Spread } from "../core/stats";
import { outcomeProblems } from "../load/outcome";
import type { Outcome } from "../load/types";
import { ratioText } from "./describe";

/**
 * The last cell of a notebook: what must hold of any run, checked in one place. Each requirement is
 * one sentence that says what was required and what was measured, printed as "ok" or "FAILED";
 * done() throws when any failed, so CI fails with the whole list. A check whose figure this platform
 * cannot measure (a null reading: core/readings.ts) is "skipped", with the reason: neither passed nor
 * failed, and counted in the summary line done() prints last.
 */
export class Checklist {
  readonly passed: string[] = [];
  readonly failed: string[] = [];
  /** "what: skipped: not measured on this platform (why)", one per skipped check. */
  readonly skipped: string[] = [];

  /** One requirement: `ok`, and the sentence for it (the threshold and the measured value). `ok` null: skipped, not measured. */
  expect(ok: boolean | null, what: string): this {
    if (ok === null) return this.skip(what);
    (ok ? this.passed : this.failed).push(what);
    return this;
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
   * rounds, ...), at least 1.2x". `measured` OPTIONAL: the spread the threshold was set from, printed
   * beside it ("at least 1.2x; set from 1.27-1.62x measured"). A null value (not measured on this
   * platform) is skipped; NaN (measured, but no figure came out) fails.
   */
  atLeast(what: string, value: number | Spread | null, limit: number, measured?: string): this {
    if (value === null) return this.skip(what);
    const v = typeof value === "number" ? value : value.median;
    const shown = typeof value === "number" ? times(value) : ratioText(value);
    return this.expect(v >= limit, `${what}: ${shown}, at least ${limit}x${setFrom(measured)}`);
  }

  /** A figure below `limit`, in `unit`: "what: 25.0 ms, below 50 ms"; `measured` and a null value as for atLeast. */
  below(what: string, value: number | null, limit: number, unit = "", measured?: string): this {
    if (value === null) return this.skip(what);
    const u = unit ? ` ${unit}` : "";
    return this.expect(value < limit, `${what}: ${fmt(value)}${u}, below ${fmt(limit)}${u}${setFrom(measured)}`);
  }

  /** Every load answered without errors or timeouts, and with 2xx (or an allowed status) only; no loads at all fails. */
  clean(loads: Iterable<Outcome & { label: string }>, allowed: number[] = []): this {
    const all = [...loads];
    if (!all.length) return this.expect(false, "loads answered cleanly: no load was given to check");
    const bad = all.flatMap((l) => {
      const found = outcomeProblems(l, new Set(allowed));
      return found.length ? [`${l.label}: ${found.join("; ")}`] : [];
    });
    if (bad.length) this.failed.push(...bad);
    else this.passed.push(`${plural(all.length, "load")} answered without errors, timeouts or unexpected statuses`);
    return this;
  }

  /** Print every requirement, then the counts ("12 ok, 2 skipped, 0 failed"); throw, naming the failed ones, when any failed. */
  done(): void {
    const lines = [
      ...this.passed.map((p) => `ok      ${p}`),
      ...this.skipped.map((s) => `skipped ${s}`),
      ...this.failed.map((f) => `FAILED  ${f}`),
      `${this.passed.length} ok, ${this.skipped.length} skipped, ${this.failed.length} failed`,
    ];
    console.log(lines.join("\n"));
    if (this.failed.length) throw new Error(`${this.failed.length} check(s) failed:\n${this.failed.join("\n")}`);
  }
}

/** "; set from 1.27-1.62x measured" after a threshold, or nothing. */
const setFrom = (measured?: string) => (measured ? `; set from ${measured} measured` : "");

export function checklist(): Checklist {
  return new Checklist();
}
