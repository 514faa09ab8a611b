import { fmt, pct, times } from "@workbook/harness";
import type { BusyTime } from "./busy";
import { FRAMEWORKS } from "./callers";
import { BUSY_KINDS, BUSY_NAMES, type BusyKind } from "./kinds";
import { BARE_SHARES, type FrameworkSeen, type Reference, type References } from "./reference";

/**
 * The yardstick: what a request of the app costs against what a request costs a server that only
 * answers, measured beside it (reference.ts). The verdict reads the ratio (the app's CPU per request
 * over its framework's reference, or the bare node:http answer's where no framework is known), and
 * splits the app's cost by kind and by package (busy.ts) against the reference's: what the
 * framework's own hello route spends in its own code and in each package it calls is its handling;
 * only what the app spends beyond it is a finding.
 */
export interface Yardstick {
  /** The app's CPU per request, ms; null where it could not be read. */
  appMs: number | null;
  bare: Reference | null;
  framework: Reference | null;
  /** The web framework the app's profile showed, whether the workbook has a reference of it or not. */
  seen: FrameworkSeen | null;
  /** A reference that could not be measured, one sentence each. */
  notes: string[];
  /** The reference the verdict reads: the framework's where it was measured, else the bare answer's; null: neither was read. */
  against: "framework" | "bare" | null;
  /** The app's CPU per request over that reference's; null when either was not read. */
  ratio: number | null;
  /** CPU per request, ms, by kind: the app's beyond the reference's (none below 0). */
  excessMs: Record<BusyKind, number>;
  /** CPU per request, ms, by package (the dependency and framework kinds): the app's beyond what the reference spends in that package. */
  excessByPackageMs: Record<string, number>;
}

/** The busy time of a reference: its profile's, or for the bare answer all Node's handling. */
const referenceBusy = (r: Reference): Pick<BusyTime, "shares" | "packages"> => ({
  shares:
    r.busy?.shares ?? (Object.fromEntries(BUSY_KINDS.map((k) => [k, BARE_SHARES[k] ?? 0])) as Record<BusyKind, number>),
  packages: r.busy?.packages ?? {},
});

/** The yardstick of one diagnosis: the app's busy time (shares with GC's from the pauses, packages on the same scale) and CPU per request, and its references. */
export function yardstick(
  app: Pick<BusyTime, "shares" | "packages">,
  appMs: number | null,
  refs: References,
): Yardstick {
  // the framework's where it was read, else the bare answer's
  const against = (["framework", "bare"] as const).find((k) => refs[k]?.cpuPerRequestMs) ?? null;
  const ref = against ? refs[against] : null;
  const refMs = ref?.cpuPerRequestMs ?? null;
  const excessMs = Object.fromEntries(BUSY_KINDS.map((k) => [k, 0])) as Record<BusyKind, number>;
  const excessByPackageMs: Record<string, number> = {};
  if (appMs !== null && ref !== null && refMs !== null) {
    const r = referenceBusy(ref);
    for (const k of BUSY_KINDS)
      if (k !== "dependency" && k !== "framework")
        excessMs[k] = Math.max(0, app.shares[k] * appMs - r.shares[k] * refMs);
    for (const [p, share] of Object.entries(app.packages)) {
      const over = Math.max(0, share * appMs - (r.packages[p] ?? 0) * refMs);
      excessByPackageMs[p] = over;
      excessMs[FRAMEWORKS.has(p) ? "framework" : "dependency"] += over;
    }
  }
  return {
    appMs,
    bare: refs.bare,
    framework: refs.framework,
    seen: refs.seen,
    notes: refs.notes,
    against,
    ratio: appMs !== null && refMs ? appMs / refMs : null,
    excessMs,
    excessByPackageMs,
  };
}

/** The excess of each kind as a share of the app's CPU per request (0 where it was not read): what BLOCKING_SHARE reads with a yardstick. */
export function excessShares(y: Yardstick): Record<BusyKind, number> {
  const of = (k: BusyKind) => (y.appMs ? y.excessMs[k] / y.appMs : 0);
  return Object.fromEntries(BUSY_KINDS.map((k) => [k, of(k)])) as Record<BusyKind, number>;
}

/** The package whose code cost the app most beyond the reference, among those of `kind` (dependency: not a framework's). */
export function costliestPackage(y: Yardstick, kind: "dependency" | "framework"): string | null {
  const of = Object.entries(y.excessByPackageMs).filter(([p]) => FRAMEWORKS.has(p) === (kind === "framework"));
  const top = of.sort((a, b) => b[1] - a[1])[0];
  return top && top[1] > 0 ? top[0] : null;
}

const ms = (v: number | null) => (v === null ? "not read" : `${fmt(v)} ms`);
const refName = (r: Reference) =>
  r.name === "node-http" ? "a bare node:http answer" : `${r.title} ${r.version}'s hello route`;

/**
 * The app's cost beside its references, one sentence: "0.521 ms of CPU a request: 8.5x Express
 * 5.3.0's hello route (0.0613 ms) and 21x a bare node:http answer (0.0245 ms), each measured beside
 * it, on the same core under the same load".
 */
export function costText(y: Yardstick): string {
  if (y.appMs === null)
    return "CPU per request: not read here (this platform cannot read a process's CPU time): no yardstick";
  const beside = [y.framework, y.bare]
    .filter((r): r is Reference => r !== null)
    .map((r) =>
      r.cpuPerRequestMs
        ? `${times(y.appMs! / r.cpuPerRequestMs)} ${refName(r)} (${ms(r.cpuPerRequestMs)})`
        : `${refName(r)}: not read`,
    );
  if (!beside.length) return `${ms(y.appMs)} of CPU a request; no reference was measured`;
  return `${ms(y.appMs)} of CPU a request: ${beside.join(" and ")}, each measured beside it, on the same core under the same load`;
}

/**
 * What the yardstick says of its references, when it matters: a framework the workbook has no
 * reference of, another version than the reference's, a reference that could not be measured.
 */
export function frameworkNote(y: Yardstick): string[] {
  const s = y.seen;
  const f = y.framework;
  const none =
    s && !s.reference
      ? [
          `the app runs on ${s.package}, which the workbook has no reference of (apps/frameworks/): judged against the bare node:http answer`,
        ]
      : [];
  const version =
    s && f && s.version && s.version !== f.version
      ? [`the app runs ${s.package} ${s.version}; the reference ran ${f.version}, the workbook's`]
      : [];
  return [...none, ...version, ...(y.notes ?? [])];
}

/** The reference a verdict reads, for its check: "Express 5.3.0's hello route", "a bare node:http answer". */
export function refWord(y: Yardstick | null): string {
  const r = y?.against ? y[y.against] : null;
  return r ? refName(r) : "the reference";
}

/**
 * Where the CPU per request went beyond the reference, largest first (kinds of at least 1 % of it):
 * "a dependency's code 0.41 ms (record-store 0.4 ms), the app's own code 0.02 ms".
 */
export function excessText(y: Yardstick): string {
  const total = y.appMs ?? 0;
  const kinds = BUSY_KINDS.filter((k) => total > 0 && y.excessMs[k] >= 0.01 * total).sort(
    (a, b) => y.excessMs[b] - y.excessMs[a],
  );
  const packagesOf = (k: BusyKind) =>
    Object.entries(y.excessByPackageMs)
      .filter(([p, v]) => FRAMEWORKS.has(p) === (k === "framework") && v >= 0.01 * total)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 2)
      .map(([p, v]) => `${p} ${ms(v)}`);
  const text = kinds.map((k) => {
    const named = k === "dependency" || k === "framework" ? packagesOf(k) : [];
    return `${BUSY_NAMES[k]} ${ms(y.excessMs[k])}${named.length ? ` (${named.join(", ")})` : ""}`;
  });
  const over = y.ratio !== null ? `, ${pct(Math.max(0, 1 - 1 / y.ratio))} of its cost` : "";
  return text.length ? `${text.join(", ")}${over}` : "nothing beyond 1 % of its cost";
}
