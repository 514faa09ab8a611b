import { plural } from "../core/format";
import { outcomeProblems } from "../load/outcome";
import type { Outcome } from "../load/types";

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

  /** Every load answered without errors or timeouts, and with 2xx (or an allowed status) only. */
  clean(loads: Iterable<Outcome & { label: string }>, allowed: number[] = []): this {
    let n = 0;
    for (const l of loads) {
      n++;
      const found = outcomeProblems(l, new Set(allowed));
      if (found.length) this.failed.push(`${l.label}: ${found.join("; ")}`);
    }
    this.passed.push(`${plural(n, "load")} answered without errors, timeouts or unexpected statuses`);
    return this;
  }

  /** Print every requirement; throw, naming the failed ones, when any failed. */
  done(): void {
    const lines = [...this.passed.map((p) => `ok      ${p}`), ...this.failed.map((f) => `FAILED  ${f}`)];
    console.log(lines.join("\n"));
    if (this.failed.length) throw new Error(`${this.failed.length} check(s) failed:\n${this.failed.join("\n")}`);
  }
}

export function checklist(): Checklist {
  return new Checklist();
}
