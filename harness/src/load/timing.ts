import { performance } from "node:perf_hooks";
import type { AppHandle } from "../apps/start";
import { badOption } from "../core/errors";
import { plural } from "../core/format";
import { loopbackUrl } from "../core/loopback";
import { type Spread, spread } from "../core/stats";

/**
 * Planning a load from a measurement (notebook 02): how long a route's work takes on this machine,
 * and the request rate that keeps a thread busy a chosen share of the time.
 */

export interface RouteTiming {
  /** The path as given (with `{name}` where each request had a fresh name). */
  path: string;
  /** Wall time of each measured request, from sending it to the last byte of the answer, in ms. */
  ms: Spread;
  /** The measured answers, parsed as JSON when they are JSON (e.g. an app's own `workMs`). */
  bodies: unknown[];
}

const letters = (n: number): string =>
  (n >= 26 ? letters(Math.floor(n / 26) - 1) : "") + String.fromCharCode(97 + (n % 26));
const prefix = letters(Math.floor(Math.random() * 26 ** 3));
let asked = 0;

/** `path` with every `{name}` replaced by a name of lowercase letters not asked before by this process. */
export function freshPath(path: string): string {
  return path.replace(/\{name\}/g, () => `${prefix}${letters(asked++)}`.slice(0, 20));
}

/**
 * Time a route on its own: `warmup` requests discarded, then `repeats` requests one after the other,
 * none overlapping. For a route that blocks the event loop, this is how long each request holds it.
 * `{name}` in `path` becomes, on every request, a name of lowercase letters never asked before, so
 * that no cache answers (an exercise's `background.path`). Throws on an answer other than 200 (with
 * the start of its body; a redirect is not followed) and on a non-loopback target. `repeats` default
 * 5, `warmup` 1, `timeoutMs` 30000. The work per request depends on the machine, so notebook 02 and
 * exercise 02 time it first and derive each rate from it (`rateForShare`).
 *
 * @example
 * const work = await wb.withApp("loop-blocking", (app) => wb.timeRoute(app, "/expensive", { repeats: 5 }));
 * const rate = wb.rateForShare(0.4, work.ms.median, { seconds: 5 });
 */
export async function timeRoute(
  target: AppHandle | string,
  path: string,
  opts: { repeats?: number; warmup?: number; timeoutMs?: number } = {},
): Promise<RouteTiming> {
  const repeats = opts.repeats ?? 5;
  const warmup = opts.warmup ?? 1;
  if (!Number.isInteger(repeats) || repeats < 1)
    throw badOption("timeRoute", `repeats must be an integer >= 1, got ${repeats}`);
  if (!Number.isInteger(warmup) || warmup < 0)
    throw badOption("timeRoute", `warmup must be an integer >= 0, got ${warmup}`);
  const base = typeof target === "string" ? target : target.url;
  const times: number[] = [];
  const bodies: unknown[] = [];
  for (let i = 0; i < warmup + repeats; i++) {
    const url = loopbackUrl(base, freshPath(path));
    const t0 = performance.now();
    const res = await fetch(url, { signal: AbortSignal.timeout(opts.timeoutMs ?? 30000), redirect: "manual" });
    const text = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`timeRoute: ${url.href} answered ${res.status}: ${text.slice(0, 200)}`);
    if (i < warmup) continue;
    times.push(Math.round(ms * 1000) / 1000);
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    bodies.push(body);
  }
  return { path, ms: spread(times), bodies };
}

/**
 * The request rate at which work costing `costMs` of one thread per request keeps that thread busy
 * `share` of the time: share x 1000 / costMs, rounded to two significant digits (share 0.4, 110 ms ->
 * 3.6 req/s; share 2 is twice what one thread can serve: an overload). With `seconds`, throws when a
 * run of that length would get fewer than `minPerRun` requests (default 1). Throws `WB_BAD_OPTION`
 * for a share or cost that is not > 0.
 */
export function rateForShare(
  share: number,
  costMs: number,
  opts: { seconds?: number; minPerRun?: number } = {},
): number {
  if (!(Number.isFinite(share) && share > 0)) throw badOption("rateForShare", `share must be > 0, got ${share}`);
  if (!(Number.isFinite(costMs) && costMs > 0)) throw badOption("rateForShare", `costMs must be > 0, got ${costMs}`);
  const rate = Number(((share * 1000) / costMs).toPrecision(2));
  const minPerRun = opts.minPerRun ?? 1;
  if (opts.seconds !== undefined && rate * opts.seconds < minPerRun) {
    throw badOption(
      "rateForShare",
      `at ${rate} req/s (a share of ${share} with ${costMs} ms per request) a ${opts.seconds} s run gets fewer than ${plural(minPerRun, "request")}; make the work smaller or the runs longer`,
    );
  }
  return rate;
}
