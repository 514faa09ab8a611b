import { newOutput, Output, inKernel } from "./display";
import { lines, fmt } from "./charts-ready";
import { stack, show } from "./charts";

/** One second of a load test, as the live chart and the result's `series` hold it. */
export interface SecondSample {
  /** "warm-up", "run 1", "run 2", ... */
  run: string;
  /** Seconds since the start of that run. */
  second: number;
  reqPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** The server's CPU in % of one core over that second, when an app handle was given. */
  serverCpuPercent: number | null;
}

/** Draws per-second req/s and latency, redrawn in place while a load test runs. */
export class LiveChart {
  private readonly output: Output | null;
  private lastDraw = 0;

  constructor(private readonly title: string, enabled: boolean) {
    this.output = enabled && inKernel() ? newOutput() : null;
  }

  /** Redraw (SVG only, at most once a second: the generator shares this process). */
  update(samples: SecondSample[], status: string): void {
    if (!this.output || Date.now() - this.lastDraw < 900 || samples.length === 0) return;
    this.lastDraw = Date.now();
    show(chartOf(this.title, samples, status), this.output, { png: false });
  }

  /** The final frame, with PNG so it survives export and untrusted notebooks. */
  finish(samples: SecondSample[], status: string): void {
    if (!this.output || samples.length === 0) return;
    show(chartOf(this.title, samples, status), this.output, { png: true });
  }
}

export function chartOf(title: string, samples: SecondSample[], status: string) {
  // One continuous time axis across warm-up and runs, coloured by run.
  let offset = 0;
  let prevRun = "";
  let prevEnd = 0;
  const xs = samples.map((s) => {
    if (s.run !== prevRun) {
      offset = prevEnd;
      prevRun = s.run;
    }
    prevEnd = offset + s.second;
    return { ...s, x: offset + s.second };
  });
  const rps = lines(xs.map((s) => ({ x: s.x, y: s.reqPerSec, series: s.run })), {
    title: "requests per second", xLabel: "seconds", yLabel: "req/s", height: 200,
  });
  const lat = lines(
    xs.flatMap((s) => [
      { x: s.x, y: s.latencyP50Ms, series: "p50" },
      { x: s.x, y: s.latencyP99Ms, series: "p99" },
    ]),
    { title: "latency per second", xLabel: "seconds", yLabel: "ms", height: 200 },
  );
  const last = samples[samples.length - 1];
  return stack([rps, lat], {
    title,
    subtitle: `${status} — last second: ${fmt(last.reqPerSec)} req/s, p99 ${fmt(last.latencyP99Ms)} ms`,
  });
}
