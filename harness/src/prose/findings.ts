/** A finding whose wording depends on the run, printed by notebook 04 and exercise 05 (tests/unit/prose.test.js). */

/**
 * A retainer path (profiles/heap-snapshot.ts) in words: the chain from a GC root, and the variable
 * that holds the growing objects, found as the last reference from a closure's context (where a
 * module-level `const` of a CommonJS module lives) to a collection.
 */
export function retainerText(path: readonly { holder: string; edge: string; edgeType: string }[]): string {
  if (path.length === 0) return "Nothing reached the object from a GC root: it was garbage, waiting for a collection.";
  const link = (s: { holder: string; edge: string; edgeType: string }) =>
    s.edgeType === "element" || s.edgeType === "internal" ? `${s.holder} ${s.edge}` : `${s.holder}.${s.edge}`;
  const chain = path.map((s) => `\`${link(s)}\``).join(" → ");
  const k = path.map((s) => s.edgeType).lastIndexOf("context");
  if (k < 0) return `The chain of references from a GC root: ${chain}.`;
  const container = path[k + 1]?.holder ?? "an object";
  return (
    `The chain of references from a GC root: ${chain}. The growing objects hang off **\`${path[k].edge}\`**, ` +
    `a **${container}** held by a variable of a closure's scope (in a CommonJS module, a module-level variable lives there): ` +
    "as long as the module's functions are alive, so is everything in it."
  );
}
