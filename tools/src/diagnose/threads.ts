import { fmt, pct } from "@workbook/harness";
import { plural, type ThreadKind } from "@workbook/harness/internal";
import { type Check, check } from "./checks";
import type { Evidence } from "./evidence";
import type { Thresholds } from "./thresholds";

/**
 * CPU off the main thread. The event loop's utilisation says how busy the main thread was; the
 * process's CPU counts every thread. When the work a request costs runs elsewhere (libuv's pool:
 * async fs, crypto, zlib, dns.lookup; worker threads), the loop has headroom, or reads busy only
 * because its thread waited for a core the others held, while the process uses what its cores
 * give: neither healthy nor waiting. The reading is the share of the process's CPU that went off
 * the main thread, V8's helper threads left out where /proc names them (their work is garbage
 * collection, which GC's own rule reads, and compiling).
 */

export const THREAD_NAMES: Record<ThreadKind, string> = {
  main: "the main thread",
  pool: "libuv's thread pool",
  workers: "worker threads",
  v8: "V8's helper threads (GC, compiling)",
  other: "other threads",
};

/** The share of the process's CPU off its main thread, V8's helpers left out where they are named; null where the main thread's CPU was not read. */
export function offMainShare(e: Evidence): number | null {
  const t = e.threads;
  if (t.byKind) {
    const all = Object.values(t.byKind).reduce((a, b) => a + b, 0);
    return all > 0 ? (t.byKind.pool + t.byKind.workers + t.byKind.other) / all : 0;
  }
  if (t.offMainCpuPercent === null || !(e.cpuPercent > 0)) return null;
  return Math.min(1, t.offMainCpuPercent / e.cpuPercent);
}

export function offMainCheck(e: Evidence, T: Thresholds): Check {
  const what = e.threads.byKind
    ? "share of the app's CPU off its main thread (V8's helpers aside)"
    : "share of the app's CPU off its main thread";
  return check(what, offMainShare(e), ">=", T.OFF_MAIN_SHARE, "share");
}

/** The kind of thread, other than the main one and V8's helpers, that used most CPU; null where /proc does not name them. */
export function busiestThread(e: Evidence): ThreadKind | null {
  const k = e.threads.byKind;
  if (!k) return null;
  return (["pool", "workers", "other"] as const).reduce((a, b) => (k[b] > k[a] ? b : a));
}

/** "the process used 99 % of its 1 core: the main thread 11 %, libuv's thread pool 86 % (4 threads...), V8's helper threads 2 %". */
export function threadsText(e: Evidence): string {
  const t = e.threads;
  const cores = plural(t.cores, "core");
  const head = `the process used ${fmt(e.cpuPercent)} % of a core, on ${cores}`;
  if (!t.byKind) {
    return t.mainCpuPercent === null
      ? `${head} (its threads not told apart here)`
      : `${head}: the main thread ${fmt(t.mainCpuPercent)} %, the other threads ${fmt(t.offMainCpuPercent ?? NaN)} % (this platform does not name them)`;
  }
  const k = t.byKind;
  const parts = (["main", "pool", "workers", "v8", "other"] as const)
    .filter((kind) => kind === "main" || k[kind] >= 1)
    .map((kind) => `${THREAD_NAMES[kind]} ${fmt(k[kind])} %${kind === "pool" ? ` (${poolText(e)})` : ""}`);
  return `${head}: ${parts.join(", ")}`;
}

/** "4 threads; UV_THREADPOOL_SIZE unset: libuv's default". */
function poolText(e: Evidence): string {
  const t = e.threads;
  const size =
    t.poolSizeSet === null ? "UV_THREADPOOL_SIZE unset: libuv's default 4" : `UV_THREADPOOL_SIZE=${t.poolSizeSet}`;
  return t.poolThreads ? `${plural(t.poolThreads, "thread")}; ${size}` : size;
}

/** What the main thread did meanwhile: headroom, or a loop that reads busy while its thread waited for a core. */
export function mainThreadText(e: Evidence, T: Thresholds): string {
  const main = e.threads.mainCpuPercent;
  if (e.elu < T.BUSY_ELU)
    return `the loop has headroom: event-loop utilisation ${pct(e.elu)}${main === null ? "" : `, its thread ran ${fmt(main)} % of a core`}`;
  return main !== null && main / 100 < e.elu * 0.8
    ? `the loop reads ${pct(e.elu)} busy, but its thread ran ${fmt(main)} % of a core: much of that time it waited for a core the other threads held`
    : `the loop reads ${pct(e.elu)} busy`;
}

/** What to do about it, by where the CPU went. */
export function offMainAdvice(e: Evidence): string {
  const t = e.threads;
  const kind = busiestThread(e);
  if (kind === "pool") {
    const n = t.poolSizeSet ?? 4;
    const more =
      t.cores <= n
        ? `its ${plural(n, "thread")} already share the ${plural(t.cores, "core")} the process has: a larger UV_THREADPOOL_SIZE would not help here`
        : `a larger UV_THREADPOOL_SIZE (up to the ${t.cores} cores) runs more jobs at once`;
    return (
      `what to do: the pool runs ${n} jobs at a time and the rest queue; ${more}. ` +
      "Make each job cheaper (fewer iterations, smaller inputs, results cached), or move the work to more cores (another process, a service)"
    );
  }
  if (kind === "workers")
    return "what to do: the worker threads are the bottleneck: make their work cheaper, or give the process more cores; more workers than cores only queue";
  if (kind === "other")
    return "what to do: threads Node does not name (a native addon's?) took the CPU: profile the whole process (perf, `0x`) to see whose";
  return "what to do: find which threads: libuv's pool (async fs, crypto, zlib, dns.lookup), worker threads or V8's helpers (GC); on Linux the diagnosis names them";
}

/** The work handed to another thread, as the main thread's profile shows it: "pbkdf2 (node:internal/crypto/pbkdf2), called from work (srv.js:25)". */
export function handoffText(e: Evidence): string[] {
  const h = e.handoff;
  if (!h) return [];
  const call = `${h.call.name} (${h.call.file})`;
  const by = h.caller ? `, called from ${h.caller.name} (${h.caller.file}:${h.caller.line})` : "";
  return [`handed to ${h.to === "pool" ? "the pool" : "a worker"}: ${call}${by}`];
}
