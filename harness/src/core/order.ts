import { WorkbookError } from "./errors";

/**
 * The order in which several targets take their turns, round after round. Measuring them in turns
 * and changing the order every round spreads a burst of other activity on the machine over several
 * targets' runs instead of every run of one. Every function that measures in rounds uses this.
 *   - "rotate": round r starts with target r (A B C, B C A, C A B, ...);
 *   - "alternate": every other round runs backwards (A B, B A, A B, ...): for pairs, the same as rotate
 *     (A B B A A B ...: a drift that is linear over two rounds cancels in every four runs);
 *   - "random": each round in an order shuffled by a generator seeded with the round's number, so a
 *     drift with a period of its own cannot line up with the order, and the same round always gets
 *     the same order (a run can be repeated).
 */
export type RoundOrder = "rotate" | "alternate" | "random";

export function roundOrder<T>(items: readonly T[], round: number, how: RoundOrder = "rotate"): T[] {
  if (items.length === 0) return [];
  if (how === "alternate") return round % 2 ? [...items].reverse() : [...items];
  if (how === "random") return shuffled(items, round);
  const k = ((round % items.length) + items.length) % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/** A Fisher-Yates shuffle driven by a small hash of the round (mulberry32's mixing): deterministic per round. */
function shuffled<T>(items: readonly T[], round: number): T[] {
  let state = (Math.imul(round + 1, 0x9e3779b1) ^ 0x6d2b79f5) >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Throws, naming the first repeated key, unless every key is different. */
export function assertUniqueKeys(fn: string, keys: readonly string[]): void {
  const seen = new Set<string>();
  for (const k of keys) {
    if (seen.has(k))
      throw new WorkbookError("WB_BAD_OPTION", `${fn}: keys must be unique, ${JSON.stringify(k)} appears twice`);
    seen.add(k);
  }
}
