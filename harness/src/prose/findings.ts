import { fmt, plural } from "../core/format";
import type { DoctorResult } from "../profiles/clinic";
import { doctorSampling } from "../profiles/doctor";

/** Findings of the lessons whose wording depends on the run: each a small function, tested in tests/unit/prose.test.js. */

/**
 * clinic doctor's verdict and how densely it sampled under load: its timer is a callback on the app's
 * own event loop, so a blocked loop starves it of samples, which is itself the finding.
 */
export function doctorText(d: DoctorResult): string {
  const issues = Object.entries(d.data.analysis.issues ?? {})
    .filter(([, v]) => v === "performance")
    .map(([k]) => k);
  const s = doctorSampling(d.data);
  const verdict = `Doctor's verdict: **${d.data.analysis.issueCategory}**; flagged as a performance issue: **${issues.join(", ") || "nothing"}**.`;
  if (s.underLoad.length < 2) return `${verdict} It took ${s.samples} samples, fewer than two of them under load.`;
  return (
    `${verdict} It asks for a sample every ${s.intervalMs} ms and took **${s.underLoad.length} under load** ` +
    `over ${fmt(s.loadSpanSeconds)} s, where its interval would have given about ${fmt(s.expectedUnderLoad)}: one every ` +
    `**${fmt(s.medianGapMs)} ms** (median gap). Its timer waits on the same blocked loop, so it samples only between long ticks. ` +
    `Active handles: ${s.idleHandles} idle, ${s.peakHandles} at the peak (${s.peakHandles - s.idleHandles} for the load's connections).`
  );
}

/** "3 of 5 rounds" style counts for prose. */
export function countText(k: number, n: number, what: string): string {
  return `${k} of ${plural(n, what)}`;
}

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
