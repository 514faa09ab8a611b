import http from "node:http";
import { performance } from "node:perf_hooks";
import type { AppHandle } from "../apps/start";
import { badOption } from "../core/errors";
import { loopbackUrl } from "../core/loopback";
import { pinGenerator } from "../core/pinning";
import { shellLine } from "../core/shell";
import { percentile } from "../core/stats";
import { sleep } from "../core/time";
import { autocannonCommand } from "./generator";
import { latencySummary } from "./outcome";
import { freshPath } from "./timing";
import type { LatencySummary, Outcome } from "./types";

/**
 * An evenly paced request generator: request i is sent at start + i / rate, whatever happened
 * to the requests before it (open loop). autocannon's rate limiter sends each connection's
 * per-second budget back to back at the start of every second; for head-of-line blocking
 * that burst decides the result, so the workbook paces by hand.
 */

export interface PacedOptions {
  /** An app handle or a loopback URL. */
  target: AppHandle | string;
  /**
   * Default "/". `{name}` in it becomes, on every request, a name never asked before (no cache can answer
   * it); `{i}` becomes the request's number modulo `cycle`.
   */
  path?: string;
  /** With `{i}` in the path: `{i}` takes the values 0 to cycle - 1 in turn, request after request (one load spread evenly over that many resources). Default 1. */
  cycle?: number;
  /** Default "GET". */
  method?: string;
  /** Requests per second, evenly spaced. */
  rate: number;
  /** How long to send, in seconds. */
  seconds: number;
  /** Requests in flight at most; a request due while this many wait is not sent and counted as `skipped`. Default 256. */
  maxInFlight?: number;
  /** Per-request timeout in ms. Default 10000. */
  timeoutMs?: number;
  /** Largest number of requests one call may send (rate x seconds). Default 100000. */
  maxRequests?: number;
  /** Default "<path> at <rate>/s". */
  label?: string;
  /**
   * OPTIONAL: send with every request this header, carrying the time the request was due as
   * `t=<ms since the epoch>` (e.g. "x-request-start"), as a proxy in front of an app stamps
   * when it received a request. An app can then tell how long a request queued before it was
   * read (apps/loop-shedding-queue). Default: no header.
   */
  stampHeader?: string;
  /** Pin the load generator to its own core. Default: when the app is pinned. */
  pin?: boolean;
  /**
   * OPTIONAL: when each latency starts. "due" (default): when the request was due, so that a pause of
   * this process is in every figure, as a user arriving on time would wait it (the notebooks' loads).
   * "sent": when it went, so that this process's own pauses (another program on its core) are left
   * out, while the app's are not: each request still goes out on schedule, whatever the app is doing
   * (the exercise checks, whose ratio must measure the app alone).
   */
  timeFrom?: "due" | "sent";
}

export interface PacedSample {
  /** Seconds after the start at which the request was due. */
  t: number;
  /** From the moment it was due (= sent; with timeFrom "sent", when it went) to the last byte of the answer; null on error. */
  latencyMs: number | null;
  /** HTTP status, or 0 for a socket error or a timeout. */
  status: number;
}

/** A paced load's counts: `totalRequests` are the answers (any status). */
export interface PacedResult extends Outcome {
  label: string;
  url: string;
  rate: number;
  seconds: number;
  /** Requests due, sent, and skipped (too many in flight). */
  due: number;
  sent: number;
  skipped: number;
  /**
   * The nearest command line, from the workbook's folder: autocannon at the same rate (`-R`) over as
   * many connections as this load may keep in flight. Not the same instrument: this generator is open
   * loop (it sends on schedule while answers are late), autocannon waits on each connection for its
   * answer, so a stalled server also slows it; wrk2 (`-R`) is open loop but not packaged by Debian.
   */
  command: string;
  /** Socket errors by code (e.g. ECONNRESET), so a failure says what it was. */
  errorCodes: Record<string, number>;
  /** Requests sent a second time after a reused keep-alive connection was reset before any answer (at most once each). */
  retried: number;
  /** Latency of every answered request, and of the 2xx answers only. */
  latencyMs: LatencySummary;
  okLatencyMs: LatencySummary;
  /** Latency of the answers of each status, keyed as `statusCodes` (e.g. the 503s a shedding app refused at once). */
  statusLatencyMs: Record<string, LatencySummary>;
  /** How late the generator sent, in ms (p99 and max): large values mean this process was busy. */
  sendLagMs: { p99: number; max: number };
  samples: PacedSample[];
}

function check(opts: PacedOptions): URL {
  const base = typeof opts.target === "string" ? opts.target : opts.target.url;
  const url = loopbackUrl(base, opts.path ?? "/");
  const maxRequests = opts.maxRequests ?? 100000;
  if (!(Number.isFinite(opts.rate) && opts.rate > 0))
    throw badOption("pacedLoad", `rate must be > 0 req/s, got ${opts.rate}`);
  if (!(Number.isFinite(opts.seconds) && opts.seconds > 0))
    throw badOption("pacedLoad", `seconds must be > 0, got ${opts.seconds}`);
  if (opts.cycle !== undefined && !(Number.isInteger(opts.cycle) && opts.cycle > 0))
    throw badOption("pacedLoad", `cycle must be a whole number > 0, got ${opts.cycle}`);
  if (opts.rate * opts.seconds > maxRequests) {
    throw badOption(
      "pacedLoad",
      `${opts.rate}/s for ${opts.seconds} s is more than maxRequests (${maxRequests}): the load must stay bounded`,
    );
  }
  return url;
}

/**
 * Send `rate` requests per second, evenly spaced, for `seconds`; resolve when every answer is in.
 * Request i goes at start + i / rate (open loop: a slow answer does not delay the next), and its
 * latency runs from when it was due (or, with `timeFrom: "sent"`, from when it went), which is when
 * it was sent unless this process was busy (`sendLagMs`; a request a timer sent a little early is
 * timed from when it went). Head-of-line
 * blocking needs this: autocannon's `rate` is a per-connection budget spent back to back at the start
 * of every second (a "4 req/s" load arrives as a burst of 4), and without a rate it is a closed loop,
 * in which a connection stuck behind a block sends nothing more.
 *
 * It never throws for the target's answers: non-2xx answers, socket errors and timeouts are counted,
 * and the caller decides. One failure is retried, once: a GET or HEAD reset on a reused keep-alive
 * connection before any answer (Node's `request.reusedSocket` race), counted in `retried`. A request
 * due while `maxInFlight` (256) wait is not sent and counted in `skipped`. `stampHeader` (e.g.
 * "x-request-start") carries the time each request was due as `t=<ms since the epoch>`, as a proxy
 * stamps it, so the app can measure how long each queued. Throws before sending anything:
 * `WB_NOT_LOOPBACK`; `WB_BAD_OPTION` for a rate or duration not > 0, a `cycle` that is not a whole
 * number > 0, or more than `maxRequests` (100000) requests. `{i}` in the path, with `cycle`, spreads
 * the load over that many resources in turn (exercise 05 asks for 20 products this way).
 *
 * @example
 * const alone = await wb.withApp("loop-blocking", (app) => wb.pacedLoad({ target: app, path: "/cheap", rate: 200, seconds: 2 }));
 * console.log(`p99 ${alone.latencyMs.p99} ms over ${alone.totalRequests} answers, ${alone.non2xx} non-2xx`);
 */
export async function pacedLoad(opts: PacedOptions): Promise<PacedResult> {
  const url = check(opts);
  // A fresh name on every request, as timeRoute and the exercises' background fill `{name}`; `{i}` in turn.
  const cycle = opts.cycle ?? 1;
  const urlOf = /\{name\}|\{i\}/.test(opts.path ?? "/")
    ? (i: number) => loopbackUrl(url.origin, freshPath(opts.path!).replace(/\{i\}/g, String(i % cycle)))
    : () => url;
  const method = opts.method ?? "GET";
  const idempotent = method === "GET" || method === "HEAD";
  const maxInFlight = opts.maxInFlight ?? 256;
  const timeoutMs = opts.timeoutMs ?? 10000;
  const due = Math.floor(opts.rate * opts.seconds);
  const agent = new http.Agent({ keepAlive: true, maxSockets: maxInFlight });
  const samples: PacedSample[] = [];
  const lags: number[] = [];
  const statusCodes: Record<string, number> = {};
  const errorCodes: Record<string, number> = {};
  const failed = (err: NodeJS.ErrnoException) => {
    const code = err.code ?? err.message;
    errorCodes[code] = (errorCodes[code] ?? 0) + 1;
    errors++;
  };
  let inFlight = 0,
    skipped = 0,
    errors = 0,
    timeouts = 0,
    retried = 0;
  const pending: Promise<void>[] = [];

  // Request i, due at `dueAt`, its latency timed from `from` (see timeFrom).
  const one = (i: number, dueAt: number, from: number, t: number) =>
    new Promise<void>((resolve) => {
      inFlight++;
      let done = false;
      const finish = (status: number, latencyMs: number | null) => {
        if (done) return;
        done = true;
        inFlight--;
        samples.push({ t, latencyMs, status });
        if (status) statusCodes[status] = (statusCodes[status] ?? 0) + 1;
        resolve();
      };
      const requestUrl = urlOf(i); // its retry asks the same
      const headers = opts.stampHeader
        ? { [opts.stampHeader]: `t=${(performance.timeOrigin + dueAt).toFixed(3)}` }
        : undefined;
      const send = (retry: boolean) => {
        // A retry goes on a connection of its own (agent: false): the shared agent could hand it another
        // reused connection, which the same race may have closed.
        const req = http.request(
          requestUrl,
          { method, agent: retry ? false : agent, timeout: timeoutMs, headers },
          (res) => {
            res.resume();
            res.on("end", () => finish(res.statusCode ?? 0, performance.now() - from));
            res.on("error", (err) => {
              if (!done) failed(err);
              finish(0, null);
            });
          },
        );
        req.on("timeout", () => {
          timeouts++;
          req.destroy(new Error("timeout"));
          finish(0, null);
        });
        req.on("error", (err: NodeJS.ErrnoException) => {
          if (done) return;
          // The keep-alive race Node's docs describe under request.reusedSocket: the server closed an
          // idle connection just as this request went out on it. A GET or HEAD is safe to send once
          // more, on a fresh connection (its latency still counts from when it was due).
          if (!retry && idempotent && req.reusedSocket && err.code === "ECONNRESET") {
            retried++;
            send(true);
            return;
          }
          failed(err);
          finish(0, null);
        });
        req.end();
      };
      send(false);
    });

  const pinned = opts.pin ?? (typeof opts.target !== "string" && opts.target.cpus !== null);
  const release = pinGenerator(pinned);
  const start = performance.now() + 5;
  try {
    for (let i = 0; i < due; i++) {
      const dueAt = start + (i * 1000) / opts.rate;
      const wait = dueAt - performance.now();
      if (wait > 1) await sleep(wait);
      else if (i % 50 === 0) await new Promise((r) => setImmediate(r)); // let answers in when running behind
      lags.push(Math.max(0, performance.now() - dueAt));
      if (inFlight >= maxInFlight) {
        skipped++;
        continue;
      }
      // A timer can wake up to a millisecond early (libuv counts whole milliseconds): a request sent
      // before it was due is timed from when it went, never from a time still to come.
      const from = opts.timeFrom === "sent" ? performance.now() : Math.min(dueAt, performance.now());
      pending.push(one(i, dueAt, from, (dueAt - start) / 1000));
    }
    await Promise.all(pending);
  } finally {
    agent.destroy();
    release();
  }
  samples.sort((a, b) => a.t - b.t);
  const answered = samples.filter((s) => s.latencyMs !== null);
  const ok = answered.filter((s) => s.status >= 200 && s.status < 300);
  return {
    label: opts.label ?? `${opts.path ?? "/"} at ${opts.rate}/s`,
    url: url.href,
    rate: opts.rate,
    seconds: opts.seconds,
    command: shellLine(
      autocannonCommand(
        {
          url: url.href,
          method,
          connections: maxInFlight,
          pipelining: 1,
          seconds: opts.seconds,
          timeoutSeconds: timeoutMs / 1000,
          rate: opts.rate,
        },
        pinned,
      ),
    ),
    due,
    sent: pending.length,
    totalRequests: answered.length,
    skipped,
    errors,
    timeouts,
    errorCodes,
    retried,
    statusCodes,
    non2xx: answered.length - ok.length,
    latencyMs: latencySummary(answered.map((s) => s.latencyMs as number)),
    okLatencyMs: latencySummary(ok.map((s) => s.latencyMs as number)),
    statusLatencyMs: Object.fromEntries(
      Object.keys(statusCodes).map((code) => [
        code,
        latencySummary(answered.filter((s) => String(s.status) === code).map((s) => s.latencyMs as number)),
      ]),
    ),
    sendLagMs: {
      p99: Math.round(percentile(lags, 99) * 1000) / 1000,
      max: Math.round(Math.max(0, ...lags) * 1000) / 1000,
    },
    samples,
  };
}

/** What went wrong in a paced load, in words; null when every request was answered with a 2xx. */
export function pacedFailure(
  t: Pick<PacedResult, "label" | "due" | "errors" | "timeouts" | "non2xx" | "skipped" | "statusCodes" | "errorCodes">,
): string | null {
  const bad = t.errors + t.timeouts + t.non2xx + t.skipped;
  if (bad === 0) return null;
  const list = (o: Record<string, number>, skip = /^$/) =>
    Object.entries(o)
      .filter(([k]) => !skip.test(k))
      .map(([k, n]) => `${k} x${n}`)
      .join(", ");
  const parts = [
    t.non2xx ? `status ${list(t.statusCodes, /^2/)}` : "",
    t.errors ? `socket errors ${list(t.errorCodes)}` : "",
    t.timeouts ? `${t.timeouts} timed out` : "",
    t.skipped ? `${t.skipped} not sent (too many waiting)` : "",
  ].filter(Boolean);
  return `${bad} of ${t.due} requests (${t.label}) failed: ${parts.join("; ")}`;
}
