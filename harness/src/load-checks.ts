import type { AppHandle } from "./apps";
import type { LoadOptions, LoadResult } from "./load";

/** The checks that make a load test fail loudly instead of reporting a wrong number. */
export class LoadTestError extends Error {
  constructor(message: string, readonly result?: LoadResult) {
    super(message);
  }
}

export async function preflight(url: string, method: string, opts: LoadOptions, allowed: Set<number>, app: AppHandle | null): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url, { method, headers: opts.headers, body: opts.body, signal: AbortSignal.timeout(10_000) });
  } catch (e) {
    throw new LoadTestError(`${method} ${url} failed before the load test: ${(e as Error).message}${app ? `\n--- stderr (tail) ---\n${app.stderr()}` : ""}`);
  }
  const body = await res.text();
  if ((res.status < 200 || res.status > 299) && !allowed.has(res.status)) {
    throw new LoadTestError(`${method} ${url} answered ${res.status} before the load test (expected 2xx${allowed.size ? ` or ${[...allowed].join(", ")}` : ""}): ${body.slice(0, 300)}`);
  }
}

export function check(r: LoadResult, allowed: Set<number>, allowErrors: boolean, app: AppHandle | null): void {
  const problems: string[] = [];
  const unexpected = Object.entries(r.statusCodes).filter(([code]) => !(+code >= 200 && +code <= 299) && !allowed.has(+code));
  if (unexpected.length) problems.push(`unexpected statuses: ${unexpected.map(([c, n]) => `${n} x ${c}`).join(", ")}`);
  if (!allowErrors && (r.errors > 0 || r.timeouts > 0)) problems.push(`${r.errors} errors and ${r.timeouts} timeouts`);
  if (r.totalRequests === 0) problems.push("no response at all during the measured runs");
  if (problems.length) {
    throw new LoadTestError(`load test "${r.label}" failed: ${problems.join("; ")}${app ? `\n--- stderr (tail) ---\n${app.stderr()}` : ""}`, r);
  }
}
