import {
  type GroupGrowth,
  heapGrowth,
  newNodesOf,
  type RetainerStep,
  readHeapSnapshot,
  retainerPath,
} from "./heap-snapshot";

/**
 * Two heap snapshots compared: what grew, and the chain of references that keeps the newest large
 * object of the group that grew most alive. Run as a child process (`node heap-diff.js before after`,
 * one JSON line out) so that the snapshots, hundreds of MB once parsed, never sit in the notebook's kernel.
 */
export interface HeapDiff {
  growth: GroupGrowth[];
  /** The group whose objects were traced (the first in `growth` with new objects held from outside the stack). */
  traced: string | null;
  /** The commonest chain of references among the traced objects sampled, and how many of them it held. */
  path: RetainerStep[];
  held: { by: number; of: number };
}

/** What a chain looks like without the element indices: two objects in one Map share it. */
const signature = (path: RetainerStep[]) =>
  path.map((s) => `${s.holder}|${s.edgeType === "property" || s.edgeType === "context" ? s.edge : ""}`).join(">");

export function diffSnapshots(beforeFile: string, afterFile: string, samples = 24): HeapDiff {
  const before = readHeapSnapshot(beforeFile);
  const after = readHeapSnapshot(afterFile);
  const growth = heapGrowth(before, after);
  for (const g of growth.filter((x) => x.bytes > 0)) {
    const nodes = newNodesOf(after, before, g.name);
    const step = Math.max(1, Math.floor(nodes.length / samples));
    const paths = nodes
      .filter((_, i) => i % step === 0)
      .slice(0, samples)
      .map((n) => retainerPath(after, n))
      .filter((p) => p.length > 0); // none: held by a stack or handle scope only, in use, not kept
    if (paths.length === 0) continue;
    const bySignature = new Map<string, RetainerStep[][]>();
    for (const p of paths) bySignature.set(signature(p), [...(bySignature.get(signature(p)) ?? []), p]);
    const common = [...bySignature.values()].sort((a, b) => b.length - a.length)[0];
    return { growth, traced: g.name, path: common[0], held: { by: common.length, of: paths.length } };
  }
  return { growth, traced: null, path: [], held: { by: 0, of: 0 } };
}

if (require.main === module) {
  const [a, b] = process.argv.slice(2);
  process.stdout.write(`${JSON.stringify(diffSnapshots(a, b))}\n`);
}
