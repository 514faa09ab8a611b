import { exitText } from "../apps/spawn";
import type { AppHandle } from "../apps/start";
import { LoadTestError } from "../core/errors";
import { outcomeProblems } from "./outcome";
import type { LoadOptions, LoadResult, Outcome } from "./types";

/** The checks that make a load test fail loudly instead of reporting a wrong number. */

const appOutput = (app: AppHandle | null) => (app ? { app: app.name, stdout: app.stdout(), stderr: app.stderr() } : {});

/** One request before the load: a route that fails or answers an unexpected status fails at once, with the app's output. */
export async function preflight(
  url: string,
  method: string,
  opts: LoadOptions,
  allowed: ReadonlySet<number>,
  app: AppHandle | null,
): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: opts.headers,
      body: opts.body,
      signal: AbortSignal.timeout(10_000),
      redirect: "manual",
    });
  } catch (e) {
    throw new LoadTestError(
      "WB_LOAD",
      `${method} ${url} failed before the load test: ${(e as Error).message}`,
      appOutput(app),
    );
  }
  const body = await res.text();
  if ((res.status < 200 || res.status > 299) && !allowed.has(res.status)) {
    const expected = `expected 2xx${allowed.size ? ` or ${[...allowed].join(", ")}` : ""}`;
    throw new LoadTestError(
      "WB_LOAD",
      `${method} ${url} answered ${res.status} before the load test (${expected}): ${body.slice(0, 300)}`,
      {
        ...appOutput(app),
        hint:
          res.status === 404
            ? "is the path right? Pass allowStatuses: [404] if a 404 is what you mean to measure"
            : undefined,
      },
    );
  }
}

/** The measured runs, summed in the record. */
export function checkResult(
  r: LoadResult,
  allowed: ReadonlySet<number>,
  allowErrors: boolean,
  app: AppHandle | null,
): void {
  const found = outcomeProblems(r, allowed, allowErrors);
  if (r.totalRequests === 0) found.push("no response at all during the measured runs");
  if (found.length)
    throw new LoadTestError("WB_LOAD", `load test "${r.label}" failed: ${found.join("; ")}`, {
      ...appOutput(app),
      result: r,
    });
}

/**
 * Whether a load failed only by getting no answer (no error, no timeout, no unexpected status): an app
 * slower than the load was long (a request that takes 1.5 s under a 1 s load), not a broken one.
 */
export function answeredNothing(e: unknown): boolean {
  const r = e instanceof LoadTestError ? (e.result as LoadResult | undefined) : undefined;
  return !!r && r.totalRequests === 0 && outcomeProblems(r).length === 0;
}

/** The warm-up run, by the same rules: its figures are discarded, its failures are not. */
export function checkWarmup(
  label: string,
  warmup: Outcome,
  allowed: ReadonlySet<number>,
  allowErrors: boolean,
  app: AppHandle | null,
): void {
  const found = outcomeProblems(warmup, allowed, allowErrors);
  if (found.length) {
    throw new LoadTestError(
      "WB_LOAD",
      `load test "${label}" failed in the warm-up, before any measured run: ${found.join("; ")}`,
      appOutput(app),
    );
  }
}

/** The error for an app that exited while it was loaded. */
export function diedUnderLoad(app: AppHandle, info: { code: number | null; signal: string | null }): LoadTestError {
  return new LoadTestError("WB_APP_DIED", `app "${app.name}" died under load: it ${exitText(info)}`, {
    ...appOutput(app),
    hint: "an error thrown in a request handler ends the process unless it is caught: the end of its stderr says where",
  });
}
