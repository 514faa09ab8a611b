/** Numbers as prose and tables write them: one formatter per kind of figure. */

/** A number for prose: 12,345 · 123 · 12.3 · 1.23 · 0.0042 · 7 (integers stay whole; below 1, three
 * significant digits at most). Non-finite values as "n/a". */
export function fmt(v: number): string {
  if (!Number.isFinite(v)) return "n/a";
  if (Number.isInteger(v)) return v.toLocaleString("en-US");
  return writtenTwice(byBand, v);
}

/**
 * Rounding can carry a number into the next band (999.6 to "1000", 9.996 to "10.00"): the rounded
 * number is written again by its own band's rule, so that it reads "1,000" and "10.0" as its neighbours do.
 */
function writtenTwice(write: (v: number) => string, v: number): string {
  return write(Number(write(v).replaceAll(",", "")));
}

function byBand(v: number): string {
  const a = Math.abs(v);
  if (a >= 1000) return Math.round(v).toLocaleString("en-US");
  if (a >= 100) return v.toFixed(0);
  if (a >= 10) return v.toFixed(1);
  if (a >= 1) return v.toFixed(2);
  // Below 1: up to three significant digits, trailing zeros dropped (0.5, 0.0042, 0.123).
  return v.toLocaleString("en-US", { maximumSignificantDigits: 3 });
}

/** A share (0..1) as a percentage: pct(0.123) = "12 %", pct(0.123, 1) = "12.3 %"; "n/a" when not finite. */
export function pct(share: number, digits = 0): string {
  return Number.isFinite(share) ? `${(share * 100).toFixed(digits)} %` : "n/a";
}

/** A ratio as "1.52x", "15.2x", "152x" (two decimals below 10, one below 100, none above); "n/a" when not finite. */
export function times(ratio: number): string {
  if (!Number.isFinite(ratio)) return "n/a";
  const once = (r: number) => {
    const a = Math.abs(r);
    return a >= 100 ? Math.round(r).toLocaleString("en-US") : r.toFixed(a >= 10 ? 1 : 2);
  };
  return `${writtenTwice(once, ratio)}x`; // 9.996: "10.0x", not "10.00x"
}

/**
 * How far a ratio is from 1x, as a percentage: two significant digits under 10 % ("0.24 %", "4.1 %",
 * "2.0 %"), whole above ("14 %", "1,204 %"). The words of a change too small to read as a factor.
 */
export function pctChange(ratio: number): string {
  const change = Math.abs(ratio - 1) * 100;
  const two = { minimumSignificantDigits: 2, maximumSignificantDigits: 2 };
  return `${change < 10 ? change.toLocaleString("en-US", two) : fmt(Math.round(change))} %`;
}

/** "1 run", "3 runs". */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/**
 * "57,630–65,270": a range as `show` writes its ends; where both ends would read the same ("144–144"),
 * with as many more significant digits as tell them apart ("143.8–144.2"), and "each 144" where they
 * are equal.
 */
export function rangeText(low: number, high: number, show: (v: number) => string = fmt): string {
  if (show(low) !== show(high)) return `${show(low)}–${show(high)}`;
  const suffix = show(low).replace(/^-?[\d,.]+/, ""); // "x" of a ratio
  const digits = (v: number, d: number) =>
    `${Number(v.toPrecision(d)).toLocaleString("en-US", { maximumFractionDigits: 20 })}${suffix}`;
  for (let d = 4; d <= 8 && low !== high; d++) {
    if (digits(low, d) !== digits(high, d)) return `${digits(low, d)}–${digits(high, d)}`;
  }
  return `each ${show(low)}`;
}
