import { WorkbookError } from "./errors";

/**
 * The order in which several targets take their turns, round after round. Measuring them in turns
 * and changing the order every round spreads a burst of other activity on the machine over several
 * targets' runs instead of every run of one. Every function that measures in rounds uses this.
 *   - "rotate": round r starts with target r (A B C, B C A, C A B, ...);
 *   - "alternate": every other round runs backwards (A B, B A, A B, ...): for pairs, the same as rotate.
 */
export type RoundOrder = "rotate" | "alternate";

export function roundOrder<T>(items: readonly T[], round: number, how: RoundOrder = "rotate"): T[] {
  if (items.length === 0) return [];
  if (how === "alternate") return round % 2 ? [...items].reverse() : [...items];
  const k = ((round % items.length) + items.length) % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
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
