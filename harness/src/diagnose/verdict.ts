import { fmt } from "../core/format";
import { type Check, check, checkText, frameText, top } from "./checks";
import type { Evidence } from "./evidence";
import { THRESHOLDS as T } from "./thresholds";

/**
 * The rules: each finding is a few checks of the evidence against named thresholds (thresholds.ts
 * says what each was measured against). The first finding that fires, in the order below, is the
 * verdict; any other that fires, or a reading within NEAR of its line, makes the evidence mixed,
 * and the verdict says so.
 */
export type VerdictId = "memory-climbing" | "sync-io" | "gc-pressure" | "blocked" | "waiting" | "healthy";

export interface Finding {
  id: VerdictId;
  title: string;
  fired: boolean;
  checks: Check[];
  /** Where: the hottest frames, the allocation sites, the growth. */
  details: string[];
}

export interface Verdict {
  id: VerdictId;
  title: string;
  /** Every finding, in the order they are tried. */
  findings: Finding[];
  /** The other findings that fired. */
  also: Finding[];
  mixed: boolean;
  /** Why the evidence is mixed, one sentence each. */
  mixedBecause: string[];
  /** The verdict as printed: the title, each number against its threshold, the details. */
  lines: string[];
}

function findings(e: Evidence): Finding[] {
  const busy = [
    check("event-loop utilisation", e.elu, ">=", T.BLOCKED_ELU, "share"),
    check("typical stall", e.stallMs, ">=", T.BLOCKED_STALL_MS, "ms"),
  ];
  const hottest = top(e.hot).map((h) => `hot: ${frameText(h)}`);
  const line = e.hottestLine
    ? [`hottest line: ${e.hottestLine.file}:${e.hottestLine.line} \`${e.hottestLine.text ?? ""}\``]
    : [];
  const sites = top(e.allocationSites).map((h) => `allocated at: ${frameText(h, "of sampled bytes")}`);
  const syncFrames = e.flame.hot
    .filter((h) => /Sync$/.test(h.name) && h.category === "node")
    .sort((a, b) => b.totalShare - a.totalShare)
    .slice(0, 1)
    .map((h) => `under ${frameText(h, "of busy CPU", h.totalShare)}`);
  const caller = e.flame.hottestUser ? [`called from ${frameText(e.flame.hottestUser)}`] : [];
  const gcKinds = Object.entries(e.gcByKind)
    .sort((a, b) => b[1] - a[1])
    .map(([k, ms]) => `${k} ${fmt(ms)} ms`)
    .join(", ");
  const all: Omit<Finding, "fired">[] = [
    {
      id: "memory-climbing",
      title: "memory climbing",
      checks: [
        check("heap slope", e.heap.slopeMBps, ">=", T.HEAP_SLOPE_MB_S, "MB/s"),
        check("growth of the heap kept after a full GC", e.heap.keptMBps, ">=", T.HEAP_KEPT_MB_S, "MB/s"),
      ],
      details: [
        `heapUsed ${fmt(e.heap.startMB)} → ${fmt(e.heap.endMB)} MB (R² of the slope ${fmt(e.heap.r2)}), kept after a full GC ${fmt(e.heap.keptStartMB)} → ${fmt(e.heap.keptEndMB)} MB, RSS ${fmt(e.rss.startMB)} → ${fmt(e.rss.endMB)} MB over ${fmt(e.seconds)} s`,
        ...sites,
      ],
    },
    {
      id: "sync-io",
      title: "loop blocked by synchronous I/O",
      checks: [...busy, check("busy CPU under a synchronous I/O call", e.syncIoShare, ">=", T.SYNC_IO_SHARE, "share")],
      details: [...syncFrames, ...caller],
    },
    {
      id: "gc-pressure",
      title: "GC pressure",
      checks: [check("GC pauses, share of wall time", e.gcShare, ">=", T.GC_SHARE, "share")],
      details: [`${fmt(e.gcCount)} collections (${gcKinds}); ${fmt(e.allocMBps ?? NaN)} MB/s allocated`, ...sites],
    },
    {
      id: "blocked",
      title: "loop blocked by synchronous work",
      checks: busy,
      details: [...hottest, ...line],
    },
    {
      id: "waiting",
      title: "waiting on I/O or timers",
      checks: [
        check("event-loop utilisation", e.elu, "<=", T.WAITING_ELU, "share"),
        check("latency p50 over CPU per request", e.latencyOverCpu, ">=", T.WAITING_LATENCY_OVER_CPU, "x"),
      ],
      details: [
        `a request took ${fmt(e.latencyP50Ms)} ms at p50 for ${fmt(e.cpuPerRequestMs ?? NaN)} ms of CPU; the app used ${fmt(e.cpuPercent)} % of a core`,
      ],
    },
  ];
  return all.map((f) => ({ ...f, fired: f.checks.every((c) => c.holds) }));
}

/** For a healthy verdict, each rule with the checks that kept it from firing (each check once, blocking first). */
function healthyLines(list: Finding[]): string[] {
  const seen = new Set<string>();
  const order: VerdictId[] = ["blocked", "sync-io", "waiting", "gc-pressure", "memory-climbing"];
  return order.map((id) => {
    const f = list.find((g) => g.id === id)!;
    const fresh = f.checks.map(checkText).filter((t) => !seen.has(t));
    for (const t of fresh) seen.add(t);
    return `not ${f.title}: ${fresh.join(", ")}`;
  });
}

export function decide(e: Evidence): Verdict {
  const list = findings(e);
  const fired = list.filter((f) => f.fired);
  // Synchronous I/O is a kind of blocking: when it fires, "blocked" adds nothing.
  const distinct = fired.filter((f) => !(f.id === "blocked" && fired.some((g) => g.id === "sync-io")));
  const primary = distinct[0] ?? null;
  const also = distinct.slice(1);
  const mixedBecause = [
    ...also.map((f) => `${f.title} holds too`),
    ...(primary?.checks.filter((c) => c.near).map((c) => `close to the line: ${checkText(c)}`) ?? []),
    ...list
      .filter((f) => !f.fired && f.checks.every((c) => c.holds || c.near))
      .map(
        (f) =>
          `nearly ${f.title}: ${f.checks
            .filter((c) => !c.holds)
            .map(checkText)
            .join(", ")}`,
      ),
  ];
  const mixed = mixedBecause.length > 0;
  const title = primary?.title ?? "healthy";
  const head = `verdict: ${title}${mixed ? " (mixed evidence)" : ""}`;
  const body = primary ? [...primary.checks.map(checkText), ...primary.details] : healthyLines(list);
  const lines = [
    head,
    ...body.map((l) => `  ${l}`),
    ...also.flatMap((f) => [`also: ${f.title}`, ...[...f.checks.map(checkText), ...f.details].map((l) => `  ${l}`)]),
    ...(mixed ? [`mixed evidence: ${mixedBecause.join("; ")}`] : []),
  ];
  return { id: primary?.id ?? "healthy", title, findings: list, also, mixed, mixedBecause, lines };
}

/** The verdict as Markdown for a notebook: the title in bold, its lines as a list, what else holds nested under it. */
export function verdictMarkdown(v: Verdict): string {
  const [head, ...rest] = v.lines;
  let nested = false;
  const item = (l: string) => {
    if (l.startsWith("also: ")) nested = true;
    if (l.startsWith("mixed evidence: ")) return `* _${l}_`;
    if (!l.startsWith("  ")) return `* **${l}**`;
    return `${nested ? "  " : ""}* ${l.trim()}`;
  };
  return [`**${head.replace(/^verdict: /, "Verdict: ")}**`, "", ...rest.map(item)].join("\n");
}
