import type { AppHandle } from "./apps";
import type { LoadOptions, LoadResult } from "./load";

/** The checks that make a load test fail loudly instead of reporting a wrong number. */
export class LoadTestError extends Error {
  constructor(message: string, readonly result?: LoadResult) {
    super(message);
  }
}

const stderrTail = (app: AppHandle | null) => (app ? `\n--- stderr (tail) ---\n${app.stderr()}` : "");

export async function preflight(url: string, method: string, opts: LoadOptions, allowed: Set<number>, app: AppHandle | null): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url, { method, headers: opts.headers, body: opts.body, signal: AbortSignal.timeout(10_000), redirect: "manual" });
  } catch (e) {
    throw new LoadTestError(`${method} ${url} failed before the load test: ${(e as Error).message}${stderrTail(app)}`);
  }
  const body = await res.text();
  if ((res.status < 200 || res.status > 299) && !allowed.has(res.status)) {
    throw new LoadTestError(`${method} ${url} answered ${res.status} before the load test (expected 2xx${allowed.size ? ` or ${[...allowed].join(", ")}` : ""}): ${body.slice(0, 300)}`);
  }
}

/** Statuses neither 2xx nor allowed; errors and timeouts unless allowed (autocannon counts a timeout as an error too). */
function problems(statusCodes: Record<string, number>, errors: number, timeouts: number, allowed: Set<number>, allowErrors: boolean): string[] {
  const out: string[] = [];
  const unexpected = Object.entries(statusCodes).filter(([code]) => !(+code >= 200 && +code <= 299) && !allowed.has(+code));
  if (unexpected.length) out.push(`unexpected statuses: ${unexpected.map(([c, n]) => `${n} x ${c}`).join(", ")}`);
  if (!allowErrors && (errors > 0 || timeouts > 0)) out.push(`${errors} errors and ${timeouts} timeouts`);
  return out;
}

/** The measured runs, summed in the record. */
export function check(r: LoadResult, allowed: Set<number>, allowErrors: boolean, app: AppHandle | null): void {
  const found = problems(r.statusCodes, r.errors, r.timeouts, allowed, allowErrors);
  if (r.totalRequests === 0) found.push("no response at all during the measured runs");
  if (found.length) throw new LoadTestError(`load test "${r.label}" failed: ${found.join("; ")}${stderrTail(app)}`, r);
}

/** The warm-up run, by the same rules: its figures are discarded, its failures are not. */
export function checkWarmup(label: string, warmup: { statusCodes: Record<string, number>; errors: number; timeouts: number },
  allowed: Set<number>, allowErrors: boolean, app: AppHandle | null): void {
  const found = problems(warmup.statusCodes, warmup.errors, warmup.timeouts, allowed, allowErrors);
  if (found.length) throw new LoadTestError(`load test "${label}" failed in the warm-up, before any measured run: ${found.join("; ")}${stderrTail(app)}`);
}
