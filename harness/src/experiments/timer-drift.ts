import { performance } from "node:perf_hooks";
import { badOption } from "../core/errors";
import { median } from "../core/stats";

/**
 * In-process experiments about the event loop. They run in the calling process (the notebook's
 * kernel), on purpose: what they show is what any synchronous code does to its own loop.
 */

export interface TimerDriftOptions {
  /** The timeout each trial schedules, in ms. Default 100. */
  delayMs?: number;
  /** How much synchronous work to do right after scheduling: one trial set per size (e.g. Math.random() calls). */
  loopSizes: number[];
  /** Trials per size; each row holds their medians. Default 5. */
  repeats?: number;
  /** The synchronous work for one size. Default: `size` calls of Math.random(). */
  work?: (size: number) => unknown;
}

export interface TimerDriftRow {
  /** The size passed to `work`. */
  loopSize: number;
  /** The delay asked of setTimeout, in ms. */
  scheduledMs: number;
  /** When the callback actually ran, in ms after setTimeout was called (median of the trials). */
  actualMs: number;
  /** How long the synchronous work kept the loop busy, in ms (median). */
  blockedMs: number;
  /** actualMs - scheduledMs: how late the timer fired (median). */
  lateMs: number;
  /** The fastest and slowest trial's actualMs. */
  actualMinMs: number;
  actualMaxMs: number;
  repeats: number;
}

/** The default work: `size` calls of Math.random(), summed so that nothing can be skipped. */
export function randomCalls(size: number): number {
  let sum = 0;
  for (let i = 0; i < size; i++) sum += Math.random();
  return sum;
}

/** One trial: schedule the timer, do the work at once, wait for the timer. */
function trial(
  delayMs: number,
  size: number,
  work: (size: number) => unknown,
): Promise<{ actualMs: number; blockedMs: number }> {
  return new Promise((resolve) => {
    let blockedMs = 0;
    const t0 = performance.now();
    setTimeout(() => resolve({ actualMs: performance.now() - t0, blockedMs }), delayMs);
    const w0 = performance.now();
    work(size);
    blockedMs = performance.now() - w0;
  });
}

/**
 * The setTimeout + busy-loop experiment of "Keeping Node.js Fast": schedule a timeout of
 * `delayMs`, then keep the thread busy with synchronous work. A timer cannot fire while the
 * loop is blocked, so it runs at about max(delayMs, blockedMs). Rows come in the order of
 * `loopSizes`, each the median of `repeats` trials (default 5), run one after the other, in this
 * process on purpose; before the first, the work runs once untimed at the smallest size (at most
 * 1000) so the JIT has compiled it. `work(size)` is the synchronous work (default: `size` calls of
 * `Math.random()`, summed so that none can be skipped); `delayMs` default 100. Throws a plain Error
 * for an empty `loopSizes`, a negative or non-finite size or `delayMs`, or `repeats` < 1.
 *
 * @example
 * const drift = await wb.timerDrift({ delayMs: 100, loopSizes: [1e5, 1e6, 1e7, 3e7] });
 */
export async function timerDrift(opts: TimerDriftOptions): Promise<TimerDriftRow[]> {
  const delayMs = opts.delayMs ?? 100;
  const repeats = opts.repeats ?? 5;
  const work = opts.work ?? randomCalls;
  if (!Array.isArray(opts.loopSizes) || opts.loopSizes.length === 0)
    throw badOption("timerDrift", "loopSizes must be a non-empty array");
  if (opts.loopSizes.some((n) => !Number.isFinite(n) || n < 0))
    throw badOption("timerDrift", `loop sizes must be finite numbers >= 0, got ${JSON.stringify(opts.loopSizes)}`);
  if (!Number.isFinite(delayMs) || delayMs < 0) throw badOption("timerDrift", `delayMs must be >= 0, got ${delayMs}`);
  if (!Number.isInteger(repeats) || repeats < 1)
    throw badOption("timerDrift", `repeats must be an integer >= 1, got ${repeats}`);
  work(Math.min(1000, ...opts.loopSizes)); // let the JIT compile the work before the first measured trial
  const rows: TimerDriftRow[] = [];
  for (const loopSize of opts.loopSizes) {
    const trials: { actualMs: number; blockedMs: number }[] = [];
    for (let i = 0; i < repeats; i++) {
      trials.push(await trial(delayMs, loopSize, work));
      await new Promise((r) => setImmediate(r)); // let anything the trial delayed run before the next one
    }
    const actual = trials.map((t) => t.actualMs);
    const actualMs = median(actual);
    rows.push({
      loopSize,
      scheduledMs: delayMs,
      actualMs,
      blockedMs: median(trials.map((t) => t.blockedMs)),
      lateMs: actualMs - delayMs,
      actualMinMs: Math.min(...actual),
      actualMaxMs: Math.max(...actual),
      repeats,
    });
  }
  return rows;
}
