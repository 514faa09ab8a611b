import type { FlameData } from "../charts/flame-chart";

/**
 * From a micro-gain to a request-level one (Amdahl's law): if code that took a share s of a request's
 * CPU time runs g times faster, the request takes (1 - s) + s / g of its time, and serves
 * 1 / ((1 - s) + s / g) times the requests. Several parts: subtract each one's saving.
 */

/** One part of a request that was made faster: its share of the request's CPU time (0-1) and its micro-gain. */
export interface GainPart {
  what: string;
  share: number;
  gain: number;
}

/** The most the parts could give if they took no time at all: 1 / (1 - sum of shares). */
export function gainCeiling(parts: readonly GainPart[]): number {
  return 1 / (1 - parts.reduce((sum, p) => sum + p.share, 0));
}

/**
 * The share of the busy CPU spent in one function of the app's own code in a CPU profile, everything
 * it called included (its inclusive share: V8 books builtins such as JSON.stringify to their caller,
 * and a replacer or a helper it calls counts too): what the function would save if it took no time.
 * 0 when the function is not in the profile. `file` is the end of its path, e.g. "lib/shop-work.js".
 */
export function frameShare(flame: FlameData, ref: { name: string; file?: string }): number {
  return flame.hot
    .filter((h) => h.category === "user" && h.name === ref.name && (!ref.file || h.file.endsWith(ref.file)))
    .reduce((sum, h) => sum + h.totalShare, 0);
}
