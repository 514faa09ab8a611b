import { fmt, plural, times } from "../core/format";
import type { Spread } from "../core/stats";
import { outcomeProblems } from "../load/outcome";
import type { Outcome } from "../load/types";
import { ratioText } from "./describe";

/**
 * The last cell of a notebook: what must hold of any run, checked in one place. Each requirement is
 * one sentence that says what was required and what was measured, printed as "ok" or "FAILED";
 * done() throws when any failed, so CI fails with the whole list.
 */
export class Checklist {
  readonly passed: string[] = [];
  readonly failed: string[] = [];

  /** One requirement: `ok`, and the sentence for it (the threshold and the measured value). */
  expect(ok: boolean, what: string): this {
    (ok ? this.passed : this.failed).push(what);
    return this;
  }

  /**
   * A ratio (a number, or a Spread whose median counts) of at least `limit`: "what: 1.52x (median of 5
   * rounds, ...), at least 1.2x". `measured` OPTIONAL: the spread the threshold was set from, printed
   * beside it ("at least 1.2x; set from 1.27-1.62x measured").
   */
  atLeast(what: string, value: number | Spread, limit: number, measured?: string): this {
    const v = typeof value === "number" ? value : value.median;
    const shown = typeof value === "number" ? times(value) : ratioText(value);
    return this.expect(v >= limit, `${what}: ${shown}, at least ${limit}x${setFrom(measured)}`);
  }

  /** A figure below `limit`, in `unit`: "what: 25.0 ms, below 50 ms"; `measured` as for atLeast. */
  below(what: string, value: number, limit: number, unit = "", measured?: string): this {
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

  /** Print every requirement; throw, naming the failed ones, when any failed. */
  done(): void {
    const lines = [...this.passed.map((p) => `ok      ${p}`), ...this.failed.map((f) => `FAILED  ${f}`)];
    console.log(lines.join("\n"));
    if (this.failed.length) throw new Error(`${this.failed.length} check(s) failed:\n${this.failed.join("\n")}`);
  }
}

/** "; set from 1.27-1.62x measured" after a threshold, or nothing. */
const setFrom = (measured?: string) => (measured ? `; set from ${measured} measured` : "");

export function checklist(): Checklist {
  return new Checklist();
}
